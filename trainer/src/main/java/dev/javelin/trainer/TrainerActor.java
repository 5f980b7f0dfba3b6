package dev.javelin.trainer;

import dev.javelin.trainer.codec.TrainerCodec;
import dev.javelin.weightsync.SnapshotCodec;
import dev.javelin.weightsync.SnapshotContent;
import dev.javelin.weightsync.WireType;
import java.nio.file.Path;
import java.util.Map;

/**
 * The trainer as a Ray actor: {@code Ray.actor(TrainerActor::new, factoryName, spec).remote()}.
 * Every method takes and returns bytes in {@link TrainerCodec}'s explicit format (weights in {@link
 * SnapshotCodec}'s), never Java-serialized objects. The class itself has no Ray dependency, so it
 * is tested directly as well as through Ray.
 */
public final class TrainerActor {
  private final Trainer trainer;

  /** Builds the trainer with the {@link TrainerFactory} called {@code factory}. */
  public TrainerActor(String factory, byte[] spec) {
    this(TrainerFactory.find(factory).create(spec));
  }

  /** Wraps an existing trainer (tests, single-process use). */
  public TrainerActor(Trainer trainer) {
    this.trainer = trainer;
  }

  /** Log-probs of encoded samples under {@code role} ("ACTOR" or "REFERENCE"). */
  public byte[] logProbs(byte[] samples, String role) {
    PolicyRole r = PolicyRole.valueOf(role);
    return TrainerCodec.encodeLogProbs(trainer.logProbs(TrainerCodec.decodeSamples(samples), r));
  }

  /** One update over encoded samples; returns its encoded {@link UpdateResult}. */
  public byte[] update(byte[] samples) {
    return TrainerCodec.encodeUpdate(trainer.update(TrainerCodec.decodeSamples(samples)));
  }

  /** One SFT step over encoded examples; returns encoded metrics. */
  public byte[] sftStep(byte[] examples) {
    return TrainerCodec.encodeMetrics(trainer.sftStep(TrainerCodec.decodeExamples(examples)));
  }

  /** The current weights as {@link SnapshotCodec} bytes. */
  public byte[] snapshot(long version, String wireType) {
    return snapshotHolding(version, wireType, SnapshotContent.WEIGHTS.name());
  }

  /**
   * As above holding {@code content} ({@link SnapshotContent} by name); its own name, as Ray looks
   * actor methods up by name.
   */
  public byte[] snapshotHolding(long version, String wireType, String content) {
    // the array the snapshot was built in: no second model-sized copy for Ray to copy again
    return SnapshotCodec.toArray(
        trainer.snapshot(version, WireType.parse(wireType), SnapshotContent.valueOf(content)));
  }

  public long optimizerSteps() {
    return trainer.optimizerSteps();
  }

  /**
   * Writes a checkpoint into {@code dir} (see {@link Trainer#saveCheckpoint}); {@code extra} is an
   * encoded {@link TrainerState} whose extra map is saved.
   */
  public boolean saveCheckpoint(String dir, byte[] extra) {
    Map<String, String> state = TrainerCodec.decodeState(extra).extra();
    trainer.saveCheckpoint(Path.of(dir), state);
    return true;
  }

  /** Restores {@code dir}; returns the encoded {@link TrainerState}. */
  public byte[] loadCheckpoint(String dir) {
    return TrainerCodec.encodeState(trainer.loadCheckpoint(Path.of(dir)));
  }

  /** Restarts a trainer gang after a rank failed ({@link Trainer#restart}). */
  public boolean restart() {
    trainer.restart();
    return true;
  }

  /** Releases the device buffers. */
  public boolean close() {
    trainer.close();
    return true;
  }
}
