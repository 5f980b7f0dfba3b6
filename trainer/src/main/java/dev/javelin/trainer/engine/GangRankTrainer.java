package dev.javelin.trainer.engine;

import dev.javelin.backend.checkpoint.safetensors.CheckpointShard;
import dev.javelin.backend.distributed.CoordinationException;
import dev.javelin.backend.distributed.Gang;
import dev.javelin.trainer.FaultPoint;
import dev.javelin.trainer.GangRankException;
import dev.javelin.trainer.PolicyRole;
import dev.javelin.trainer.SftExample;
import dev.javelin.trainer.TrainSample;
import dev.javelin.trainer.Trainer;
import dev.javelin.trainer.TrainerState;
import dev.javelin.trainer.UpdateResult;
import dev.javelin.weightsync.SnapshotContent;
import dev.javelin.weightsync.WeightSnapshot;
import dev.javelin.weightsync.WireType;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Supplier;

/**
 * One rank of a data-parallel gang whose other ranks are other processes (joined by address, {@link
 * Gang#join}): the counterpart of one thread of a {@link ThreadGangTrainer}. A driver calls every
 * rank with the same arguments at once; each computes its share ({@link LogProbShare} for
 * log-probs, the round-robin micro-batches of the updater's gang reducer for updates) and the gang
 * sums the rest, so every rank returns the same answer and holds the same weights. Rank 0's answer
 * is the gang's; every rank writes its part of a checkpoint and sends its part of a snapshot.
 *
 * <p>A failure of this rank's own is thrown as a {@link GangRankException} naming the rank, after
 * ending the gang (rank 0 closes the store, so peers waiting on it fail at once); a failure seen
 * through the store (a peer that died or failed) is rethrown as it is, since the peer is the one to
 * name. Either way the rank is then unusable: the driver replaces the whole gang.
 */
public final class GangRankTrainer implements Trainer {
  private final PpoUpdater updater;
  private final Gang gang;

  /** Rank {@code gang.rank()}, whose updater was built with {@link UpdaterOptions#withGang}. */
  public GangRankTrainer(PpoUpdater updater, Gang gang) {
    this.updater = updater;
    this.gang = gang;
  }

  /** This rank's place in the gang. */
  public int rank() {
    return gang.rank();
  }

  /** This rank's updater (tests compare ranks). */
  PpoUpdater updater() {
    return updater;
  }

  /** Where the gang's store listens (rank 0's address, which the other ranks join). */
  public InetSocketAddress storeAddress() {
    return gang.storeAddress();
  }

  @Override
  public float[][] logProbs(List<TrainSample> samples, PolicyRole role) {
    return guarded(
        () -> {
          float[][] mine = new float[samples.size()][];
          LogProbShare.compute(gang.rank(), gang.size(), updater, samples, role, mine);
          return merged(mine);
        });
  }

  /** Every rank's rows of {@code mine} (null where another rank computes), the same on all. */
  private float[][] merged(float[][] mine) {
    Map<Integer, double[]> rows = new TreeMap<>();
    for (int i = 0; i < mine.length; i++) {
      if (mine[i] != null) {
        double[] d = new double[mine[i].length];
        for (int t = 0; t < d.length; t++) {
          d[t] = mine[i][t]; // exact: every float is a double
        }
        rows.put(i, d);
      }
    }
    Map<Integer, double[]> all = GangShare.rows(gang, rows, mine.length);
    float[][] out = new float[mine.length][];
    for (int i = 0; i < out.length; i++) {
      double[] d = all.get(i);
      if (d == null) {
        throw new CoordinationException("no rank computed the log-probs of sample " + i);
      }
      out[i] = new float[d.length];
      for (int t = 0; t < d.length; t++) {
        out[i][t] = (float) d[t];
      }
    }
    return out;
  }

  @Override
  public UpdateResult update(List<TrainSample> samples) {
    return guarded(
        () -> {
          FaultPoint.reach("gang-rank:" + gang.rank(), null); // the fault tests' rank failure
          return updater.update(samples);
        });
  }

  @Override
  public Map<String, Double> sftStep(List<SftExample> examples) {
    return guarded(() -> updater.sftStep(examples));
  }

  /**
   * This rank's part of the snapshot (its share of the tensors, split as a checkpoint is): every
   * rank sends its own, and the driver puts them together ({@link WeightSnapshot#concat}).
   */
  @Override
  public WeightSnapshot snapshot(long version, WireType type, SnapshotContent content) {
    return updater.snapshot(version, type, content, shard());
  }

  private CheckpointShard shard() {
    return new CheckpointShard(gang.rank(), gang.size());
  }

  @Override
  public long optimizerSteps() {
    return updater.optimizerSteps();
  }

  /**
   * Writes this rank's part of the checkpoint ({@link CheckpointShard}); the driver asks every rank
   * at once and publishes the directory when all have answered.
   */
  @Override
  public void saveCheckpoint(Path dir, Map<String, String> extra) {
    guarded(
        () -> {
          updater.saveCheckpoint(dir, extra, shard());
          return null;
        });
  }

  @Override
  public TrainerState loadCheckpoint(Path dir) {
    return guarded(() -> updater.loadCheckpoint(dir));
  }

  private <T> T guarded(Supplier<T> call) {
    try {
      return call.get();
    } catch (CoordinationException e) {
      gang.abort();
      throw e; // a peer's failure seen from here: the peer is the one to name
    } catch (RuntimeException | Error e) {
      gang.abort(); // peers waiting on this rank fail now
      throw new GangRankException(gang.rank(), e);
    }
  }

  /** Releases the device, then leaves the gang (a barrier: every rank closes at once). */
  @Override
  public void close() {
    try {
      updater.close();
    } finally {
      gang.close();
    }
  }
}
