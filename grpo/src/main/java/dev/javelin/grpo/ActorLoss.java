package dev.javelin.grpo;

import java.util.HashMap;
import java.util.Map;

/**
 * The actor's objective as VeRL's actor composes it:
 *
 * <pre>
 *   ℒ = agg(L^pg) − entropy_coeff · agg(H) + kl_loss_coef · agg(KL(logπ_θ, logπ_ref))
 * </pre>
 *
 * returned with its exact gradient with respect to the per-token log-probs and entropies. The
 * trainer feeds {@link LossResult#dLogProb()} (and {@link LossResult#dEntropy()}) into the model's
 * backward pass as the cotangent, so the model's autodiff carries the loss to the weights.
 *
 * <p>All three terms are aggregated with the global denominators of {@link GlobalBatch}, so the
 * results of micro-batches add up to the mini-batch's. (VeRL's legacy actor normalises the entropy
 * and KL terms per micro-batch; we do not.)
 */
public final class ActorLoss {
  private ActorLoss() {}

  /** The loss of {@code batch}, one micro-batch of a mini-batch with counts {@code global}. */
  public static LossResult compute(PolicyBatch batch, ActorLossConfig config, GlobalBatch global) {
    PolicyLossConfig pc = config.policyLoss();
    GlobalBatch g = pc.normalize(global);
    int rows = batch.rows();
    int cols = batch.cols();
    PolicyLossTerms pg = pc.lossMode().compute(batch, pc);
    LossAggMode pgAgg = pg.aggMode() != null ? pg.aggMode() : pc.lossAggMode();
    double[] wPg = pgAgg.weights(pg.mask(), rows, cols, g); // (B, T)
    double pgLoss = LossAggMode.dot(wPg, pg.loss());
    double[] dLogProb = new double[batch.size()]; // (B, T)
    for (int i = 0; i < dLogProb.length; i++) {
      dLogProb[i] = wPg[i] * pg.dLoss()[i];
    }
    Map<String, Double> metrics = new HashMap<>(pg.metrics());
    metrics.put(MetricNames.PG_LOSS, pgLoss);
    double total = pgLoss;
    // entropy and KL use the configured mode and the batch's mask, as VeRL's actor does
    double[] w = pc.lossAggMode().weights(batch.mask(), rows, cols, g); // (B, T)
    double[] dEntropy = null;
    if (batch.entropy() != null) {
      double entropy = LossAggMode.dot(w, batch.entropy());
      metrics.put(MetricNames.ENTROPY, entropy);
      total -= config.entropyCoeff() * entropy;
      dEntropy = new double[batch.size()];
      for (int i = 0; i < dEntropy.length; i++) {
        dEntropy[i] = -config.entropyCoeff() * w[i];
      }
    } else if (config.entropyCoeff() != 0.0) {
      throw new IllegalArgumentException(
          "entropyCoeff is " + config.entropyCoeff() + " but the batch has no entropy");
    }
    if (config.useKlLoss()) {
      total += klTerm(batch, config, w, dLogProb, metrics);
    }
    return new LossResult(total, dLogProb, dEntropy, metrics);
  }

  /** Adds β·∂agg(KL)/∂logπ into {@code dLogProb}; returns β·agg(KL). */
  private static double klTerm(
      PolicyBatch batch,
      ActorLossConfig config,
      double[] w,
      double[] dLogProb,
      Map<String, Double> metrics) {
    if (batch.refLogProb() == null) {
      throw new IllegalArgumentException("useKlLoss is on but the batch has no refLogProb");
    }
    KlEstimator kl = config.klLossType();
    double beta = config.klLossCoef();
    double value = 0.0;
    for (int i = 0; i < w.length; i++) {
      if (w[i] != 0.0) {
        double lp = batch.logProb()[i];
        double ref = batch.refLogProb()[i];
        value += w[i] * kl.value(lp, ref);
        dLogProb[i] += beta * w[i] * kl.gradient(lp, ref);
      }
    }
    metrics.put(MetricNames.KL_LOSS, value);
    metrics.put(MetricNames.KL_COEF, beta);
    return beta * value;
  }
}
