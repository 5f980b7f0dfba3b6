package dev.javelin.trainer.engine;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.javelin.backend.Devices;
import dev.javelin.backend.checkpoint.ModelCheckpoint;
import dev.javelin.backend.distributed.CoordinationException;
import dev.javelin.backend.distributed.Gang;
import dev.javelin.trainer.Fixtures;
import dev.javelin.trainer.GangRankException;
import dev.javelin.trainer.PolicyRole;
import dev.javelin.trainer.TrainSample;
import dev.javelin.trainer.TrainerConfig;
import dev.javelin.trainer.UpdateResult;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/**
 * Ranks joined by address as separate processes join ({@link Gang#join}: rank 0 serves the store on
 * a port it picks, rank 1 joins that address), each a {@link GangRankTrainer} driven on its own
 * thread as a driver drives rank processes: they return the answers of a {@link ThreadGangTrainer}
 * of the same size bit for bit (the same shares summed in the same order), and a rank's own failure
 * is named by its rank while its peer stops at once.
 */
class GangRankTrainerTest {
  private static final ModelCheckpoint INITIAL = Fixtures.microCheckpoint(7);

  @Test
  void ranksJoinedByAddressAnswerAsTheThreadGang() throws Exception {
    TrainerConfig c =
        Fixtures.klConfig(8, 2).toBuilder().epochs(2, true).logProbMicroBatchSize(4).build();
    ExecutorService pool = Executors.newFixedThreadPool(2);
    List<GangRankTrainer> ranks = joined(2, pool, g -> updater(c, g));
    try (ThreadGangTrainer threads =
        ThreadGangTrainer.start(2, Duration.ofSeconds(60), g -> updater(c, g))) {
      for (int step = 0; step < 3; step++) {
        List<TrainSample> batch = Fixtures.batch(100 + step, 4, 4); // 16: two mini-batches
        float[][] want = threads.logProbs(batch, PolicyRole.ACTOR);
        List<float[][]> got = onBoth(pool, ranks, t -> t.logProbs(batch, PolicyRole.ACTOR));
        for (float[][] g : got) {
          for (int i = 0; i < want.length; i++) {
            assertArrayEquals(want[i], g[i], "sample " + i);
          }
        }
        Map<String, Double> a = Fixtures.grpoStep(threads, batch);
        List<Map<String, Double>> b = onBoth(pool, ranks, t -> Fixtures.grpoStep(t, batch));
        assertEquals(strip(a), strip(b.get(0)), "rank 0's metrics");
        assertEquals(strip(a), strip(b.get(1)), "rank 1's metrics");
      }
      ModelCheckpoint want = threads.rank(0).policyCheckpoint();
      for (GangRankTrainer r : ranks) {
        ModelCheckpoint got = r.updater().policyCheckpoint();
        want.weights()
            .forEach((k, w) -> assertArrayEquals(w.data(), got.weights().get(k).data(), k));
      }
    } finally {
      onBoth(
          pool,
          ranks,
          t -> {
            t.close();
            return null;
          });
      pool.shutdownNow();
    }
  }

  @Test
  void aRanksOwnFailureNamesItAndItsPeerStopsAtOnce() throws Exception {
    TrainerConfig c = Fixtures.config(8, 2);
    TrainerConfig odd = Fixtures.config(16, 2); // rank 1 refuses a batch of 8 before its first step
    ExecutorService pool = Executors.newFixedThreadPool(2);
    List<GangRankTrainer> ranks =
        joined(2, pool, g -> updater(g.rank() == 1 ? odd : c, g), Duration.ofMinutes(2));
    try {
      List<TrainSample> batch = Fixtures.batch(400, 2, 4);
      long start = System.nanoTime();
      List<Future<UpdateResult>> f = new ArrayList<>();
      for (GangRankTrainer r : ranks) {
        f.add(pool.submit(() -> r.update(batch)));
      }
      Throwable own = failure(f.get(1));
      assertInstanceOf(GangRankException.class, own);
      assertEquals(1, ((GangRankException) own).rank(), own.getMessage());
      assertTrue(own.getMessage().startsWith("trainer rank 1 failed: "), own.getMessage());
      Throwable peer = failure(f.get(0));
      assertInstanceOf(CoordinationException.class, peer, "rank 0 sees its peer's failure");
      double seconds = (System.nanoTime() - start) / 1e9;
      assertTrue(seconds < 60, "rank 0 waited for its peer's timeout: " + seconds + " s");
    } finally {
      for (GangRankTrainer r : ranks) {
        try {
          r.close();
        } catch (RuntimeException e) {
          // a gang that failed cannot leave cleanly
        }
      }
      pool.shutdownNow();
    }
  }

  private static Throwable failure(Future<?> f) throws InterruptedException {
    try {
      f.get();
    } catch (ExecutionException e) {
      return e.getCause();
    }
    throw new AssertionError("the call did not fail");
  }

  /** {@code size} ranks joined by address, each built on its own thread as in its own process. */
  private static List<GangRankTrainer> joined(
      int size, ExecutorService pool, Function<Gang, PpoUpdater> build) throws Exception {
    return joined(size, pool, build, Duration.ofSeconds(60));
  }

  private static List<GangRankTrainer> joined(
      int size, ExecutorService pool, Function<Gang, PpoUpdater> build, Duration timeout)
      throws Exception {
    Gang zero =
        Gang.join(0, size, new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), timeout);
    InetSocketAddress at = zero.storeAddress();
    assertNotEquals(0, at.getPort(), "rank 0 tells the port it was given");
    List<Future<GangRankTrainer>> f = new ArrayList<>();
    f.add(pool.submit(() -> new GangRankTrainer(build.apply(zero), zero)));
    for (int r = 1; r < size; r++) {
      int rank = r;
      f.add(
          pool.submit(
              () -> {
                Gang g = Gang.join(rank, size, at, timeout);
                return new GangRankTrainer(build.apply(g), g);
              }));
    }
    List<GangRankTrainer> out = new ArrayList<>();
    for (Future<GangRankTrainer> x : f) {
      out.add(x.get());
    }
    return out;
  }

  private static <T> List<T> onBoth(
      ExecutorService pool, List<GangRankTrainer> ranks, Function<GangRankTrainer, T> call)
      throws Exception {
    List<Future<T>> f = new ArrayList<>();
    for (GangRankTrainer r : ranks) {
      f.add(pool.submit(() -> call.apply(r)));
    }
    List<T> out = new ArrayList<>();
    for (Future<T> x : f) {
      out.add(x.get());
    }
    return out;
  }

  private static PpoUpdater updater(TrainerConfig c, Gang g) {
    return PpoUpdater.owning(
        Devices.open("cpu"), INITIAL, c, UpdaterOptions.defaults().withGang(g));
  }

  /** Metrics without wall times, which differ between any two runs. */
  private static Map<String, Double> strip(Map<String, Double> m) {
    Map<String, Double> out = new java.util.TreeMap<>(m);
    out.keySet().removeIf(k -> k.startsWith("timing_s/"));
    return out;
  }
}
