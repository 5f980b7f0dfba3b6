package dev.javelin.datasets;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class PromptTemplateTest {

  @Test
  void gsm8kAppendsVerlInstruction() {
    List<ChatMessage> messages = PromptTemplate.GSM8K.render("How many?");
    assertEquals(
        List.of(
            ChatMessage.user(
                "How many? Let's think step by step and output the final answer after \"####\".")),
        messages);
  }

  @Test
  void mathAsksForBoxedAnswer() {
    String content = PromptTemplate.MATH.render("Solve x.").get(0).content();
    assertEquals(
        "Solve x. Let's think step by step and output the final answer within \\boxed{}.", content);
  }

  @Test
  void rawIsTheQuestionAsSingleUserMessage() {
    assertEquals(List.of(ChatMessage.user("123+456=")), PromptTemplate.RAW.render("123+456="));
  }

  @Test
  void systemMessageIsConfigurable() {
    List<ChatMessage> messages = PromptTemplate.RAW.withSystem("Be brief.").render("q");
    assertEquals(List.of(ChatMessage.system("Be brief."), ChatMessage.user("q")), messages);
    PromptTemplate custom = new PromptTemplate("mine", "", "Q: {question}\nA:");
    assertEquals("Q: 2+2\nA:", custom.render("2+2").get(0).content());
  }

  @Test
  void namedPresetsAndErrors() {
    assertSame(PromptTemplate.GSM8K, PromptTemplate.named("gsm8k"));
    assertSame(PromptTemplate.MATH, PromptTemplate.named("math"));
    assertSame(PromptTemplate.COUNTDOWN, PromptTemplate.named("countdown"));
    IllegalArgumentException unknown =
        assertThrows(IllegalArgumentException.class, () -> PromptTemplate.named("nope"));
    assertTrue(unknown.getMessage().contains("nope"), unknown.getMessage());
    IllegalArgumentException noPlaceholder =
        assertThrows(IllegalArgumentException.class, () -> new PromptTemplate("x", "", "no slot"));
    assertTrue(noPlaceholder.getMessage().contains("{question}"), noPlaceholder.getMessage());
  }
}
