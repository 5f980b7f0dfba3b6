package dev.javelin.recipes.task;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.javelin.backend.checkpoint.gguf.GgufFile;
import dev.javelin.datasets.tokenizer.BpeTokenizer;
import dev.javelin.datasets.tokenizer.Tokenizers;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The tokenizer in the real Gemma 3 270M GGUF (SentencePiece, no merges listed) encodes and decodes
 * as transformers' tokenizer for the same file does: the token ids of the 12 prompts and the
 * decoded continuations of tpu-backend's parity fixture (tools/gemma3_parity.py). The build
 * installs the model (tools/setup/gemma3-270m.sh); a missing file fails the test.
 */
class Gemma3GgufTokenizerTest {
  private static BpeTokenizer tokenizer;
  private static JsonNode fixture;

  @BeforeAll
  static void load() throws IOException {
    Path root = Path.of(System.getProperty("javelin.root"));
    Path gguf = root.resolve(".venv/share/gemma3-270m/gemma-3-270m-q4_k_m.gguf");
    if (!Files.isRegularFile(gguf)) {
      fail(
          "Gemma 3 270M GGUF not found at "
              + gguf
              + "; install it with: tools/setup/gemma3-270m.sh");
    }
    long t0 = System.nanoTime();
    try (GgufFile f = GgufFile.open(gguf)) {
      tokenizer = Tokenizers.fromGgufMetadata(f.metadata(), gguf.toString());
    }
    System.out.printf("Gemma 3 GGUF tokenizer: %.2f s%n", (System.nanoTime() - t0) / 1e9);
    fixture =
        new ObjectMapper()
            .readTree(root.resolve("tpu-backend/src/test/resources/gemma3/parity.json").toFile());
  }

  @Test
  void encodesThePromptsAsTransformers() {
    for (JsonNode prompt : fixture.get("logits")) {
      String text = prompt.get("text").asText();
      assertArrayEquals(ints(prompt.get("tokens")), tokenizer.encode(text, true), text);
    }
  }

  /** GSM8K questions: digits, currency, punctuation and runs of two spaces. */
  @Test
  void encodesTheGsm8kPromptsAsTransformers() {
    for (JsonNode g : fixture.get("greedy")) {
      String text = g.get("prompt_text").asText();
      assertArrayEquals(ints(g.get("prompt")), tokenizer.encode(text, true), text);
    }
  }

  @Test
  void decodesTheContinuationsAsTransformers() {
    for (JsonNode g : fixture.get("greedy")) {
      int[] ids = ints(g.get("continuation"));
      assertEquals(g.get("text").asText(), tokenizer.decode(ids, false));
    }
  }

  private static int[] ints(JsonNode a) {
    int[] out = new int[a.size()];
    for (int i = 0; i < out.length; i++) {
      out[i] = a.get(i).asInt();
    }
    return out;
  }
}
