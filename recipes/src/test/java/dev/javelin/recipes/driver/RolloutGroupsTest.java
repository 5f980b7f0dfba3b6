package dev.javelin.recipes.driver;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.javelin.datasets.ChatMessage;
import dev.javelin.datasets.Example;
import dev.javelin.recipes.task.PromptedExample;
import dev.javelin.sampler.FinishReason;
import dev.javelin.sampler.Rollout;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class RolloutGroupsTest {
  private static PromptedExample prompt(String uid) {
    Example e = new Example(uid, "src", List.of(ChatMessage.user("q")), "a", Map.of());
    return new PromptedExample(e, "q " + uid, new int[] {1});
  }

  private static Rollout rollout(String uid, int k) {
    return new Rollout(
        uid + "#" + k,
        uid,
        new int[] {1},
        new int[] {k + 2},
        new float[1],
        FinishReason.STOP,
        0,
        0);
  }

  private static final List<PromptedExample> PROMPTS = List.of(prompt("a"), prompt("b"));
  private static final List<Rollout> ROLLOUTS =
      List.of(
          rollout("a", 0),
          rollout("a", 1),
          rollout("a", 2),
          rollout("b", 0),
          rollout("b", 1),
          rollout("b", 2));

  @Test
  void eachRolloutKnowsItsPromptAndEachPromptItsGroup() {
    RolloutGroups g = new RolloutGroups(PROMPTS, ROLLOUTS, 3);
    assertEquals(6, g.size());
    for (int i = 0; i < g.size(); i++) {
      assertEquals(g.rollouts().get(i).promptUid(), g.promptOf(i).example().uid());
    }
    assertEquals(ROLLOUTS.subList(3, 6), g.groupOf(g.rollouts(), 1));
    List<String> tags = List.of("a0", "a1", "a2", "b0", "b1", "b2");
    assertEquals(List.of("a0", "a1", "a2"), g.groupOf(tags, 0));
    assertSame(PROMPTS.get(1), g.promptOf(5));
  }

  @Test
  void perPromptValuesSpreadOverTheirGroup() {
    RolloutGroups g = new RolloutGroups(PROMPTS, ROLLOUTS, 3);
    assertArrayEquals(
        new double[] {0.5, 0.5, 0.5, -1, -1, -1}, g.perRollout(new double[] {0.5, -1}));
    assertThrows(IllegalArgumentException.class, () -> g.perRollout(new double[] {1}));
  }

  @Test
  void rolloutsThatDoNotMakeWholeGroupsAreRefused() {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () -> new RolloutGroups(PROMPTS, ROLLOUTS.subList(0, 5), 3));
    assertTrue(e.getMessage().contains("5 rollouts"), e.getMessage());
    assertThrows(IllegalArgumentException.class, () -> new RolloutGroups(PROMPTS, ROLLOUTS, 0));
  }
}
