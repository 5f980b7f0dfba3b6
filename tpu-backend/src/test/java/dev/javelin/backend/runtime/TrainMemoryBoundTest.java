package dev.javelin.backend.runtime;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.javelin.backend.DType;
import dev.javelin.backend.Device;
import dev.javelin.backend.Devices;
import dev.javelin.backend.Shape;
import dev.javelin.backend.Tensor;
import dev.javelin.backend.batch.TokenBatch;
import dev.javelin.backend.batch.TokenStats;
import dev.javelin.backend.checkpoint.ModelCheckpoint;
import dev.javelin.backend.graph.GraphBuilder;
import dev.javelin.backend.graph.Node;
import dev.javelin.backend.graph.Remat;
import dev.javelin.backend.model.ModelConfig;
import dev.javelin.backend.model.TokenLoss;
import dev.javelin.backend.optim.AdamWConfig;
import dev.javelin.backend.optim.LrSchedule;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Ten fused train steps of the small (51M) config in a heap of about twice {@link TrainMemory}'s
 * estimate, the live heap between steps flat and holding no more than the state, the pool and the
 * compiled program. Runs in its own JVM (the module pom's {@code train-memory} execution sets the
 * heap); a regression that keeps a run's arrays, or a cache that grows per step, fails it with an
 * {@code OutOfMemoryError} or the bound. Batch 4 × 128 keeps it within a minute and a half on two
 * cores; the ratio of the bound to the estimate is checked, so the heap cannot be raised silently.
 */
class TrainMemoryBoundTest {
  private static final int ROWS = 4;
  private static final int SEQ = 128;
  private static final int STEPS = 10;

  @Test
  void smallConfigTrainsTenStepsWithinTwiceTheEstimate() {
    ModelConfig c = ModelConfig.small().withMaxPositions(SEQ + 16);
    TrainMemory want = TrainMemory.of(c, ROWS, SEQ, Remat.BLOCKS);
    long heap = Runtime.getRuntime().maxMemory();
    assertTrue(
        heap <= 2.2 * want.total(),
        "this test must run in a heap of about 2x the estimate "
            + mb(want.total())
            + " MB (./mvnw -pl tpu-backend -am test-compile surefire:test@train-memory), got "
            + mb(heap)
            + " MB");
    try (Device cpu = Devices.open("cpu");
        PolicyModel model = PolicyModel.of(cpu, ModelCheckpoint.random(c, 0, 0.02));
        PolicyOptimizer opt =
            new PolicyOptimizer(
                model,
                AdamWConfig.defaults(),
                new LrSchedule.Constant(1e-4),
                PolicyOptimizer.Options.remat(Remat.BLOCKS))) {
      TokenBatch batch = batch(c);
      Map<String, Tensor> in = lossInputs();
      double first = Double.NaN;
      double last = Double.NaN;
      long[] between = new long[STEPS];
      for (int s = 0; s < STEPS; s++) {
        PolicyOptimizer.StepResult r = opt.stepFused(batch, 1f, MEAN_NLL, in);
        first = s == 0 ? r.loss() : first;
        last = r.loss();
        between[s] = liveHeap();
      }
      System.out.printf(
          "train memory: estimate %d MB, heap %d MB, live between steps %s MB%n",
          mb(want.total()),
          mb(heap),
          Arrays.toString(Arrays.stream(between).map(b -> b >> 20).toArray()));
      assertTrue(last < first, "the loss went down: " + first + " -> " + last);
      // What outlives a step: weights, m, v, the pool and the compiled program, never its arrays.
      long kept = want.state() + want.update() / 2 + want.workspace();
      for (int s = 1; s < STEPS; s++) {
        assertTrue(
            between[s] <= kept && between[s] <= between[1] + (32L << 20),
            "live heap after step "
                + s
                + " is "
                + mb(between[s])
                + " MB (after step 1: "
                + mb(between[1])
                + " MB, allowed "
                + mb(kept)
                + " MB)");
      }
    }
  }

  /** Heap in use after a full collection. */
  private static long liveHeap() {
    System.gc();
    return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
  }

  private static TokenBatch batch(ModelConfig c) {
    Random rng = new Random(1);
    List<int[]> rows = new ArrayList<>();
    for (int r = 0; r < ROWS; r++) {
      rows.add(rng.ints(SEQ, 1, c.vocabSize()).toArray());
    }
    return TokenBatch.rightPadded(rows, SEQ);
  }

  private static Map<String, Tensor> lossInputs() {
    float[] mask = new float[ROWS * (SEQ - 1)];
    Arrays.fill(mask, 1f / (ROWS * (SEQ - 1)));
    return Map.of("response_mask", new Tensor.F32(Shape.of(ROWS, SEQ - 1), mask));
  }

  private static long mb(long bytes) {
    return bytes >> 20;
  }

  /** Mean negative log-likelihood, the mask holding 1/count. */
  private static final TokenLoss MEAN_NLL =
      new TokenLoss() {
        @Override
        public String name() {
          return "mean_nll";
        }

        @Override
        public Node build(GraphBuilder g, TokenStats st) {
          Node mask = g.parameter("response_mask", DType.F32, st.logp().shape());
          return g.neg(g.reduceSum(g.mul(mask, st.logp()), 0, 1));
        }
      };
}
