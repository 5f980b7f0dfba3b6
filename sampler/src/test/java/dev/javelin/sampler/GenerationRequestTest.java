package dev.javelin.sampler;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class GenerationRequestTest {
  @Test
  void groupGivesEachResponseItsOwnReproducibleSeed() {
    SamplingParams p = SamplingParams.sample(1.0, 8, 2);
    List<GenerationRequest> g = GenerationRequest.group("q7", new int[] {4, 5}, p, 8, 123);
    assertEquals(g, GenerationRequest.group("q7", new int[] {4, 5}, p, 8, 123));
    Set<Long> seeds = new HashSet<>();
    for (int j = 0; j < g.size(); j++) {
      assertEquals("q7#" + j, g.get(j).requestId());
      assertEquals("q7", g.get(j).promptUid());
      seeds.add(g.get(j).seed());
    }
    assertEquals(8, seeds.size());
  }

  @Test
  void badParamsNameTheField() {
    String m =
        assertThrows(
                IllegalArgumentException.class,
                () -> new SamplingParams(1.0, -1, 1.5, 0, 8, new int[0], false))
            .getMessage();
    assertTrue(m.contains("topP"), m);
    m =
        assertThrows(
                IllegalArgumentException.class,
                () -> new SamplingParams(0, -1, 1, 0, 8, new int[0], false))
            .getMessage();
    assertTrue(m.contains("temperature"), m);
    m =
        assertThrows(
                IllegalArgumentException.class,
                () -> new GenerationRequest("r", "u", new int[0], SamplingParams.greedy(4), 1))
            .getMessage();
    assertTrue(m.contains("promptIds"), m);
  }

  @Test
  void recordsCopyTheirArrays() {
    int[] prompt = {1, 2};
    GenerationRequest r = new GenerationRequest("r", "u", prompt, SamplingParams.greedy(4), 1);
    prompt[0] = 9;
    r.promptIds()[1] = 9;
    assertEquals(List.of(1, 2), List.of(r.promptIds()[0], r.promptIds()[1]));
  }
}
