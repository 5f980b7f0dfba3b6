package dev.javelin.trainer;

import dev.javelin.weightsync.SnapshotContent;
import dev.javelin.weightsync.WeightSnapshot;
import dev.javelin.weightsync.WireType;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * The policy trainer, in VeRL's order: the driver asks for old (and reference) log-probs, attaches
 * them to the samples, then calls {@link #update}. Plain Java; {@link TrainerActor} exposes it to
 * Ray. Not thread-safe.
 */
public interface Trainer extends AutoCloseable {

  /**
   * Per-response-token log-probs of {@code samples} at the sampling temperature, one array per
   * sample (same length as its response), under the actor or the frozen reference policy.
   */
  float[][] logProbs(List<TrainSample> samples, PolicyRole role);

  /**
   * {@code ppo_epochs} passes over {@code samples} in mini-batches, one AdamW step each. Samples
   * need {@code oldLogProbs} (unless bypass mode) and {@code refLogProbs} (when the KL loss is on).
   * An on-policy update (one mini-batch, one epoch) may leave {@code oldLogProbs} out of every
   * sample: the update's own forward pass, detached, is then π_old (ratio exactly 1), which saves
   * the old-log-prob pass.
   *
   * @return VeRL-named metrics ({@code actor/pg_loss}, {@code actor/entropy}, {@code
   *     actor/kl_loss}, {@code actor/grad_norm}, {@code actor/lr}, {@code actor/pg_clipfrac}, ...)
   *     and the seconds the update spent on π_old, when it took them itself
   */
  UpdateResult update(List<TrainSample> samples);

  /**
   * One cross-entropy step (the {@code sft} warm-up): mean −log π(response | prompt) over all
   * response tokens at τ = 1, one AdamW step. Metrics: {@code sft/loss}, {@code sft/grad_norm},
   * {@code sft/lr}.
   */
  Map<String, Double> sftStep(List<SftExample> examples);

  /** The current weights as a weight-sync snapshot of {@code version}, any adapters merged in. */
  default WeightSnapshot snapshot(long version, WireType type) {
    return snapshot(version, type, SnapshotContent.WEIGHTS);
  }

  /**
   * A weight-sync snapshot of {@code version} holding {@code content}: under LoRA, {@link
   * SnapshotContent#ADAPTERS} sends only A and scale·B (the samplers merge them into the base they
   * hold) and {@link SnapshotContent#BASE_AND_ADAPTERS} the frozen base before them. Without
   * adapters every content is the whole model ({@link SnapshotContent#WEIGHTS}).
   */
  WeightSnapshot snapshot(long version, WireType type, SnapshotContent content);

  /** AdamW updates applied so far. */
  long optimizerSteps();

  /**
   * Writes the model (config.json + model.safetensors, HF names), the optimizer moments and
   * trainer_state.json (with {@code extra}) into {@code dir}, which must be empty or absent. Use
   * {@link Checkpointer} for atomic step directories.
   */
  void saveCheckpoint(Path dir, Map<String, String> extra);

  /** Restores what {@link #saveCheckpoint} wrote; returns the saved state. */
  TrainerState loadCheckpoint(Path dir);

  /**
   * After a {@link GangRankException}: replaces the failed ranks with fresh ones holding the
   * initial model, as at construction; the caller then loads its last checkpoint. Only a trainer
   * made of ranks can; the others refuse.
   */
  default void restart() {
    throw new UnsupportedOperationException(
        getClass().getSimpleName() + " is a single trainer and cannot restart");
  }

  @Override
  void close();
}
