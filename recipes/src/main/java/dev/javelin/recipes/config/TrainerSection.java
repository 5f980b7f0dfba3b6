package dev.javelin.recipes.config;

import dev.javelin.trainer.Checkpointer;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;

/**
 * {@code trainer.*}: the run's length, cadence, output and placement.
 *
 * @param projectName {@code project_name}
 * @param experimentName {@code experiment_name}
 * @param totalTrainingSteps {@code total_training_steps}; 0 means epochs × batches per epoch
 * @param totalEpochs {@code total_epochs}
 * @param saveFreq checkpoint every N steps; -1 only at the end
 * @param testFreq validate every N steps; -1 only at the end
 * @param valBeforeTrain validate before step 1
 * @param logValGenerations {@code log_val_generations}: greedy validation generations written to
 *     {@code val_generations.jsonl} per validation; 0 writes none
 * @param defaultLocalDir checkpoints, metrics.jsonl and the resolved recipe go here
 * @param resumeMode {@code auto}, {@code disable} or a {@code global_step_N} path
 * @param maxCkptToKeep checkpoints kept; 0 keeps all
 * @param seed seeds sampling (per request) and the trainer's shuffles
 * @param device device spec (cpu, ref, xla:...)
 * @param samplers sampler actors
 * @param ray where the actors run ({@link RayMode})
 * @param rayAddress the cluster's GCS address ({@code host:port}); null means {@code RAY_ADDRESS}
 * @param maxRestarts how often a dead sampler actor is restarted (cluster mode), and how often a
 *     trainer gang ({@code trainer.nnodes} > 1) whose rank failed is restarted in a run
 * @param rolloutMode whether generation overlaps the update ({@link RolloutMode})
 * @param loggers {@code trainer.logger}: any of {@link #LOGGERS} plus {@code wandb} (accepted for
 *     VeRL recipes, reported as unavailable); metrics.jsonl is always written
 */
public record TrainerSection(
    String projectName,
    String experimentName,
    int totalTrainingSteps,
    int totalEpochs,
    int saveFreq,
    int testFreq,
    boolean valBeforeTrain,
    int logValGenerations,
    Path defaultLocalDir,
    String resumeMode,
    int maxCkptToKeep,
    long seed,
    String device,
    int samplers,
    RayMode ray,
    String rayAddress,
    int maxRestarts,
    RolloutMode rolloutMode,
    List<String> loggers) {
  static final KeySet KEYS = new KeySet("trainer.");
  public static final KeySpec PROJECT_NAME =
      KEYS.of("project_name", KeyType.STRING, "javelin", "project");
  public static final KeySpec EXPERIMENT_NAME =
      KEYS.of("experiment_name", KeyType.STRING, "run", "experiment");
  public static final KeySpec TOTAL_TRAINING_STEPS =
      KEYS.optional("total_training_steps", KeyType.INT, "steps; default epochs × batches");
  public static final KeySpec TOTAL_EPOCHS =
      KEYS.of("total_epochs", KeyType.INT, 1, "epochs when total_training_steps is unset");
  public static final KeySpec SAVE_FREQ =
      KEYS.of("save_freq", KeyType.INT, -1, "checkpoint every N steps; -1 only at the end");
  public static final KeySpec TEST_FREQ =
      KEYS.of("test_freq", KeyType.INT, -1, "validate every N steps; -1 only at the end");
  public static final KeySpec VAL_BEFORE_TRAIN =
      KEYS.of("val_before_train", KeyType.BOOL, true, "validate before the first step");
  public static final KeySpec LOG_VAL_GENERATIONS =
      KEYS.of(
          "log_val_generations",
          KeyType.INT,
          0,
          "validation generations logged to val_generations.jsonl; 0 logs none");
  public static final KeySpec DEFAULT_LOCAL_DIR =
      KEYS.optional("default_local_dir", KeyType.STRING, "checkpoints/<project>/<experiment>");
  public static final KeySpec RESUME_MODE =
      KEYS.of("resume_mode", KeyType.STRING, "auto", "auto, disable or a global_step_N dir");
  public static final KeySpec MAX_ACTOR_CKPT_TO_KEEP =
      KEYS.of("max_actor_ckpt_to_keep", KeyType.INT, 0, "checkpoints kept; 0 keeps all");
  public static final KeySpec SEED =
      KEYS.of("seed", KeyType.LONG, 1L, "seed of sampling and trainer shuffles");
  public static final KeySpec DEVICE =
      KEYS.of("device", KeyType.STRING, "cpu", "device spec for trainer and samplers");
  public static final KeySpec SAMPLERS =
      KEYS.of("samplers", KeyType.INT, 2, "sampler actors (--samplers N)");
  public static final KeySpec RAY =
      KEYS.of(
          "ray",
          KeyType.keysOf(RayMode.class),
          RayMode.LOCAL.key(),
          "Ray local mode, a Ray cluster, or plain objects");
  public static final KeySpec RAY_ADDRESS =
      KEYS.optional("ray_address", KeyType.STRING, "cluster address; default $RAY_ADDRESS");
  public static final KeySpec MAX_RESTARTS =
      KEYS.of(
          "max_restarts",
          KeyType.INT,
          3,
          "restarts of a dead sampler actor (cluster), or of a failed trainer gang");
  public static final KeySpec ROLLOUT_MODE =
      KEYS.of(
          "rollout_mode",
          KeyType.keysOf(RolloutMode.class),
          RolloutMode.SYNC.key(),
          "sync, or generate step k+1 while training step k");
  public static final KeySpec LOGGER =
      KEYS.of(
          "logger",
          KeyType.STRING_LIST,
          List.of("console"),
          "console, jsonl, tensorboard and/or mlflow (metrics.jsonl is always written)");

  /** The backends {@code trainer.logger} can name; {@code wandb} is also accepted (no-op). */
  public static final List<String> LOGGERS = List.of("console", "jsonl", "tensorboard", "mlflow");

  /** Validates each key. */
  public TrainerSection {
    Objects.requireNonNull(defaultLocalDir, "defaultLocalDir");
    Objects.requireNonNull(rolloutMode, "rolloutMode");
    loggers = List.copyOf(loggers);
    Checks.require(totalTrainingSteps >= 0, TOTAL_TRAINING_STEPS.name(), "must be >= 1");
    Checks.positive(TOTAL_EPOCHS.name(), totalEpochs);
    Checks.require(saveFreq == -1 || saveFreq > 0, SAVE_FREQ.name(), "use -1 or N > 0");
    Checks.require(testFreq == -1 || testFreq > 0, TEST_FREQ.name(), "use -1 or N > 0");
    Checks.require(logValGenerations >= 0, LOG_VAL_GENERATIONS.name(), "must be >= 0");
    Checks.require(maxCkptToKeep >= 0, MAX_ACTOR_CKPT_TO_KEEP.name(), "must be >= 0");
    Checks.positive(SAMPLERS.name(), samplers);
    Checks.require(maxRestarts >= 0, MAX_RESTARTS.name(), "must be >= 0");
    Checks.require(!resumeMode.isBlank(), RESUME_MODE.name(), "auto, disable or a path");
    for (String l : loggers) {
      Checks.require(
          LOGGERS.contains(l) || l.equals("wandb"),
          LOGGER.name(),
          "'" + l + "' is not one of " + LOGGERS);
    }
  }

  /** The device specs a recipe may name (what each one needs is checked when it opens). */
  private static final List<String> DEVICES = List.of("cpu", "ref", "xla:cpu", "xla:gpu", "tpu");

  static TrainerSection from(Settings s) {
    String device = s.getString(DEVICE);
    Checks.require(
        DEVICES.contains(device),
        DEVICE.name(),
        "'"
            + device
            + "' is not a device; use one of "
            + DEVICES
            + (device.contains("gpu") || device.contains("cuda") ? " (a GPU is xla:gpu)" : "")
            + (device.contains("@")
                ? " (Javelin assigns the chips: set trainer.n_gpus_per_node and the"
                    + " tensor_model_parallel_size keys)"
                : ""));
    String project = s.getString(PROJECT_NAME);
    String experiment = s.getString(EXPERIMENT_NAME);
    Path dir =
        Path.of(s.optString(DEFAULT_LOCAL_DIR).orElse("checkpoints/" + project + "/" + experiment));
    return new TrainerSection(
        project,
        experiment,
        s.positiveIntOrZero(TOTAL_TRAINING_STEPS),
        s.getInt(TOTAL_EPOCHS),
        s.getInt(SAVE_FREQ),
        s.getInt(TEST_FREQ),
        s.getBool(VAL_BEFORE_TRAIN),
        s.getInt(LOG_VAL_GENERATIONS),
        dir,
        s.getString(RESUME_MODE),
        s.getInt(MAX_ACTOR_CKPT_TO_KEEP),
        s.getLong(SEED),
        s.getString(DEVICE),
        s.getInt(SAMPLERS),
        s.getChoice(RAY, RayMode.class),
        s.optNonBlank(RAY_ADDRESS).orElse(null),
        s.getInt(MAX_RESTARTS),
        s.getChoice(ROLLOUT_MODE, RolloutMode.class),
        s.getStrings(LOGGER));
  }

  /** {@code trainer.ray}: where the trainer and samplers run. */
  public enum RayMode implements RecipeChoice {
    /** Ray local mode in this JVM (one actor call at a time). */
    LOCAL,
    /** A running Ray cluster: the actors are worker processes. */
    CLUSTER,
    /** Plain objects in this JVM, on threads of their own. */
    OFF
  }

  /** {@code trainer.rollout_mode}: when the samplers generate relative to the update. */
  public enum RolloutMode implements RecipeChoice {
    /** Generate step k, then train on it. */
    SYNC,
    /** Generate step k+1 while training step k. */
    ONE_STEP_OFF
  }

  /** Whether generation of step k+1 overlaps the update of step k. */
  public boolean oneStepOff() {
    return rolloutMode == RolloutMode.ONE_STEP_OFF;
  }

  private static final Checkpointer.SettingNames CHECKPOINT_KEYS =
      new Checkpointer.SettingNames(DEFAULT_LOCAL_DIR.name(), RESUME_MODE.name());

  /** The run's checkpoints, whose messages name this section's keys. */
  public Checkpointer checkpointer() {
    return new Checkpointer(defaultLocalDir, maxCkptToKeep, CHECKPOINT_KEYS);
  }

  /** Whether step {@code step} (1-based) is a checkpoint step. */
  public boolean savesAt(int step, int lastStep) {
    return step == lastStep || (saveFreq > 0 && step % saveFreq == 0);
  }

  /** Whether step {@code step} (1-based) validates. */
  public boolean testsAt(int step, int lastStep) {
    return step == lastStep || (testFreq > 0 && step % testFreq == 0);
  }
}
