package dev.javelin.datasets.tokenizer;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Random;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The heap merge (long words) agrees with the rescan merge (short words) and keeps long input fast.
 */
class BpeMergeTest {
  private static final String PIECES =
      "abcdeghilmnorstu  ==--**..,,;;::!!??''\"\"()[]{}<>0123456789éü日本€😀\n\t";

  @ParameterizedTest
  @ValueSource(strings = {"qwen3", "llama3"})
  void heapAndRescanMergeIdentically(String name) {
    BpeModel model = TestFiles.tokenizer(name).model();
    Random random = new Random(7);
    for (int trial = 0; trial < 1_500; trial++) {
      StringBuilder sb = new StringBuilder();
      int length = 2 + random.nextInt(trial % 10 == 0 ? 300 : 40);
      for (int i = 0; i < length; i++) {
        sb.appendCodePoint(
            PIECES.codePointAt(
                PIECES.offsetByCodePoints(
                    0, random.nextInt(PIECES.codePointCount(0, PIECES.length())))));
      }
      int[] bytes = byteIds(model, sb.toString());
      assertArrayEquals(
          model.mergeByRescan(bytes.clone()), model.mergeByHeap(bytes.clone()), sb::toString);
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"qwen3", "llama3"})
  void hugeSingleWordEncodesQuickly(String name) {
    BpeTokenizer tokenizer = TestFiles.tokenizer(name);
    String punctuation = "=-".repeat(100_000); // one 200 kB pre-tokenizer piece
    int[] ids =
        assertTimeoutPreemptively(Duration.ofSeconds(20), () -> tokenizer.encode(punctuation));
    assertEquals(punctuation, tokenizer.decode(ids, false));
  }

  private static int[] byteIds(BpeModel model, String word) {
    byte[] utf8 = word.getBytes(StandardCharsets.UTF_8);
    int[] ids = new int[utf8.length];
    for (int i = 0; i < utf8.length; i++) {
      ids[i] = model.byteId(utf8[i] & 0xFF);
    }
    return ids;
  }
}
