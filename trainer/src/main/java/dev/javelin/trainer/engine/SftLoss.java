package dev.javelin.trainer.engine;

import dev.javelin.backend.batch.TokenLogProbs;
import dev.javelin.backend.runtime.PolicyOptimizer.Cotangents;

/** The SFT warm-up's loss: token cross-entropy of the responses, as the cotangent of log π. */
final class SftLoss {
  private SftLoss() {}

  /** L = −scale · Σ log π over response tokens; ∂L/∂logπ = −scale there. */
  static Cotangents cotangents(PackedBatch p, TokenLogProbs stats, double scale) {
    int w = p.maxResponse();
    double[] lp = p.responseColumns(stats.logp(), w); // (B, R)
    double[] d = new double[lp.length];
    double loss = 0;
    for (int row = 0; row < p.rows(); row++) {
      for (int k = 0; k < p.responseLength(row); k++) {
        loss -= scale * lp[row * w + k];
        d[row * w + k] = -scale;
      }
    }
    return new Cotangents(loss, p.tokenColumns(d, w), p.tokenColumns(null, w));
  }
}
