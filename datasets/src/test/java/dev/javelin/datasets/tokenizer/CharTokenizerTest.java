package dev.javelin.datasets.tokenizer;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.javelin.datasets.ChatMessage;
import dev.javelin.datasets.Tokenizer;
import java.util.List;
import org.junit.jupiter.api.Test;

class CharTokenizerTest {
  private final Tokenizer tokenizer = Tokenizers.character();

  @Test
  void arithmeticRoundTripsOneIdPerChar() {
    String prompt = "123+456=";
    int[] ids = tokenizer.encode(prompt);
    assertEquals(prompt.length(), ids.length);
    assertEquals(prompt, tokenizer.decode(ids, false));
    assertEquals("579", tokenizer.decode(tokenizer.encode("579"), true));
  }

  @Test
  void vocabularyIsFixedAndSpecialsComeFirst() {
    assertArrayEquals(new int[] {1, 5, 2, 0}, tokenizer.encode("<bos>0<eos><pad>"));
    assertEquals(3 + CharTokenizer.ALPHABET.length(), tokenizer.vocabSize());
    assertEquals(2, tokenizer.eosId().orElseThrow());
    assertEquals(0, tokenizer.padId().orElseThrow());
    assertEquals("0", tokenizer.decode(new int[] {1, 5, 2, 0}, true));
    assertEquals("<bos>0<eos><pad>", tokenizer.decode(new int[] {1, 5, 2, 0}, false));
  }

  @Test
  void chatTemplateIsTheUserContentAndNoGenerationPrompt() {
    List<ChatMessage> messages = List.of(ChatMessage.system("ignored"), ChatMessage.user("12+3="));
    assertEquals("12+3=", tokenizer.applyChatTemplate(messages, true));
    assertEquals("12+3=", tokenizer.applyChatTemplate(messages, false));
  }

  @Test
  void unknownCharactersAndIdsAreClearErrors() {
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> tokenizer.encode("1+€"));
    assertTrue(
        e.getMessage().contains("U+20AC") && e.getMessage().contains("index 2"), e.getMessage());
    assertThrows(
        IllegalArgumentException.class,
        () -> tokenizer.decode(new int[] {tokenizer.vocabSize()}, false));
  }
}
