package dev.javelin.recipes.driver;

import dev.javelin.recipes.task.PromptedExample;
import dev.javelin.sampler.GenerationRequest;
import dev.javelin.sampler.SamplingParams;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * Turns a step's prompts into sampler requests: {@code n} per prompt, grouped by a step-unique
 * prompt uid, each with its own seed derived from (run seed, phase, step, prompt, sample). The seed
 * alone fixes a response, so a resumed run regenerates exactly what an uninterrupted one would.
 */
public final class RequestFactory {
  private final long seed;

  public RequestFactory(long seed) {
    this.seed = seed;
  }

  /**
   * The requests for {@code prompts}.
   *
   * @param phase "train" or "val", so validation never reuses training seeds
   */
  public List<GenerationRequest> requests(
      String phase, long step, List<PromptedExample> prompts, int n, SamplingParams params) {
    List<GenerationRequest> out = new ArrayList<>(prompts.size() * n);
    for (int p = 0; p < prompts.size(); p++) {
      String uid = phase + "/" + step + "/" + p;
      int[] ids = prompts.get(p).promptIds();
      for (int k = 0; k < n; k++) {
        out.add(new GenerationRequest(uid + "#" + k, uid, ids, params, seedFor(phase, step, p, k)));
      }
    }
    return out;
  }

  /** Mixes the coordinates through SplitMix64 so nearby requests get unrelated streams. */
  long seedFor(String phase, long step, int prompt, int sample) {
    long h = seed * 0x9E3779B97F4A7C15L + phase.hashCode();
    h = h * 31 + step;
    h = h * 31 + prompt;
    h = h * 31 + sample;
    return new SplittableRandom(h).nextLong();
  }
}
