package dev.javelin.backend.distributed;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.javelin.backend.DType;
import dev.javelin.backend.Device;
import dev.javelin.backend.Devices;
import dev.javelin.backend.Shape;
import dev.javelin.backend.Tensor;
import dev.javelin.backend.batch.TokenBatch;
import dev.javelin.backend.checkpoint.ModelCheckpoint;
import dev.javelin.backend.model.LlamaFamily;
import dev.javelin.backend.model.ModelConfig;
import dev.javelin.backend.optim.AdamWConfig;
import dev.javelin.backend.optim.LrSchedule;
import dev.javelin.backend.runtime.GradientReducer;
import dev.javelin.backend.runtime.PolicyModel;
import dev.javelin.backend.runtime.PolicyOptimizer;
import dev.javelin.backend.runtime.PolicyOptimizer.StepResult;
import dev.javelin.backend.testing.RelError;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * A gang of 2 and of 3 ranks (threads, each with its own cpu device and model) takes 10 optimizer
 * steps over the same micro-batches as one process: each rank computes only its round-robin share,
 * yet every rank reports the same losses and ends with the same weights, bit for bit, and both
 * agree with the single process to f32 accumulation-order rounding.
 */
class GangUpdaterTest {
  private static final ModelConfig CONFIG =
      new ModelConfig(24, 32, 64, 2, 4, 2, 8, 10_000, 1e-6, false, false, 64, LlamaFamily.LLAMA);
  private static final ModelCheckpoint INITIAL = ModelCheckpoint.random(CONFIG, 11, 0.1);
  private static final int STEPS = 10;
  private static final int MICRO = 5; // uneven over 2 and 3 ranks
  private static final double TOL = 1e-5;

  /** One rank's (or the single process's) run: per-step results, micro-batches seen, weights. */
  private record Run(List<StepResult> steps, List<Integer> computed, ModelCheckpoint weights) {}

  @Test
  void twoRanksMatchOneProcess() throws Exception {
    assertGangMatchesSingle(2);
  }

  @Test
  void threeRanksMatchOneProcess() throws Exception {
    assertGangMatchesSingle(3);
  }

  /** Mixed precision: bf16 forward and backward, f32 gradients summed over the gang. */
  @Test
  void twoRanksMatchOneProcessInBf16Compute() throws Exception {
    assertGangMatchesSingle(2, DType.BF16);
  }

  /**
   * Ranks whose model runs on an XLA device (each rank its own PJRT client, as each host's process
   * would have on its own chips); the gang's sums still go through its store.
   */
  @Test
  void twoRanksOnXlaDevicesMatchOneProcess() throws Exception {
    assertGangMatchesSingle(2, DType.F32, "xla:cpu");
  }

  private static void assertGangMatchesSingle(int size) throws Exception {
    assertGangMatchesSingle(size, DType.F32);
  }

  private static void assertGangMatchesSingle(int size, DType compute) throws Exception {
    assertGangMatchesSingle(size, compute, "cpu");
  }

  private static void assertGangMatchesSingle(int size, DType compute, String device)
      throws Exception {
    Run single = run(GradientReducer.LOCAL, compute, device);
    assertEquals(STEPS * MICRO, single.computed().size());
    List<Gang> gangs = Gang.inProcess(size, Duration.ofSeconds(60));
    ExecutorService pool = Executors.newFixedThreadPool(size);
    List<Future<Run>> futures = new ArrayList<>();
    for (Gang g : gangs) {
      futures.add(
          pool.submit(
              () -> {
                try (g) {
                  return run(new GangReducer(g), compute, device);
                }
              }));
    }
    List<Run> ranks = new ArrayList<>();
    for (Future<Run> f : futures) {
      ranks.add(f.get(300, TimeUnit.SECONDS));
    }
    pool.shutdown();
    for (int r = 0; r < size; r++) {
      Run rank = ranks.get(r);
      for (int i : rank.computed()) {
        assertEquals(r, i % MICRO % size, "rank " + r + " computed micro-batch " + i % MICRO);
      }
      int mine = (MICRO - r + size - 1) / size;
      assertEquals(STEPS * mine, rank.computed().size(), "rank " + r + "'s share");
      for (int s = 0; s < STEPS; s++) {
        StepResult want = single.steps().get(s);
        StepResult got = rank.steps().get(s);
        String at = size + " ranks, rank " + r + ", step " + s;
        assertEquals(want.loss(), got.loss(), TOL * Math.abs(want.loss()), at + " loss");
        assertEquals(want.gradNorm(), got.gradNorm(), TOL * want.gradNorm(), at + " grad norm");
        assertEquals(want.lr(), got.lr(), 0, at);
        assertEquals(want.step(), got.step(), at);
        assertEquals(want.applied(), got.applied(), at);
        // every rank computes its sums from the same parts in the same order
        assertEquals(ranks.get(0).steps().get(s), got, at + ": ranks disagree");
      }
      for (Map.Entry<String, Tensor.F32> e : single.weights().weights().entrySet()) {
        Tensor.F32 w = rank.weights().weights().get(e.getKey());
        RelError.assertClose(e.getKey(), e.getValue(), w, TOL);
        assertArrayEquals(
            ranks.get(0).weights().weights().get(e.getKey()).data(),
            w.data(),
            e.getKey() + " differs between ranks 0 and " + r);
      }
    }
    double moved =
        RelError.of(
            INITIAL.weights().get("model.norm.weight"),
            single.weights().weights().get("model.norm.weight"),
            null);
    assertTrue(moved > 1e-4, "the steps barely moved the weights: " + moved);
  }

  private static Run run(GradientReducer reducer, DType compute, String device) {
    List<StepResult> steps = new ArrayList<>();
    List<Integer> computed = new ArrayList<>();
    try (Device cpu = Devices.open(device);
        PolicyModel model = PolicyModel.of(cpu, INITIAL, compute);
        PolicyOptimizer opt =
            new PolicyOptimizer(
                model,
                new AdamWConfig(0.9, 0.999, 1e-8, 0.01, 1.0),
                new LrSchedule.Constant(1e-2),
                PolicyOptimizer.Options.defaults().withReducer(reducer))) {
      for (int s = 0; s < STEPS; s++) {
        SplittableRandom rng = new SplittableRandom(1000 + s);
        List<TokenBatch> micro = new ArrayList<>();
        List<float[]> weights = new ArrayList<>();
        double count = 0;
        for (int i = 0; i < MICRO; i++) {
          TokenBatch b = batch(rng, 2);
          float[] w = new float[b.batch() * b.scoredColumns()];
          for (int j = 0; j < w.length; j++) {
            w[j] = rng.nextInt(4) == 0 ? 0f : (float) rng.nextDouble(0.5, 1.5);
            count += w[j];
          }
          micro.add(b);
          weights.add(w);
        }
        double n = count;
        int step = s;
        steps.add(
            opt.step(
                micro,
                1f,
                (i, stats) -> {
                  computed.add(step * MICRO + i);
                  return weightedNll(stats.logp(), stats.entropy(), weights.get(i), n);
                }));
      }
      return new Run(steps, computed, model.checkpoint());
    }
  }

  /** Σ w · (-logp + 0.01 H) / n over the micro-batch, n counting the whole step's weights. */
  private static PolicyOptimizer.Cotangents weightedNll(
      Tensor.F32 logp, Tensor.F32 entropy, float[] w, double n) {
    float[] dLogp = new float[w.length];
    float[] dEnt = new float[w.length];
    double loss = 0;
    for (int j = 0; j < w.length; j++) {
      dLogp[j] = (float) (-w[j] / n);
      dEnt[j] = (float) (0.01 * w[j] / n);
      loss += w[j] * (-logp.data()[j] + 0.01 * entropy.data()[j]) / n;
    }
    Shape s = logp.shape();
    return new PolicyOptimizer.Cotangents(loss, new Tensor.F32(s, dLogp), new Tensor.F32(s, dEnt));
  }

  private static TokenBatch batch(SplittableRandom rng, int rows) {
    List<int[]> seqs = new ArrayList<>();
    for (int r = 0; r < rows; r++) {
      int[] ids = new int[4 + rng.nextInt(9)];
      for (int k = 0; k < ids.length; k++) {
        ids[k] = rng.nextInt(CONFIG.vocabSize());
      }
      seqs.add(ids);
    }
    return TokenBatch.rightPadded(seqs, 2);
  }
}
