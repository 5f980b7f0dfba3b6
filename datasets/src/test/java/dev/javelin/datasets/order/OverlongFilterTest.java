package dev.javelin.datasets.order;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.javelin.datasets.ChatMessage;
import dev.javelin.datasets.Example;
import dev.javelin.datasets.Tokenizer;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

class OverlongFilterTest {

  private static Example example(String content) {
    List<ChatMessage> prompt = List.of(ChatMessage.user(content));
    return new Example(Example.uid("t", 0, prompt, ""), "t", prompt, "", Map.of());
  }

  @Test
  void dropsPromptsOverTheLimitAndCountsThem() {
    List<Example> examples =
        List.of(example("aa"), example("aaaaa"), example("a"), example("aaaa"));
    OverlongFilter.Result result = OverlongFilter.apply(examples, Example::promptChars, 4);
    assertEquals(List.of(examples.get(0), examples.get(2), examples.get(3)), result.kept());
    assertEquals(1, result.filtered());
    assertThrows(IllegalArgumentException.class, () -> OverlongFilter.apply(examples, e -> 1, 0));
  }

  @Test
  void tokenLengthCountsTheChatTemplatedPrompt() {
    Tokenizer perChar = new CharTokenizer();
    // "<u>" + content + "<a>" with one token per character.
    assertEquals(3 + 5 + 3, OverlongFilter.tokenLength(perChar).applyAsInt(example("hello")));
  }

  @Test
  void permutationsArePermutationsAndDependOnEpoch() {
    int[] a = EpochPermutation.of(100, 5, 0);
    int[] sorted = a.clone();
    Arrays.sort(sorted);
    assertArrayEquals(EpochPermutation.identity(100), sorted);
    assertArrayEquals(a, EpochPermutation.of(100, 5, 0));
    assertEquals(false, Arrays.equals(a, EpochPermutation.of(100, 5, 1)));
  }

  /** One id per char; the chat template wraps user turns as {@code <u>text<a>}. */
  private static final class CharTokenizer implements Tokenizer {
    @Override
    public int[] encode(String text) {
      return text.chars().toArray();
    }

    @Override
    public String decode(int[] ids, boolean skipSpecial) {
      return Arrays.stream(ids).mapToObj(Character::toString).collect(Collectors.joining());
    }

    @Override
    public int vocabSize() {
      return 65_536;
    }

    @Override
    public OptionalInt eosId() {
      return OptionalInt.empty();
    }

    @Override
    public OptionalInt padId() {
      return OptionalInt.empty();
    }

    @Override
    public String applyChatTemplate(
        List<ChatMessage> messages, boolean addGenerationPrompt, Map<String, ?> kwargs) {
      StringBuilder out = new StringBuilder();
      messages.forEach(m -> out.append("<u>").append(m.content()));
      return addGenerationPrompt ? out + "<a>" : out.toString();
    }
  }
}
