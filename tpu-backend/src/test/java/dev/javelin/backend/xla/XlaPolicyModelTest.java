package dev.javelin.backend.xla;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.javelin.backend.Device;
import dev.javelin.backend.Devices;
import dev.javelin.backend.batch.PrefixBatch;
import dev.javelin.backend.batch.TokenBatch;
import dev.javelin.backend.batch.TokenLogProbs;
import dev.javelin.backend.optim.AdamWConfig;
import dev.javelin.backend.optim.LrSchedule;
import dev.javelin.backend.runtime.GreedyDecode;
import dev.javelin.backend.runtime.PolicyModel;
import dev.javelin.backend.runtime.PolicyOptimizer;
import dev.javelin.backend.testing.RelError;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The model façade that the sampler and trainer use ({@link PolicyModel}, {@link PolicyOptimizer})
 * on {@code xla:cpu} against {@code cpu}, with the committed qwen2-tiny checkpoint: log-probs,
 * greedy generation with the KV cache, and three host-loss train steps.
 */
class XlaPolicyModelTest {
  private static final double TOL = 1e-4;
  private static Path checkpoint;

  @BeforeAll
  static void locate() {
    checkpoint = XlaTestFixtures.qwen2Tiny();
  }

  private static TokenBatch batch() {
    return TokenBatch.rightPadded(
        List.of(new int[] {3, 17, 42, 5, 9, 11, 2}, new int[] {8, 1, 30, 4}), 7);
  }

  @Test
  void logProbsAndGreedyDecodingMatchCpu() {
    try (Device cpu = Devices.open("cpu");
        Device xla = Devices.open("xla:cpu");
        PolicyModel onCpu = PolicyModel.load(cpu, checkpoint);
        PolicyModel onXla = PolicyModel.load(xla, checkpoint)) {
      TokenLogProbs a = onCpu.logProbs(batch(), 0.7f);
      TokenLogProbs b = onXla.logProbs(batch(), 0.7f);
      RelError.assertClose("logp", a.logp(), b.logp(), TOL);
      RelError.assertClose("entropy", a.entropy(), b.entropy(), TOL);
      List<int[]> prompts = List.of(new int[] {3, 17, 42}, new int[] {8, 1, 30, 4, 5});
      List<int[]> x = GreedyDecode.generate(onCpu, prompts, 6, -1);
      List<int[]> y = GreedyDecode.generate(onXla, prompts, 6, -1);
      for (int i = 0; i < x.size(); i++) {
        assertArrayEquals(x.get(i), y.get(i), "greedy continuation of prompt " + i);
      }
    }
  }

  @Test
  void promptSharingLogProbsMatchCpu() {
    int[] p1 = {3, 17, 42};
    int[] p2 = {8, 1, 30, 4, 5};
    PrefixBatch shared =
        PrefixBatch.of(
            List.of(p1, p2, p1, p2, p1),
            List.of(
                new int[] {9, 11, 2}, new int[] {6}, new int[] {7, 7}, new int[0], new int[] {1}));
    try (Device cpu = Devices.open("cpu");
        Device xla = Devices.open("xla:cpu");
        PolicyModel onCpu = PolicyModel.load(cpu, checkpoint);
        PolicyModel onXla = PolicyModel.load(xla, checkpoint)) {
      TokenLogProbs a = onCpu.logProbs(shared, 0.7f);
      TokenLogProbs b = onXla.logProbs(shared, 0.7f);
      RelError.assertClose("logp", a.logp(), b.logp(), TOL);
      RelError.assertClose("entropy", a.entropy(), b.entropy(), TOL);
    }
  }

  @Test
  void hostLossTrainStepsMatchCpu() {
    double[] cpuLoss = train("cpu");
    double[] xlaLoss = train("xla:cpu");
    for (int i = 0; i < cpuLoss.length; i++) {
      assertEquals(cpuLoss[i], xlaLoss[i], TOL * Math.max(1, Math.abs(cpuLoss[i])), "step " + i);
    }
    assertTrue(
        xlaLoss[2] < xlaLoss[0], "the loss should fall: " + xlaLoss[0] + " -> " + xlaLoss[2]);
  }

  /** Three steps of mean negative log-likelihood over real tokens; the per-step losses. */
  private static double[] train(String spec) {
    try (Device d = Devices.open(spec);
        PolicyModel model = PolicyModel.load(d, checkpoint);
        PolicyOptimizer trainer =
            new PolicyOptimizer(model, AdamWConfig.defaults(), new LrSchedule.Constant(1e-2))) {
      double[] losses = new double[3];
      for (int s = 0; s < losses.length; s++) {
        PolicyOptimizer.StepResult r = trainer.step(List.of(batch()), 1f, XlaTestFixtures::meanNll);
        losses[s] = r.loss();
      }
      return losses;
    }
  }
}
