package dev.javelin.sampler.engine;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.javelin.sampler.FinishReason;
import dev.javelin.sampler.GenerationRequest;
import dev.javelin.sampler.Rollout;
import dev.javelin.sampler.SamplingParams;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class ContinuousBatcherTest {
  private static final int STOP = 0;

  private static List<GenerationRequest> requests(int n, int maxResponse) {
    Random rnd = new Random(3);
    List<GenerationRequest> out = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      int[] prompt = new int[1 + rnd.nextInt(6)];
      for (int j = 0; j < prompt.length; j++) {
        prompt[j] = 1 + rnd.nextInt(FakeTokenModel.VOCAB - 1);
      }
      SamplingParams p = SamplingParams.sample(1.0, maxResponse, STOP);
      out.add(new GenerationRequest("r" + i, "p" + i / 4, prompt, p, 1000 + i));
    }
    return out;
  }

  private static List<Rollout> run(int rows, List<GenerationRequest> reqs) {
    return ContinuousBatcher.run(new FakeTokenModel(rows, 32), reqs, 5).rollouts();
  }

  @Test
  void resultsDoNotDependOnRowsOrOrder() {
    List<GenerationRequest> reqs = requests(23, 12);
    List<Rollout> alone = new ArrayList<>();
    for (GenerationRequest r : reqs) {
      alone.addAll(run(1, List.of(r)));
    }
    List<GenerationRequest> shuffled = new ArrayList<>(reqs);
    Collections.shuffle(shuffled, new Random(11));
    List<Rollout> wide = run(32, shuffled);
    for (int rows : new int[] {3, 8}) {
      List<Rollout> batched = run(rows, reqs);
      for (int i = 0; i < reqs.size(); i++) {
        assertEquals(reqs.get(i).requestId(), batched.get(i).requestId(), "request order");
        assertArrayEquals(alone.get(i).responseIds(), batched.get(i).responseIds());
        assertArrayEquals(alone.get(i).logProbs(), batched.get(i).logProbs());
        assertEquals(alone.get(i).finish(), batched.get(i).finish());
      }
    }
    for (int i = 0; i < shuffled.size(); i++) {
      int original = reqs.indexOf(shuffled.get(i));
      assertArrayEquals(alone.get(original).responseIds(), wide.get(i).responseIds());
    }
  }

  @Test
  void finishedRowsAreRefilledWhileOthersDecode() {
    FakeTokenModel model = new FakeTokenModel(4, 32);
    List<GenerationRequest> reqs = requests(20, 10);
    ContinuousBatcher.Outcome out = ContinuousBatcher.run(model, reqs, 5);
    assertTrue(out.prefills() >= 1);
    assertEquals(out.prefills() - 1, model.rowPrefills);
    assertEquals(20, out.rollouts().size());
    assertEquals(4, model.maxActive);
    int tokens = 0;
    for (Rollout r : out.rollouts()) {
      tokens += r.responseLength() + r.promptIds().length;
    }
    // every step is one token for up to 4 rows: refilling keeps the batch nearly full
    assertTrue(out.decodeSteps() < tokens / 4 + 12, out.decodeSteps() + " steps for " + tokens);
  }

  @Test
  void theBatchShrinksWhenFewRequestsRemain() {
    // one long request among short ones: after the short ones finish it decodes alone
    List<GenerationRequest> reqs = new ArrayList<>();
    SamplingParams shortP = SamplingParams.sample(1.0, 2);
    SamplingParams longP = SamplingParams.sample(1.0, 20);
    for (int i = 0; i < 16; i++) {
      reqs.add(new GenerationRequest("r" + i, "p", new int[] {1, 2}, i == 5 ? longP : shortP, i));
    }
    FakeTokenModel model = new FakeTokenModel(16, 32);
    ContinuousBatcher.Outcome out = ContinuousBatcher.run(model, reqs, 0);
    assertEquals(1, out.compactions());
    assertEquals(1, model.compactions);
    assertEquals(20, out.rollouts().get(5).responseLength());
    List<Rollout> alone = run(1, List.of(reqs.get(5)));
    assertArrayEquals(alone.get(0).responseIds(), out.rollouts().get(5).responseIds());
  }

  @Test
  void stopTokenAndLengthCapEndResponses() {
    for (Rollout r : run(8, requests(40, 6))) {
      int[] ids = r.responseIds();
      assertEquals(5, r.policyVersion());
      for (int j = 0; j < ids.length - 1; j++) {
        assertTrue(ids[j] != STOP, "stop token only at the end");
      }
      if (r.finish() == FinishReason.STOP) {
        assertEquals(STOP, ids[ids.length - 1]);
      } else {
        assertEquals(6, ids.length);
      }
    }
  }

  @Test
  void shortCacheCapsTheResponseLength() {
    SamplingParams p = SamplingParams.sample(1.0, 50); // no stop token
    GenerationRequest r = new GenerationRequest("a", "a", new int[] {1, 2, 3}, p, 1);
    Rollout out = ContinuousBatcher.run(new FakeTokenModel(2, 16), List.of(r), 0).rollouts().get(0);
    assertEquals(FinishReason.LENGTH, out.finish());
    assertEquals(13, out.responseLength());
  }

  @Test
  void promptThatFillsTheCacheIsRejected() {
    SamplingParams p = SamplingParams.sample(1.0, 4);
    GenerationRequest r = new GenerationRequest("long", "x", new int[16], p, 1);
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () -> ContinuousBatcher.run(new FakeTokenModel(2, 16), List.of(r), 0));
    assertTrue(e.getMessage().contains("long"), e.getMessage());
  }
}
