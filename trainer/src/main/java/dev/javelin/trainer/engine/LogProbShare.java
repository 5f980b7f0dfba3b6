package dev.javelin.trainer.engine;

import dev.javelin.trainer.PolicyRole;
import dev.javelin.trainer.TrainSample;
import java.util.List;

/**
 * How a gang splits log-probs: rank {@code r} of {@code size} computes the whole chunks of {@code
 * log_prob_micro_batch_size} samples numbered {@code r, r + size, ...}, so each chunk is packed
 * exactly as one process packs it. Ranks that are threads ({@link ThreadGangTrainer}) and ranks
 * that are processes ({@link GangRankTrainer}) take the same share.
 */
final class LogProbShare {
  private LogProbShare() {}

  /** Fills rank {@code rank}'s rows of {@code out} (one per sample) with {@code updater}'s. */
  static void compute(
      int rank,
      int size,
      PpoUpdater updater,
      List<TrainSample> samples,
      PolicyRole role,
      float[][] out) {
    int chunk = updater.config().logProbMicroBatchSize();
    for (int from = rank * chunk; from < samples.size(); from += chunk * size) {
      List<TrainSample> part = samples.subList(from, Math.min(samples.size(), from + chunk));
      float[][] lp = updater.logProbs(part, role);
      System.arraycopy(lp, 0, out, from, lp.length);
    }
  }
}
