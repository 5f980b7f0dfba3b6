package dev.javelin.backend.testing;

import dev.javelin.backend.Shape;
import dev.javelin.backend.Tensor;
import dev.javelin.backend.batch.TokenLogProbs;
import dev.javelin.backend.runtime.PolicyOptimizer;

/** A host loss for train-step tests: token-mean NLL over every position, no entropy term. */
public final class MeanNll {
  private MeanNll() {}

  /** L = −mean log π over every scored token; ∂L/∂log π = −1/N there. */
  public static PolicyOptimizer.Cotangents of(TokenLogProbs stats) {
    Shape s = stats.logp().shape(); // (B, T-1)
    float[] lp = stats.logp().data();
    float[] d = new float[lp.length];
    double loss = 0;
    for (int j = 0; j < lp.length; j++) {
      d[j] = -1f / lp.length;
      loss -= lp[j] / lp.length;
    }
    return new PolicyOptimizer.Cotangents(loss, new Tensor.F32(s, d), Tensor.F32.zeros(s));
  }
}
