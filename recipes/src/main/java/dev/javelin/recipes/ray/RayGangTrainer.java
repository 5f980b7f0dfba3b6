package dev.javelin.recipes.ray;

import dev.javelin.trainer.GangRankException;
import dev.javelin.trainer.PolicyRole;
import dev.javelin.trainer.SftExample;
import dev.javelin.trainer.TrainSample;
import dev.javelin.trainer.Trainer;
import dev.javelin.trainer.TrainerState;
import dev.javelin.trainer.UpdateResult;
import dev.javelin.trainer.codec.TrainerCodec;
import dev.javelin.weightsync.SnapshotCodec;
import dev.javelin.weightsync.SnapshotContent;
import dev.javelin.weightsync.WeightSnapshot;
import dev.javelin.weightsync.WireType;
import io.ray.api.ActorHandle;
import io.ray.api.ObjectRef;
import io.ray.api.Ray;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * A {@link Trainer} whose data-parallel ranks are {@link TrainerRank} actors on a Ray cluster, one
 * worker process each, in the bundles of the gang's own placement group (bundle r holds rank r).
 * Every call goes to all ranks at once with the same bytes (a batch is put in the object store
 * once) and rank 0's answer is the gang's; each rank writes its part of a checkpoint and sends its
 * part of a weight-sync snapshot. A rank that fails or whose process dies ends the gang: the other
 * ranks, which would wait for it, are killed at once and the call throws a {@link
 * GangRankException} naming the rank, which the driver's gang restart ({@code
 * trainer.max_restarts}) answers with {@link #restart}: fresh rank processes in the same bundles,
 * then the last checkpoint.
 */
public final class RayGangTrainer implements Trainer {
  private final byte[] spec;
  private final int size;
  private final Placement placement;
  private List<ActorHandle<TrainerRank>> ranks = List.of();
  private boolean broken;

  private RayGangTrainer(byte[] spec, int size, Placement placement) {
    this.spec = spec;
    this.size = size;
    this.placement = placement;
  }

  /**
   * Starts {@code size} ranks of the trainer the recipe {@code spec} (flat YAML) describes, rank r
   * in bundle r of {@code placement}, which the trainer then owns (released on close).
   */
  static RayGangTrainer start(String spec, int size, Placement placement) {
    RayGangTrainer t = new RayGangTrainer(spec.getBytes(StandardCharsets.UTF_8), size, placement);
    try {
      t.form();
    } catch (RuntimeException e) {
      t.killAll();
      placement.release();
      throw e;
    }
    return t;
  }

  /**
   * Rank 0 first, whose store address the others join; then every rank builds its model at once.
   */
  private void form() {
    List<ActorHandle<TrainerRank>> all = new ArrayList<>();
    ranks = all;
    broken = false;
    all.add(placement.apply(Ray.actor(TrainerRank::new, spec, 0, size, ""), 0).remote());
    String store =
        RankCalls.collect(
                List.of(all.get(0).task(TrainerRank::storeAddress).remote()), this::abandon)
            .get(0);
    for (int r = 1; r < size; r++) {
      all.add(placement.apply(Ray.actor(TrainerRank::new, spec, r, size, store), r).remote());
    }
    onEveryRank(a -> a.task(TrainerRank::build).remote());
  }

  /** Ranks in the gang. */
  public int size() {
    return size;
  }

  @Override
  public float[][] logProbs(List<TrainSample> samples, PolicyRole role) {
    ObjectRef<byte[]> batch = Ray.put(TrainerCodec.encodeSamples(samples));
    try {
      return TrainerCodec.decodeLogProbs(
          onEveryRank(a -> a.task(TrainerRank::logProbs, batch, role.name()).remote()).get(0));
    } finally {
      RayCalls.free(List.of(batch));
    }
  }

  @Override
  public UpdateResult update(List<TrainSample> samples) {
    ObjectRef<byte[]> batch = Ray.put(TrainerCodec.encodeSamples(samples));
    try {
      return TrainerCodec.decodeUpdate(
          onEveryRank(a -> a.task(TrainerRank::update, batch).remote()).get(0));
    } finally {
      RayCalls.free(List.of(batch));
    }
  }

  @Override
  public Map<String, Double> sftStep(List<SftExample> examples) {
    ObjectRef<byte[]> batch = Ray.put(TrainerCodec.encodeExamples(examples));
    try {
      return TrainerCodec.decodeMetrics(
          onEveryRank(a -> a.task(TrainerRank::sftStep, batch).remote()).get(0));
    } finally {
      RayCalls.free(List.of(batch));
    }
  }

  @Override
  public WeightSnapshot snapshot(long version, WireType type, SnapshotContent content) {
    // Every rank sends its part (about 1/nnodes of the bytes each), put together here.
    List<byte[]> parts =
        onEveryRank(
            a ->
                a.task(TrainerRank::snapshotHolding, version, type.name(), content.name())
                    .remote());
    List<WeightSnapshot> decoded = new ArrayList<>();
    for (byte[] part : parts) {
      decoded.add(SnapshotCodec.decode(ByteBuffer.wrap(part)));
    }
    return WeightSnapshot.concat(decoded);
  }

  @Override
  public long optimizerSteps() {
    return onRankZero(a -> a.task(TrainerRank::optimizerSteps).remote());
  }

  @Override
  public void saveCheckpoint(Path dir, Map<String, String> extra) {
    byte[] state = TrainerCodec.encodeState(new TrainerState(0, extra));
    // Every rank writes its part into the same directory (storage all ranks see).
    onEveryRank(a -> a.task(TrainerRank::saveCheckpoint, dir.toString(), state).remote());
  }

  @Override
  public TrainerState loadCheckpoint(Path dir) {
    return TrainerCodec.decodeState(
        onEveryRank(a -> a.task(TrainerRank::loadCheckpoint, dir.toString()).remote()).get(0));
  }

  /** Fresh rank processes in the same bundles, holding the initial model (after a rank failed). */
  @Override
  public void restart() {
    killAll();
    form();
  }

  private <T> List<T> onEveryRank(Function<ActorHandle<TrainerRank>, ObjectRef<T>> call) {
    requireWhole();
    List<ObjectRef<T>> refs = new ArrayList<>();
    for (ActorHandle<TrainerRank> a : ranks) {
      refs.add(call.apply(a));
    }
    return RankCalls.collect(refs, this::abandon);
  }

  private <T> T onRankZero(Function<ActorHandle<TrainerRank>, ObjectRef<T>> call) {
    requireWhole();
    return RankCalls.collect(List.of(call.apply(ranks.get(0))), this::abandon).get(0);
  }

  private void requireWhole() {
    if (broken) {
      throw new IllegalStateException("the trainer gang failed and has not been restarted");
    }
  }

  /** A rank failed: its peers wait on it in vain, so every rank process goes now. */
  private void abandon() {
    broken = true;
    killAll();
  }

  private void killAll() {
    for (ActorHandle<TrainerRank> a : ranks) {
      a.kill(true); // no restart: the gang restarts as a whole
    }
    ranks = List.of();
  }

  /** Leaves the gang on every rank, then ends the rank processes and returns the bundles. */
  @Override
  public void close() {
    try {
      if (!broken && !ranks.isEmpty()) {
        onEveryRank(a -> a.task(TrainerRank::close).remote());
      }
    } catch (RuntimeException e) {
      // a gang that cannot leave cleanly ends all the same: its processes are killed below
    } finally {
      killAll();
      placement.release();
    }
  }
}
