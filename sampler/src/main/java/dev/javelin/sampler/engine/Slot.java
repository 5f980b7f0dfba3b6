package dev.javelin.sampler.engine;

import dev.javelin.sampler.FinishReason;
import dev.javelin.sampler.GenerationRequest;
import dev.javelin.sampler.Rollout;
import dev.javelin.sampler.SamplingParams;
import dev.javelin.sampler.sampling.TokenChoice;
import java.util.Arrays;
import java.util.SplittableRandom;

/**
 * One request occupying a cache row: its prompt, what it generated so far, and how many of those
 * tokens are already in the cache ({@code fed}, which is also the next write position).
 */
final class Slot {
  final int index;
  final GenerationRequest request;
  final SamplingParams params;
  final SplittableRandom rng;
  private final int[] prompt;
  private final int maxNew;
  private final long startNanos;
  private int[] out;
  private float[] logProbs;
  private int generated;
  private int fed;
  private FinishReason finish;

  /**
   * @param index the request's position in the batch (results come back in request order)
   * @param maxNew the length cap for this request (its maxResponseLength, or less when the cache is
   *     shorter)
   */
  Slot(int index, GenerationRequest request, int maxNew) {
    this.index = index;
    this.request = request;
    this.params = request.params();
    this.rng = new SplittableRandom(request.seed());
    this.prompt = request.promptIds();
    this.maxNew = maxNew;
    this.startNanos = System.nanoTime();
    this.out = new int[Math.min(maxNew, 64)];
    this.logProbs = new float[out.length];
  }

  int promptLength() {
    return prompt.length;
  }

  int[] prompt() {
    return prompt;
  }

  /** The next token to write into the cache. */
  int nextToken() {
    return fed < prompt.length ? prompt[fed] : out[fed - prompt.length];
  }

  /** The cache position of {@link #nextToken()}. */
  int position() {
    return fed;
  }

  /** Records that {@code n} more tokens are in the cache; true when the next logits are ours. */
  boolean advance(int n) {
    fed += n;
    return fed >= prompt.length;
  }

  /** Appends a sampled token; returns true when the request is finished. */
  boolean accept(TokenChoice c) {
    if (generated == out.length) {
      out = Arrays.copyOf(out, Math.min(maxNew, 2 * out.length));
      logProbs = Arrays.copyOf(logProbs, out.length);
    }
    out[generated] = c.token();
    logProbs[generated] = c.logProb();
    generated++;
    if (params.isStop(c.token())) {
      finish = FinishReason.STOP;
    } else if (generated >= maxNew) {
      finish = FinishReason.LENGTH;
    }
    return finish != null;
  }

  Rollout toRollout(long policyVersion) {
    double seconds = (System.nanoTime() - startNanos) / 1e9;
    return new Rollout(
        request.requestId(),
        request.promptUid(),
        prompt,
        Arrays.copyOf(out, generated),
        Arrays.copyOf(logProbs, generated),
        finish,
        policyVersion,
        seconds);
  }
}
