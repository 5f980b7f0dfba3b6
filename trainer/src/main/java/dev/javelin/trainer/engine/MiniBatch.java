package dev.javelin.trainer.engine;

import dev.javelin.grpo.GlobalBatch;
import dev.javelin.grpo.PolicyBatch;
import dev.javelin.grpo.PolicyLossConfig;
import dev.javelin.grpo.RolloutCorrectionConfig;
import dev.javelin.grpo.correction.Correction;
import dev.javelin.grpo.correction.RolloutCorrection;
import dev.javelin.trainer.TrainSample;
import java.util.List;
import java.util.Map;

/**
 * One mini-batch (the unit of an optimizer step) as the loss sees it: (B, R) response-aligned
 * arrays, rollout correction applied once here (before the split into micro-batches, as VeRL does),
 * and the global denominators every micro-batch's loss divides by.
 *
 * @param template the batch with {@code logProb} standing in as a copy of the old log-probs; each
 *     micro-batch replaces it with the current ones
 * @param global token and sequence counts of the whole mini-batch
 * @param correctionMetrics {@code rollout_corr/*} metrics, empty when correction is off
 * @param oldFromCurrent the samples carry no old log-probs: each micro-batch uses its current
 *     log-probs, detached, as π_old (VeRL's on-policy shortcut; the ratio is exactly 1)
 */
record MiniBatch(
    PolicyBatch template,
    GlobalBatch global,
    Map<String, Double> correctionMetrics,
    boolean oldFromCurrent) {

  /** Builds the (B, R) arrays from {@code samples}; {@code useRef} adds the reference log-probs. */
  static MiniBatch of(List<TrainSample> samples, PolicyLossConfig loss, boolean useRef) {
    int b = samples.size();
    int width = 0;
    for (TrainSample s : samples) {
      width = Math.max(width, s.responseIds().length);
    }
    RolloutCorrectionConfig rc = loss.rolloutCorrection();
    boolean bypass = rc.bypassMode();
    boolean fromCurrent = !bypass && samples.get(0).oldLogProbs() == null;
    double[] old = new double[b * width]; // (B, R)
    double[] rollout = new double[b * width];
    double[] adv = new double[b * width];
    double[] ref = useRef ? new double[b * width] : null;
    boolean[] mask = new boolean[b * width];
    for (int i = 0; i < b; i++) {
      TrainSample s = samples.get(i);
      float[] o = bypass || fromCurrent ? s.rolloutLogProbs() : s.oldLogProbs();
      for (int k = 0; k < s.responseIds().length; k++) {
        int at = i * width + k;
        old[at] = o[k];
        rollout[at] = s.rolloutLogProbs()[k];
        adv[at] = s.advantages()[k];
        mask[at] = true;
        if (ref != null) {
          ref[at] = s.refLogProbs()[k];
        }
      }
    }
    PolicyBatch batch =
        new PolicyBatch(b, width, old.clone(), old, adv, mask, ref, rollout, null, null);
    Map<String, Double> metrics = Map.of();
    if (!bypass && correctionEnabled(rc)) {
      if (fromCurrent) {
        throw new IllegalArgumentException(
            "rollout correction needs the old log-probs before the update: call logProbs(ACTOR)");
      }
      Correction c = RolloutCorrection.compute(old, rollout, mask, b, width, rc);
      batch = batch.withCorrection(c.weights(), c.mask());
      metrics = c.metrics();
    }
    // Denominators count tokens before rejection (as the grpo library's bypass mode does), so a
    // mini-batch whose tokens are all rejected still has a well-defined (zero) loss.
    GlobalBatch global = loss.normalize(GlobalBatch.of(mask, b, width));
    return new MiniBatch(batch, global, metrics, fromCurrent);
  }

  /** Micro-batch rows {@code [from, to)} with the current log-probs and entropies filled in. */
  PolicyBatch micro(int from, int to, double[] logProb, double[] entropy) {
    PolicyBatch b = template.slice(from, to);
    return new PolicyBatch(
        b.rows(),
        b.cols(),
        logProb,
        oldFromCurrent ? logProb.clone() : b.oldLogProb(),
        b.advantages(),
        b.mask(),
        b.refLogProb(),
        b.rolloutLogProb(),
        entropy,
        b.isWeights());
  }

  /** Response width R. */
  int width() {
    return template.cols();
  }

  private static boolean correctionEnabled(RolloutCorrectionConfig rc) {
    return rc.rolloutIs() != RolloutCorrectionConfig.IsLevel.OFF || !rc.rolloutRs().isEmpty();
  }
}
