package dev.javelin.recipes.config;

import dev.javelin.backend.model.LoraConfig;
import dev.javelin.grpo.AlgorithmConfig;
import dev.javelin.rewards.RewardConfigException;
import dev.javelin.rewards.RewardSpec;
import dev.javelin.rewards.worker.WorkerConfig;
import dev.javelin.trainer.TrainerConfig;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * A whole recipe, validated: each section is an immutable record, and combinations that cannot run
 * (a mini-batch that does not divide the batch, a micro-batch that does not divide the mini-batch,
 * ...) fail here with the key named, before any work is done.
 *
 * @param settings the resolved key/value view (kept to hand the recipe to actors as text)
 * @param data {@code data.*}
 * @param model {@code actor_rollout_ref.model.*}
 * @param actor {@code actor_rollout_ref.actor.*}
 * @param rollout {@code actor_rollout_ref.rollout.*}
 * @param algorithm {@code algorithm.*}, the grpo library's record
 * @param reward {@code custom_reward_function.*}
 * @param rewardTimeout {@code reward.timeout_s}
 * @param trainer {@code trainer.*}
 * @param sftOutputDir {@code sft.output_dir}: where {@code sft} writes the final model
 * @param overlong {@code reward_model.overlong_buffer.*}: DAPO's overlong reward shaping
 * @param lora {@code actor_rollout_ref.model.lora_*}: the adapters, or none
 * @param chips which chips the trainer and each sampler own ({@code trainer.n_gpus_per_node}, ...)
 */
public record RecipeConfig(
    Settings settings,
    DataConfig data,
    ModelSection model,
    ActorConfig actor,
    RolloutConfig rollout,
    AlgorithmConfig algorithm,
    RewardSpec reward,
    Duration rewardTimeout,
    TrainerSection trainer,
    String sftOutputDir,
    OverlongBufferKeys.Shaping overlong,
    LoraConfig lora,
    ChipPlan chips) {
  static final KeySet KEYS = new KeySet();
  private static final String REWARD_SECTION = "custom_reward_function";
  public static final KeySpec REWARD_PATH =
      KEYS.optional(
          "custom_reward_function.path", KeyType.STRING, "a reward's .java file, jar or classes");
  public static final KeySpec REWARD_CLASS =
      KEYS.optional("custom_reward_function.class", KeyType.STRING, "a RewardFunction class name");
  public static final KeySpec REWARD_NAME =
      KEYS.optional(
          "custom_reward_function.name", KeyType.STRING, "a registered reward or class name");
  public static final KeySpec REWARD_KWARGS =
      KEYS.optional("custom_reward_function.reward_kwargs", KeyType.MAP, "keyword arguments");
  public static final KeySpec REWARD_TIMEOUT_S =
      KEYS.of("reward.timeout_s", KeyType.DOUBLE, 10.0, "time limit of one reward call, seconds");
  public static final KeySpec SFT_OUTPUT_DIR =
      KEYS.optional(
          "sft.output_dir", KeyType.STRING, "where `sft` writes the final model (HF layout)");
  public static final KeySpec SFT_STOP_AT_ACCURACY =
      KEYS.optional(
          "sft.stop_at_accuracy", KeyType.DOUBLE, "sft stops once held-out greedy acc >= this");

  /** Checks the cross-section combinations. */
  public RecipeConfig {
    Objects.requireNonNull(settings, "settings");
    Objects.requireNonNull(overlong, "overlong");
    Objects.requireNonNull(lora, "lora");
    Objects.requireNonNull(chips, "chips");
    int batch = data.trainBatchSize();
    int mini = actor.ppoMiniBatchSize();
    Checks.require(
        batch % mini == 0,
        ActorConfig.PPO_MINI_BATCH_SIZE.name(),
        mini + " prompts must divide data.train_batch_size (" + batch + ")");
    int miniSamples = mini * rollout.n();
    int micro = actor.ppoMicroBatchSize();
    Checks.require(
        micro == 0 || miniSamples % micro == 0,
        ActorConfig.PPO_MICRO_BATCH_SIZE_PER_GPU.name(),
        micro
            + " must divide the mini-batch of "
            + miniSamples
            + " samples (ppo_mini_batch_size × rollout.n)");
    if (model.path() == null) {
      int need = data.maxPromptLength() + data.maxResponseLength();
      Checks.require(
          need <= model.init().maxPositions(),
          ModelSection.INIT_MAX_POSITIONS.name(),
          model.init().maxPositions()
              + " is shorter than data.max_prompt_length + data.max_response_length ("
              + need
              + ")");
    }
  }

  /** Builds every section from resolved settings. */
  public static RecipeConfig from(Settings s) {
    DataConfig data = Checks.build("data", () -> DataConfig.from(s));
    ModelSection model = Checks.build("actor_rollout_ref.model", () -> ModelSection.from(s));
    LoraConfig lora = Checks.build("actor_rollout_ref.model", () -> LoraKeys.from(s));
    ModelOverrideKeys.from(s);
    ActorConfig actor = Checks.build("actor_rollout_ref.actor", () -> ActorConfig.from(s));
    RolloutConfig rollout = Checks.build("actor_rollout_ref.rollout", () -> RolloutConfig.from(s));
    AlgorithmConfig algorithm = Checks.build("algorithm", () -> AlgorithmKeys.from(s));
    RewardSpec reward = Checks.build(REWARD_SECTION, () -> reward(s));
    double timeout = s.getDouble(REWARD_TIMEOUT_S);
    Checks.require(timeout > 0, REWARD_TIMEOUT_S.name(), "must be > 0");
    RewardWorkerKeys.from(s, Duration.ofMillis((long) (timeout * 1000))); // checked at load
    TrainerSection trainer = Checks.build("trainer", () -> TrainerSection.from(s));
    ChipPlan chips = ChipKeys.from(s); // sizes checked before any actor starts
    if (s.isSet(SFT_STOP_AT_ACCURACY)) {
      double stop = s.getDouble(SFT_STOP_AT_ACCURACY);
      Checks.require(stop > 0 && stop <= 1, SFT_STOP_AT_ACCURACY.name(), "must be in (0, 1]");
    }
    return new RecipeConfig(
        s,
        data,
        model,
        actor,
        rollout,
        algorithm,
        reward,
        Duration.ofMillis((long) (timeout * 1000)),
        trainer,
        s.optString(SFT_OUTPUT_DIR).orElse(null),
        OverlongBufferKeys.from(s, data.maxResponseLength()),
        lora,
        chips);
  }

  private static RewardSpec reward(Settings s) {
    return new RewardSpec(
        s.optString(REWARD_PATH).orElse(null),
        s.optString(REWARD_CLASS).orElse(null),
        s.optString(REWARD_NAME).orElse(null),
        s.getMap(REWARD_KWARGS));
  }

  /**
   * A reward problem in the recipe's words: the key of the reward field it lies in, else the
   * section.
   */
  public static ConfigException rewardProblem(RewardConfigException e) {
    String where =
        e.field()
            .map(
                f ->
                    switch (f) {
                      case PATH -> REWARD_PATH;
                      case CLASS_NAME -> REWARD_CLASS;
                      case NAME -> REWARD_NAME;
                      case KWARGS -> REWARD_KWARGS;
                    })
            .map(KeySpec::name)
            .orElse(REWARD_SECTION);
    return new ConfigException(where + ": " + e.detail(), e);
  }

  /**
   * Where user reward code runs: worker processes with these settings ({@code reward.workers.*},
   * the recipe's time limits), or this JVM when {@code reward.workers.enable} is false.
   */
  public Optional<WorkerConfig> rewardWorkers() {
    return RewardWorkerKeys.from(settings, rewardTimeout);
  }

  /**
   * The lines a run prints at start-up about keys that were accepted but act differently from VeRL:
   * each engine key with no effect here, and what {@code override_config} did.
   */
  public List<String> notes() {
    List<String> all = new ArrayList<>(settings.noEffectNotes());
    all.addAll(ModelOverrideKeys.from(settings).lines());
    return all;
  }

  /** Checks what a GRPO run needs beyond a valid recipe. */
  public void checkTrainable() {
    Checks.require(
        data.hasTrainData(),
        DataConfig.TRAIN_FILES.name(),
        "set data.train_files or data.synthetic.task");
    Checks.require(
        !algorithm.advEstimator().comparesWithinGroup() || rollout.n() >= 2,
        RolloutConfig.N.name(),
        "algorithm.adv_estimator="
            + algorithm.advEstimator().key()
            + " compares responses within a group; it needs n >= 2, got "
            + rollout.n());
  }

  /** Total GRPO steps given the batches per epoch. */
  public int totalSteps(int batchesPerEpoch) {
    return trainer.totalTrainingSteps() > 0
        ? trainer.totalTrainingSteps()
        : trainer.totalEpochs() * batchesPerEpoch;
  }

  /** The trainer module's config for a run of {@code totalSteps} GRPO steps. */
  public TrainerConfig trainerConfig(int totalSteps) {
    int miniSamples = actor.ppoMiniBatchSize() * rollout.n();
    int micro = actor.ppoMicroBatchSize() > 0 ? actor.ppoMicroBatchSize() : miniSamples;
    int logProbMicro =
        rollout.logProbMicroBatchSize() > 0 ? rollout.logProbMicroBatchSize() : micro;
    long optimizerSteps =
        (long) totalSteps * actor.ppoEpochs() * (data.trainBatchSize() / actor.ppoMiniBatchSize());
    return Checks.build(
        "actor_rollout_ref",
        () ->
            TrainerConfig.builder(
                    miniSamples,
                    micro,
                    actor.optimizer(),
                    actor.schedule(Math.max(1, optimizerSteps)),
                    actor.loss())
                .epochs(actor.ppoEpochs(), actor.shuffle())
                .logProbMicroBatchSize(logProbMicro)
                .temperature(rollout.temperature())
                .useReference(actor.loss().useKlLoss() || algorithm.useKlInReward())
                .seed(trainer.seed())
                .modelType(model.modelType())
                .routerAuxLossCoef(ModelOverrideKeys.from(settings).routerAuxLossCoef())
                .build());
  }
}
