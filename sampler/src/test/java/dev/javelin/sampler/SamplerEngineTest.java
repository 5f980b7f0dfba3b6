package dev.javelin.sampler;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.javelin.backend.batch.TokenBatch;
import dev.javelin.backend.batch.TokenLogProbs;
import dev.javelin.backend.runtime.GreedyDecode;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class SamplerEngineTest {
  private static final SamplingParams SAMPLE =
      new SamplingParams(0.9, -1, 1.0, 0.0, 12, new int[] {3}, false);

  @Test
  void logProbsMatchWhatThePolicyRecomputes() {
    try (SamplerEngine engine = TinyPolicy.engine(1, 8)) {
      List<Rollout> rollouts = engine.generate(TinyPolicy.requests(12, SAMPLE)).rollouts();
      List<int[]> seqs = new ArrayList<>();
      for (Rollout r : rollouts) {
        seqs.add(concat(r.promptIds(), r.responseIds()));
      }
      TokenLogProbs lp =
          engine.model().logProbs(TokenBatch.rightPadded(seqs, 2), (float) SAMPLE.temperature());
      int cols = lp.logp().shape().dim(1);
      for (int i = 0; i < rollouts.size(); i++) {
        Rollout r = rollouts.get(i);
        int p = r.promptIds().length;
        float[] got = r.logProbs();
        for (int t = 0; t < got.length; t++) {
          float expected = lp.logp().data()[i * cols + p - 1 + t];
          assertEquals(expected, got[t], 2e-4, "rollout " + i + " token " + t);
        }
      }
    }
  }

  @Test
  void greedyMatchesThePolicysGreedyDecoding() {
    try (SamplerEngine engine = TinyPolicy.engine(2, 4)) {
      SamplingParams greedy = SamplingParams.greedy(10, 3);
      List<GenerationRequest> reqs = TinyPolicy.requests(10, greedy);
      List<Rollout> rollouts = engine.generate(reqs).rollouts();
      for (int i = 0; i < reqs.size(); i++) {
        int[] expected =
            GreedyDecode.generate(engine.model(), List.of(reqs.get(i).promptIds()), 10, 3).get(0);
        assertArrayEquals(expected, rollouts.get(i).responseIds(), "request " + i);
      }
    }
  }

  @Test
  void sameSeedsGiveSameRolloutsWhateverTheSlots() {
    List<GenerationRequest> reqs = TinyPolicy.requests(24, SAMPLE);
    List<Rollout> wide;
    try (SamplerEngine engine = TinyPolicy.engine(3, 64)) {
      wide = engine.generate(reqs).rollouts();
    }
    // 4 rows: waiting requests join by batched row prefills; 16 rows: single free rows take
    // theirs token by token
    for (int slots : new int[] {4, 16}) {
      List<Rollout> narrow;
      try (SamplerEngine engine = TinyPolicy.engine(3, slots)) {
        narrow = engine.generate(reqs).rollouts();
      }
      for (int i = 0; i < reqs.size(); i++) {
        String what = slots + " slots, request " + i;
        assertArrayEquals(wide.get(i).responseIds(), narrow.get(i).responseIds(), what);
        assertArrayEquals(wide.get(i).logProbs(), narrow.get(i).logProbs(), 1e-4f, what);
      }
    }
  }

  @Test
  void metricsDescribeTheCall() {
    try (SamplerEngine engine = TinyPolicy.engine(4, 16)) {
      GenerationResult result = engine.generate(TinyPolicy.requests(16, SAMPLE));
      SamplerMetrics m = result.metrics();
      int max = 0;
      int clipped = 0;
      long tokens = 0;
      for (Rollout r : result.rollouts()) {
        max = Math.max(max, r.responseLength());
        clipped += r.finish() == FinishReason.LENGTH ? 1 : 0;
        tokens += r.responseLength();
        assertEquals(0, r.policyVersion());
        assertTrue(r.seconds() > 0);
      }
      assertEquals(16, m.responses());
      assertEquals(16, m.rows());
      assertEquals(tokens, m.responseTokens());
      assertEquals(max, m.lengthMax());
      assertEquals(clipped / 16.0, m.clipRatio(), 1e-12);
      assertEquals(tokens / 16.0, m.toMap().get("response_length/mean"), 1e-12);
      assertTrue(m.tokensPerSecond() > 0);
    }
  }

  private static int[] concat(int[] a, int[] b) {
    int[] out = new int[a.length + b.length];
    System.arraycopy(a, 0, out, 0, a.length);
    System.arraycopy(b, 0, out, a.length, b.length);
    return out;
  }
}
