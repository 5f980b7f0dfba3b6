package dev.javelin.recipes.config;

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
 * @param defaultLocalDir checkpoints, metrics.jsonl and the resolved recipe go here
 * @param resumeMode {@code auto}, {@code disable} or a {@code global_step_N} path
 * @param maxCkptToKeep checkpoints kept; 0 keeps all
 * @param seed seeds sampling (per request) and the trainer's shuffles
 * @param device device spec (cpu, ref, xla:...)
 * @param samplers sampler actors
 * @param ray {@code local} (Ray local mode in this JVM), {@code cluster} (a running Ray cluster) or
 *     {@code off} (plain objects)
 * @param rayAddress the cluster's GCS address ({@code host:port}); null means {@code RAY_ADDRESS}
 * @param maxRestarts how often a dead sampler actor is restarted (cluster mode)
 * @param rolloutMode {@code sync} or {@code one_step_off} (generation of step k+1 overlaps the
 *     update of step k)
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
    Path defaultLocalDir,
    String resumeMode,
    int maxCkptToKeep,
    long seed,
    String device,
    int samplers,
    String ray,
    String rayAddress,
    int maxRestarts,
    String rolloutMode,
    List<String> loggers) {

  /** The backends {@code trainer.logger} can name; {@code wandb} is also accepted (no-op). */
  public static final List<String> LOGGERS = List.of("console", "jsonl", "tensorboard", "mlflow");

  /** Validates each key. */
  public TrainerSection {
    Objects.requireNonNull(defaultLocalDir, "defaultLocalDir");
    loggers = List.copyOf(loggers);
    Checks.require(totalTrainingSteps >= 0, "trainer.total_training_steps", "must be >= 1");
    Checks.positive("trainer.total_epochs", totalEpochs);
    Checks.require(saveFreq == -1 || saveFreq > 0, "trainer.save_freq", "use -1 or N > 0");
    Checks.require(testFreq == -1 || testFreq > 0, "trainer.test_freq", "use -1 or N > 0");
    Checks.require(maxCkptToKeep >= 0, "trainer.max_actor_ckpt_to_keep", "must be >= 0");
    Checks.positive("trainer.samplers", samplers);
    Checks.require(maxRestarts >= 0, "trainer.max_restarts", "must be >= 0");
    Checks.require(!resumeMode.isBlank(), "trainer.resume_mode", "auto, disable or a path");
    for (String l : loggers) {
      Checks.require(
          LOGGERS.contains(l) || l.equals("wandb"),
          "trainer.logger",
          "'" + l + "' is not one of " + LOGGERS);
    }
  }

  /** The device specs a recipe may name (what each one needs is checked when it opens). */
  private static final List<String> DEVICES = List.of("cpu", "ref", "xla:cpu", "xla:gpu", "tpu");

  static TrainerSection from(Settings s) {
    String device = s.getString("trainer.device");
    Checks.require(
        DEVICES.contains(device),
        "trainer.device",
        "'"
            + device
            + "' is not a device; use one of "
            + DEVICES
            + (device.contains("gpu") || device.contains("cuda") ? " (a GPU is xla:gpu)" : ""));
    String project = s.getString("trainer.project_name");
    String experiment = s.getString("trainer.experiment_name");
    Path dir =
        Path.of(
            s.optString("trainer.default_local_dir")
                .orElse("checkpoints/" + project + "/" + experiment));
    return new TrainerSection(
        project,
        experiment,
        s.isSet("trainer.total_training_steps")
            ? Checks.positive(
                "trainer.total_training_steps", s.getInt("trainer.total_training_steps"))
            : 0,
        s.getInt("trainer.total_epochs"),
        s.getInt("trainer.save_freq"),
        s.getInt("trainer.test_freq"),
        s.getBool("trainer.val_before_train"),
        dir,
        s.getString("trainer.resume_mode"),
        s.getInt("trainer.max_actor_ckpt_to_keep"),
        s.getLong("trainer.seed"),
        s.getString("trainer.device"),
        s.getInt("trainer.samplers"),
        s.getString("trainer.ray"),
        s.optString("trainer.ray_address").filter(a -> !a.isBlank()).orElse(null),
        s.getInt("trainer.max_restarts"),
        s.getString("trainer.rollout_mode"),
        s.getStrings("trainer.logger"));
  }

  /** Whether generation of step k+1 overlaps the update of step k. */
  public boolean oneStepOff() {
    return rolloutMode.equals("one_step_off");
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
