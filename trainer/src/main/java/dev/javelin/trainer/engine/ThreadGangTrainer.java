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
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.Function;

/**
 * A data-parallel trainer whose ranks are threads of this JVM: one {@link PpoUpdater} per rank,
 * each with its own device and a copy of the weights, joined by a {@link Gang} over loopback. An
 * update runs on every rank at once, each computing its round-robin share of every optimizer step's
 * micro-batches; gradients and metrics are summed through the gang, so the ranks stay identical.
 * Log-probs are split by chunks of {@code log_prob_micro_batch_size} over the ranks. Rank 0 answers
 * for the gang where one answer is enough; each rank writes its part of a checkpoint and makes its
 * part of a weight-sync snapshot ({@link CheckpointShard}). A failure on one rank stops the gang at
 * once and is rethrown as a {@link GangRankException} naming the rank; the trainer is then unusable
 * until {@link #restart} builds a fresh gang.
 */
public final class ThreadGangTrainer implements Trainer {
  private final int size;
  private final Duration timeout;
  private final Function<Gang, PpoUpdater> factory;
  private final List<PpoUpdater> ranks = new ArrayList<>();
  private final ExecutorService pool;
  private List<Gang> gangs = List.of();

  private ThreadGangTrainer(int size, Duration timeout, Function<Gang, PpoUpdater> factory) {
    this.size = size;
    this.timeout = timeout;
    this.factory = factory;
    this.pool =
        Executors.newFixedThreadPool(
            size,
            r -> {
              Thread t = new Thread(r, "javelin-gang-rank");
              t.setDaemon(true);
              return t;
            });
  }

  /**
   * {@code size} ranks, rank r built by {@code rank} from its gang (its options {@link
   * UpdaterOptions#withGang}); {@code timeout} bounds each wait of one rank for another.
   */
  public static ThreadGangTrainer start(
      int size, Duration timeout, Function<Gang, PpoUpdater> rank) {
    if (size < 1) {
      throw new IllegalArgumentException("a gang needs at least one rank, got " + size);
    }
    ThreadGangTrainer t = new ThreadGangTrainer(size, timeout, rank);
    try {
      t.form();
    } catch (RuntimeException e) {
      t.pool.shutdownNow();
      throw e;
    }
    return t;
  }

  /** A new gang of fresh ranks, each built by the factory (the initial weights). */
  private void form() {
    gangs = Gang.inProcess(size, timeout);
    try {
      for (Gang g : gangs) {
        ranks.add(factory.apply(g));
      }
    } catch (RuntimeException e) {
      try {
        leave();
      } catch (RuntimeException closing) {
        e.addSuppressed(closing);
      }
      throw e;
    }
  }

  /**
   * Closes the ranks and their gang and forms a new one from the factory, holding the initial
   * weights; the caller loads its last checkpoint next. Used after a rank failed.
   */
  @Override
  public void restart() {
    leave();
    form();
  }

  /** Ranks in the gang. */
  public int size() {
    return size;
  }

  /** Rank {@code r}'s updater (tests compare ranks). */
  public PpoUpdater rank(int r) {
    return ranks.get(r);
  }

  @Override
  public float[][] logProbs(List<TrainSample> samples, PolicyRole role) {
    float[][] out = new float[samples.size()][];
    onEveryRank(
        r -> {
          LogProbShare.compute(r, size(), ranks.get(r), samples, role, out);
          return null;
        });
    return out;
  }

  @Override
  public UpdateResult update(List<TrainSample> samples) {
    return onEveryRank(
            r -> {
              FaultPoint.reach("gang-rank:" + r, null); // the fault tests' rank failure
              return ranks.get(r).update(samples);
            })
        .get(0);
  }

  @Override
  public Map<String, Double> sftStep(List<SftExample> examples) {
    return onEveryRank(r -> ranks.get(r).sftStep(examples)).get(0);
  }

  @Override
  public WeightSnapshot snapshot(long version, WireType type, SnapshotContent content) {
    return WeightSnapshot.concat( // each rank's part, made at once
        onEveryRank(
            r -> ranks.get(r).snapshot(version, type, content, new CheckpointShard(r, size))));
  }

  @Override
  public long optimizerSteps() {
    return ranks.get(0).optimizerSteps();
  }

  @Override
  public void saveCheckpoint(Path dir, Map<String, String> extra) {
    onEveryRank(
        r -> {
          ranks.get(r).saveCheckpoint(dir, extra, new CheckpointShard(r, size)); // all at once
          return null;
        });
  }

  @Override
  public TrainerState loadCheckpoint(Path dir) {
    return onEveryRank(r -> ranks.get(r).loadCheckpoint(dir)).get(0);
  }

  /** One call on every rank's thread at once; the first failure aborts the gang and is rethrown. */
  private <T> List<T> onEveryRank(RankCall<T> call) {
    List<Future<T>> futures = new ArrayList<>();
    for (int r = 0; r < size(); r++) {
      int rank = r;
      futures.add(
          pool.submit(
              (Callable<T>)
                  () -> {
                    try {
                      return call.run(rank);
                    } catch (CoordinationException e) {
                      gangs.get(0).abort();
                      throw e; // a peer's failure seen from here: the peer is the one to name
                    } catch (Exception | Error e) {
                      gangs.get(0).abort(); // peers waiting on this rank fail now
                      throw new GangRankException(rank, e);
                    }
                  }));
    }
    List<T> out = new ArrayList<>();
    Throwable first = null;
    for (Future<T> f : futures) {
      try {
        out.add(f.get());
      } catch (ExecutionException e) {
        if (first == null || first instanceof CoordinationException) {
          first = e.getCause(); // a rank's own failure over the peers' "store closed"
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        gangs.get(0).abort();
        throw new IllegalStateException("interrupted while the gang ran", e);
      }
    }
    if (first instanceof RuntimeException re) {
      throw re;
    }
    if (first != null) {
      throw new IllegalStateException("a gang rank failed: " + first, first);
    }
    return out;
  }

  @FunctionalInterface
  private interface RankCall<T> {
    T run(int rank) throws Exception;
  }

  @Override
  public void close() {
    try {
      leave();
    } finally {
      pool.shutdownNow();
    }
  }

  /** Closes the ranks and leaves the gang; the first failure closing a rank is rethrown. */
  private void leave() {
    RuntimeException failure = null;
    for (PpoUpdater u : ranks) {
      try {
        u.close();
      } catch (RuntimeException e) {
        failure = failure == null ? e : failure;
      }
    }
    List<Future<?>> closing = new ArrayList<>();
    for (Gang g : gangs) {
      closing.add(pool.submit(g::close)); // together: leaving is a barrier
    }
    for (Future<?> f : closing) {
      try {
        f.get();
      } catch (ExecutionException | InterruptedException e) {
        // a gang that already failed cannot leave cleanly; its store is gone either way
      }
    }
    ranks.clear();
    gangs = List.of();
    if (failure != null) {
      throw failure;
    }
  }
}
