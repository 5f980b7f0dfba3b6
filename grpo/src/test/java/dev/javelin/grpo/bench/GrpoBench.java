package dev.javelin.grpo.bench;

import dev.javelin.grpo.ActorLoss;
import dev.javelin.grpo.ActorLossConfig;
import dev.javelin.grpo.AdvantageEstimator;
import dev.javelin.grpo.AdvantageInput;
import dev.javelin.grpo.AlgorithmConfig;
import dev.javelin.grpo.GlobalBatch;
import dev.javelin.grpo.KlEstimator;
import dev.javelin.grpo.LossResult;
import dev.javelin.grpo.PolicyBatch;
import dev.javelin.grpo.PolicyLossConfig;
import java.util.Arrays;
import java.util.SplittableRandom;

/**
 * Times GRPO advantages + the full actor loss (vanilla PPO clip, entropy bonus, k3 KL loss,
 * token-mean) at B=256, T=512 with groups of 16 — the same work {@code tools/grpo_reference.py
 * --bench} times in numpy. Run with {@code grpo/bench.sh}.
 */
public final class GrpoBench {
  private GrpoBench() {}

  /** Args: [rows] [cols] [repeats]. */
  public static void main(String[] args) {
    int rows = args.length > 0 ? Integer.parseInt(args[0]) : 256;
    int cols = args.length > 1 ? Integer.parseInt(args[1]) : 512;
    int repeats = args.length > 2 ? Integer.parseInt(args[2]) : 21;
    SplittableRandom rng = new SplittableRandom(1);
    int n = rows * cols;
    boolean[] mask = new boolean[n];
    String[] uids = new String[rows];
    double[] scores = new double[rows];
    for (int r = 0; r < rows; r++) {
      uids[r] = "p" + (r / 16);
      scores[r] = rng.nextDouble() < 0.5 ? 1.0 : 0.0;
      Arrays.fill(mask, r * cols, r * cols + 1 + rng.nextInt(cols), true);
    }
    double[] old = new double[n];
    double[] lp = new double[n];
    double[] ref = new double[n];
    double[] entropy = new double[n];
    for (int i = 0; i < n; i++) {
      old[i] = -3 * rng.nextDouble();
      lp[i] = old[i] + 0.6 * (rng.nextDouble() - 0.5);
      ref[i] = old[i] + 0.4 * (rng.nextDouble() - 0.5);
      entropy[i] = 2 * rng.nextDouble();
    }
    ActorLossConfig cfg =
        ActorLossConfig.of(PolicyLossConfig.builder().clipRatioHigh(0.28).build())
            .withEntropyCoeff(0.01)
            .withKlLoss(KlEstimator.K3, 0.001);
    double[] times = new double[repeats];
    double sink = 0;
    for (int warm = 0; warm < 30; warm++) {
      sink += step(rows, cols, scores, mask, uids, lp, old, ref, entropy, cfg).value();
    }
    for (int k = 0; k < repeats; k++) {
      long t0 = System.nanoTime();
      sink += step(rows, cols, scores, mask, uids, lp, old, ref, entropy, cfg).value();
      times[k] = (System.nanoTime() - t0) / 1e6;
    }
    Arrays.sort(times);
    System.out.printf(
        "java  B=%d T=%d: median %.2f ms over %d runs (min %.2f, max %.2f) [checksum %.6f]%n",
        rows, cols, times[repeats / 2], repeats, times[0], times[repeats - 1], sink);
  }

  private static LossResult step(
      int rows,
      int cols,
      double[] scores,
      boolean[] mask,
      String[] uids,
      double[] lp,
      double[] old,
      double[] ref,
      double[] entropy,
      ActorLossConfig cfg) {
    AdvantageInput in = AdvantageInput.fromScores(rows, cols, scores, mask, uids);
    double[] adv = AdvantageEstimator.GRPO.compute(in, AlgorithmConfig.defaults()).advantages();
    PolicyBatch b =
        PolicyBatch.of(rows, cols, lp, old, adv, mask).withRefLogProb(ref).withEntropy(entropy);
    return ActorLoss.compute(b, cfg, GlobalBatch.of(b));
  }
}
