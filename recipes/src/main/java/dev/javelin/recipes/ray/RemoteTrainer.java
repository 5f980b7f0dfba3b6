package dev.javelin.recipes.ray;

import dev.javelin.trainer.PolicyRole;
import dev.javelin.trainer.SftExample;
import dev.javelin.trainer.TrainSample;
import dev.javelin.trainer.Trainer;
import dev.javelin.trainer.TrainerActor;
import dev.javelin.trainer.TrainerState;
import dev.javelin.trainer.UpdateResult;
import dev.javelin.trainer.codec.TrainerCodec;
import dev.javelin.weightsync.SnapshotCodec;
import dev.javelin.weightsync.SnapshotContent;
import dev.javelin.weightsync.WeightSnapshot;
import dev.javelin.weightsync.WireType;
import io.ray.api.ActorHandle;
import io.ray.api.Ray;
import io.ray.api.exception.RayActorException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * A {@link Trainer} whose work runs in a {@link TrainerActor} Ray actor: every call crosses as
 * {@link TrainerCodec} bytes, so the driver loop is the same with or without Ray.
 */
public final class RemoteTrainer implements Trainer {
  private final ActorHandle<TrainerActor> actor;

  private RemoteTrainer(ActorHandle<TrainerActor> actor) {
    this.actor = actor;
  }

  /**
   * Starts the actor with the {@code dev.javelin.trainer.TrainerFactory} named {@code factory}, in
   * bundle 0 of {@code placement}. A trainer is not restarted by Ray: its state lives in the last
   * checkpoint, and rerunning the command resumes from there.
   */
  static RemoteTrainer start(String factory, String spec, Placement placement) {
    byte[] bytes = spec.getBytes(StandardCharsets.UTF_8);
    ActorHandle<TrainerActor> a =
        placement.apply(Ray.actor(TrainerActor::new, factory, bytes), 0).remote();
    RemoteTrainer t = new RemoteTrainer(a);
    t.optimizerSteps(); // surfaces a failing constructor now, with its message
    return t;
  }

  @Override
  public float[][] logProbs(List<TrainSample> samples, PolicyRole role) {
    byte[] bytes = TrainerCodec.encodeSamples(samples);
    return TrainerCodec.decodeLogProbs(
        alive(
            () ->
                RayCalls.callWith(
                    bytes, b -> actor.task(TrainerActor::logProbs, b, role.name()).remote())));
  }

  @Override
  public UpdateResult update(List<TrainSample> samples) {
    byte[] bytes = TrainerCodec.encodeSamples(samples);
    return TrainerCodec.decodeUpdate(
        alive(() -> RayCalls.callWith(bytes, b -> actor.task(TrainerActor::update, b).remote())));
  }

  @Override
  public Map<String, Double> sftStep(List<SftExample> examples) {
    byte[] bytes = TrainerCodec.encodeExamples(examples);
    return TrainerCodec.decodeMetrics(
        alive(() -> RayCalls.callWith(bytes, b -> actor.task(TrainerActor::sftStep, b).remote())));
  }

  @Override
  public WeightSnapshot snapshot(long version, WireType type, SnapshotContent content) {
    byte[] bytes =
        alive(
            () ->
                RayCalls.get(
                    actor
                        .task(TrainerActor::snapshotHolding, version, type.name(), content.name())
                        .remote()));
    return SnapshotCodec.decode(ByteBuffer.wrap(bytes));
  }

  @Override
  public long optimizerSteps() {
    return alive(() -> RayCalls.get(actor.task(TrainerActor::optimizerSteps).remote()));
  }

  @Override
  public void saveCheckpoint(Path dir, Map<String, String> extra) {
    byte[] state = TrainerCodec.encodeState(new TrainerState(0, extra));
    alive(
        () ->
            RayCalls.get(actor.task(TrainerActor::saveCheckpoint, dir.toString(), state).remote()));
  }

  @Override
  public TrainerState loadCheckpoint(Path dir) {
    return TrainerCodec.decodeState(
        alive(
            () -> RayCalls.get(actor.task(TrainerActor::loadCheckpoint, dir.toString()).remote())));
  }

  @Override
  public void restart() {
    alive(() -> RayCalls.get(actor.task(TrainerActor::restart).remote()));
  }

  @Override
  public void close() {
    try {
      RayCalls.get(actor.task(TrainerActor::close).remote());
    } catch (RayActorException e) {
      return; // already dead: nothing to close, and the run has reported why
    }
    if (!RayRuntime.localMode()) {
      actor.kill(); // local mode cannot kill actors; they die with the JVM
    }
  }

  /**
   * Runs a call on the trainer actor; its death becomes an error that says what to do. The trainer
   * is not restarted (a fresh one would have lost the weights), so the run stops here and rerunning
   * the same command resumes from the last checkpoint.
   */
  private static <T> T alive(Supplier<T> call) {
    try {
      return call.get();
    } catch (RayActorException e) {
      throw new TrainerDiedException(e.getMessage(), e);
    }
  }
}
