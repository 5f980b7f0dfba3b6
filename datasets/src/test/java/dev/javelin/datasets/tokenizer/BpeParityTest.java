package dev.javelin.datasets.tokenizer;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.StringJoiner;
import java.util.zip.GZIPInputStream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Token ids identical to Hugging Face {@code tokenizers} on every GSM8K test question and answer
 * and every MATH-500 problem and solution, plus hand-picked edge cases (fixtures from
 * tools/tokenizer_fixtures.py), for byte-level and SentencePiece-style files (Llama 2, Gemma, Gemma
 * 3, and Llama 2 under the Metaspace pre-tokenizer layouts).
 */
class BpeParityTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  /** Every tokenizer with committed Hugging Face fixtures. */
  static List<String> tokenizers() {
    return List.of(
        "qwen3",
        "llama3",
        "qwen2_5",
        "gpt2",
        "smollm2",
        "smollm2-gguf",
        "llama2",
        "gemma",
        "gemma3",
        "llama2-metaspace",
        "llama2-metaspace-split");
  }

  @ParameterizedTest
  @MethodSource("tokenizers")
  void datasetIdsMatchHuggingFace(String name) throws IOException {
    BpeTokenizer tokenizer = TestFiles.tokenizer(name);
    Map<String, List<JsonNode>> sources = new HashMap<>();
    int checked = 0;
    try (BufferedReader in =
        new BufferedReader(
            new InputStreamReader(
                new GZIPInputStream(TestFiles.resource(name + "-ids.jsonl.gz")),
                StandardCharsets.UTF_8))) {
      for (String line = in.readLine(); line != null; line = in.readLine()) {
        JsonNode expected = JSON.readTree(line);
        String source = expected.get("source").asText();
        JsonNode row =
            sources
                .computeIfAbsent(source, TestFiles::datasetRows)
                .get(expected.get("row").asInt());
        String text = row.get(expected.get("field").asText()).asText();
        int[] ids = tokenizer.encode(text);
        if (!sha256(ids).equals(expected.get("sha256").asText())) {
          fail(mismatch(name, expected, text, ids));
        }
        checked++;
      }
    }
    assertEquals(2 * (1319 + 500), checked, "fixture rows checked");
  }

  private static String mismatch(String name, JsonNode expected, String text, int[] ids) {
    String where =
        expected.get("source").asText()
            + " row "
            + expected.get("row")
            + " ."
            + expected.get("field").asText();
    StringBuilder msg = new StringBuilder(name + ": ids differ from Hugging Face on " + where);
    msg.append("\ntext: ")
        .append(text)
        .append("\nactual (")
        .append(ids.length)
        .append("): ")
        .append(Arrays.toString(ids));
    msg.append("\nexpected count: ").append(expected.get("count"));
    if (expected.has("ids")) {
      int[] want = JSON.convertValue(expected.get("ids"), int[].class);
      int i = 0;
      while (i < Math.min(want.length, ids.length) && want[i] == ids[i]) {
        i++;
      }
      msg.append("\nexpected: ")
          .append(Arrays.toString(want))
          .append("\nfirst difference at index ")
          .append(i);
    }
    return msg.toString();
  }

  @ParameterizedTest
  @MethodSource("tokenizers")
  void edgeCasesEncodeAndDecodeLikeHuggingFace(String name) {
    BpeTokenizer tokenizer = TestFiles.tokenizer(name);
    JsonNode doc = TestFiles.resourceJson(name + "-cases.json");
    assertEquals(doc.get("vocabSize").asInt(), tokenizer.vocabSize(), "vocab size");
    for (JsonNode c : doc.get("cases")) {
      String text = c.get("text").asText();
      int[] want = JSON.convertValue(c.get("ids"), int[].class);
      assertArrayEquals(want, tokenizer.encode(text), () -> name + " encode " + quote(text));
      if (c.has("idsWithSpecial")) {
        assertArrayEquals(
            JSON.convertValue(c.get("idsWithSpecial"), int[].class),
            tokenizer.encode(text, true),
            () -> name + " encode with special tokens " + quote(text));
      }
      assertEquals(
          c.get("decoded").asText(),
          tokenizer.decode(want, false),
          () -> name + " decode " + quote(text));
      assertEquals(
          c.get("decodedSkipSpecial").asText(),
          tokenizer.decode(want, true),
          () -> name + " decode(skipSpecial) " + quote(text));
    }
    for (JsonNode d : doc.get("decodeOnly")) {
      int[] ids = JSON.convertValue(d.get("ids"), int[].class);
      assertEquals(
          d.get("decoded").asText(),
          tokenizer.decode(ids, false),
          () -> name + " decode " + Arrays.toString(ids));
    }
  }

  private static String quote(String s) {
    StringJoiner j = new StringJoiner("", "\"", "\"");
    s.codePoints()
        .forEach(
            cp ->
                j.add(
                    cp < 0x20 ? String.format("\\x%02x", cp) : new String(Character.toChars(cp))));
    return j.toString();
  }

  /** SHA-256 of the ids written as decimal and joined by ",", the fixture's row hash. */
  static String sha256(int[] ids) {
    StringJoiner joined = new StringJoiner(",");
    for (int id : ids) {
      joined.add(Integer.toString(id));
    }
    try {
      MessageDigest digest = MessageDigest.getInstance("SHA-256");
      return HexFormat.of()
          .formatHex(digest.digest(joined.toString().getBytes(StandardCharsets.UTF_8)));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }
}
