package dev.javelin.recipes.driver;

import dev.javelin.sampler.GenerationRequest;
import dev.javelin.sampler.GenerationResult;
import dev.javelin.sampler.Rollout;
import dev.javelin.sampler.RolloutCodec;
import dev.javelin.sampler.SamplerMetrics;
import dev.javelin.weightsync.WeightSnapshot;
import java.util.ArrayList;
import java.util.List;

/**
 * The driver's view of N samplers: one generate call spreads requests over all of them, one weight
 * load brings every sampler to the same version. Implementations: Ray actors ({@code
 * dev.javelin.recipes.ray.RaySamplerPool}) and plain in-process samplers ({@link
 * LocalSamplerPool}).
 */
public interface SamplerPool extends AutoCloseable {

  /** Number of samplers. */
  int size();

  /** Generates every request; rollouts come back in request order. */
  GenerationResult generate(List<GenerationRequest> requests);

  /**
   * Loads {@code snapshot} into every sampler and returns once all hold it.
   *
   * @throws IllegalStateException when a sampler ends on another version
   */
  void loadWeights(WeightSnapshot snapshot);

  /**
   * The next {@link #loadWeights} may carry an older or equal version: the trainer went back to a
   * checkpoint (a restarted trainer gang): every sampler accepts it, keeping its weights until
   * then.
   */
  default void rewind() {}

  /**
   * Sampler restarts so far (cumulative): a sampler process that died and came back, reloaded with
   * the current weights. Zero for pools that cannot restart.
   */
  default int restarts() {
    return 0;
  }

  /**
   * Sampler results rejected so far (cumulative): malformed rollouts (undecodable bytes, token ids
   * outside the vocabulary, a log-prob count that differs from the token count, non-finite
   * log-probs, missing or extra requests), each regenerated.
   */
  default int rejectedResults() {
    return 0;
  }

  @Override
  void close();

  /**
   * Splits {@code requests} into {@code parts} contiguous, near-equal chunks (some may be empty).
   */
  static List<List<GenerationRequest>> split(List<GenerationRequest> requests, int parts) {
    List<List<GenerationRequest>> out = new ArrayList<>(parts);
    int n = requests.size();
    for (int i = 0; i < parts; i++) {
      out.add(requests.subList(n * i / parts, n * (i + 1) / parts));
    }
    return out;
  }

  /** Joins encoded per-sampler results, in order, into one result timed at {@code seconds}. */
  static GenerationResult join(List<byte[]> encoded, double seconds) {
    List<Rollout> all = new ArrayList<>();
    int prefills = 0;
    int decodeSteps = 0;
    int rows = 0;
    for (byte[] bytes : encoded) {
      GenerationResult r = RolloutCodec.decodeResult(bytes);
      all.addAll(r.rollouts());
      prefills += r.metrics().prefills();
      decodeSteps = Math.max(decodeSteps, r.metrics().decodeSteps());
      rows += r.metrics().rows();
    }
    return new GenerationResult(all, SamplerMetrics.of(all, seconds, prefills, decodeSteps, rows));
  }
}
