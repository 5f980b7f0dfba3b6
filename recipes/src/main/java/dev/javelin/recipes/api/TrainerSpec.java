package dev.javelin.recipes.api;

import dev.javelin.recipes.config.TrainerSection;
import java.nio.file.Path;

/**
 * The trainer section of a {@link RunSpec} ({@code trainer.*}): steps, validation and checkpoint
 * cadence, where the run writes, device and workers.
 */
public final class TrainerSpec {
  private final SpecValues values;

  TrainerSpec(SpecValues values) {
    this.values = values;
  }

  /** GRPO steps to run. */
  public TrainerSpec totalSteps(int steps) {
    values.put(TrainerSection.TOTAL_TRAINING_STEPS, steps);
    return this;
  }

  /** Validate every N steps (-1: only at the end). */
  public TrainerSpec testFreq(int steps) {
    values.put(TrainerSection.TEST_FREQ, steps);
    return this;
  }

  /** Save a checkpoint every N steps (-1: only at the end). */
  public TrainerSpec saveFreq(int steps) {
    values.put(TrainerSection.SAVE_FREQ, steps);
    return this;
  }

  /** The run directory: checkpoints, metrics.jsonl, report.html. */
  public TrainerSpec outputDir(Path dir) {
    values.put(TrainerSection.DEFAULT_LOCAL_DIR, dir.toString());
    return this;
  }

  /** The experiment's name in metrics backends. */
  public TrainerSpec experimentName(String name) {
    values.put(TrainerSection.EXPERIMENT_NAME, name);
    return this;
  }

  /** The device of the trainer and samplers: {@code cpu}, {@code xla:cpu}, {@code tpu}, ... */
  public TrainerSpec device(String device) {
    values.put(TrainerSection.DEVICE, device);
    return this;
  }

  /** Sampler actors. */
  public TrainerSpec samplers(int samplers) {
    values.put(TrainerSection.SAMPLERS, samplers);
    return this;
  }

  /** Seed of sampling and the trainer's shuffles. */
  public TrainerSpec seed(long seed) {
    values.put(TrainerSection.SEED, seed);
    return this;
  }

  /**
   * Runs the trainer and samplers as workers of the Ray cluster at {@code address} (host:port of
   * its GCS) instead of in this JVM.
   */
  public TrainerSpec rayCluster(String address) {
    values.put(TrainerSection.RAY, TrainerSection.RayMode.CLUSTER.key());
    values.put(TrainerSection.RAY_ADDRESS, address);
    return this;
  }
}
