package dev.javelin.datasets.tokenizer;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The hand-written scanner against {@link java.util.regex} running the same tokenizer.json regex
 * (with Unicode {@code \s}), on random strings over an alphabet rich in the classes the pattern
 * cares about.
 */
class SplitPatternTest {
  private static final String QWEN =
      "(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\\r\\n\\p{L}\\p{N}]?\\p{L}+|\\p{N}| ?[^\\s\\p{L}\\p{N}]+[\\r\\n]*"
          + "|\\s*[\\r\\n]+|\\s+(?!\\S)|\\s+";
  private static final String LLAMA3 = QWEN.replace("|\\p{N}|", "|\\p{N}{1,3}|");
  private static final String[] ALPHABET = {
    "a", "B", "z", "ſ", "L", "E", "é", "日", "𝔘", "'", "s", "S", "t", "r", "e", "v", "l", "m", "d",
    "0", "7", "½", "١", " ", " ", " ", "\t", "\n", "\r", "\u00a0", "\u3000", ".", ",", "!", "$",
    "\\", "(", "😀", "\u0301", "-"
  };

  @ParameterizedTest
  @ValueSource(strings = {"qwen", "llama3"})
  void scannerAgreesWithTheRegex(String variant) {
    String regex = variant.equals("qwen") ? QWEN : LLAMA3;
    SplitPattern scanner = SplitPattern.forRegex(regex).orElseThrow();
    Pattern pattern = Pattern.compile(regex, Pattern.UNICODE_CHARACTER_CLASS);
    Random random = new Random(42);
    for (int trial = 0; trial < 20_000; trial++) {
      StringBuilder sb = new StringBuilder();
      int length = 1 + random.nextInt(12);
      for (int i = 0; i < length; i++) {
        sb.append(ALPHABET[random.nextInt(ALPHABET.length)]);
      }
      String s = sb.toString();
      assertEquals(
          regexSplit(pattern, s), scannerSplit(scanner, s), () -> "split of \"" + s + "\"");
    }
  }

  private static List<String> regexSplit(Pattern pattern, String s) {
    List<String> pieces = new ArrayList<>();
    Matcher m = pattern.matcher(s);
    while (m.find()) {
      pieces.add(m.group());
    }
    return pieces;
  }

  private static List<String> scannerSplit(SplitPattern scanner, String s) {
    List<String> pieces = new ArrayList<>();
    for (int pos = 0; pos < s.length(); ) {
      int end = scanner.end(s, pos);
      pieces.add(s.substring(pos, end));
      pos = end;
    }
    return pieces;
  }
}
