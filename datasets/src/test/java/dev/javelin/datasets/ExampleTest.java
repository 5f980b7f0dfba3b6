package dev.javelin.datasets;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ExampleTest {
  private static final List<ChatMessage> PROMPT = List.of(ChatMessage.user("1+1="));

  @Test
  void uidIsStableAndContentSensitive() {
    String uid = Example.uid("synthetic/arith", 3, PROMPT, "2");
    assertEquals(uid, Example.uid("synthetic/arith", 3, PROMPT, "2"));
    assertTrue(uid.startsWith("synthetic/arith#3:"), uid);
    assertEquals("synthetic/arith#3:".length() + 12, uid.length());
    assertNotEquals(uid, Example.uid("synthetic/arith", 3, PROMPT, "3"));
    assertNotEquals(uid, Example.uid("synthetic/arith", 3, List.of(ChatMessage.user("1+2=")), "2"));
    assertNotEquals(uid, Example.uid("openai/gsm8k", 3, PROMPT, "2"));
    assertNotEquals(
        Example.uid("s", 0, List.of(ChatMessage.user("ab")), "c"),
        Example.uid("s", 0, List.of(ChatMessage.user("a")), "bc"));
  }

  @Test
  void extraInfoIsImmutableAndKeepsInsertionOrder() {
    Map<String, Object> info = new LinkedHashMap<>();
    info.put("z", 1L);
    info.put("a", "x");
    info.put("m", List.of(1L, 2L));
    Example example = new Example("u", "src", PROMPT, "2", info);
    info.put("later", true);
    assertEquals(List.of("z", "a", "m"), List.copyOf(example.extraInfo().keySet()));
    assertThrows(UnsupportedOperationException.class, () -> example.extraInfo().put("k", 1L));
    assertEquals(4, example.promptChars());
  }

  @Test
  void rejectsBadFields() {
    assertThrows(
        IllegalArgumentException.class, () -> new Example("u", "src", List.of(), "", Map.of()));
    assertThrows(
        IllegalArgumentException.class, () -> new Example(" ", "src", PROMPT, "", Map.of()));
    assertThrows(IllegalArgumentException.class, () -> new Example("u", "", PROMPT, "", Map.of()));
    assertThrows(NullPointerException.class, () -> new Example("u", "src", PROMPT, null, Map.of()));
  }
}
