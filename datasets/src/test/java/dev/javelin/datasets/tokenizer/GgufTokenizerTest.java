package dev.javelin.datasets.tokenizer;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.javelin.datasets.ChatMessage;
import java.io.IOException;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The GGUF-metadata tokenizer on SmolLM2's real metadata: special ids, the llama.cpp split, errors
 * by key, and tokenizer.json written from it loading back token-exactly. (Id parity with Hugging
 * Face on the datasets is in {@link BpeParityTest}, name "smollm2-gguf".)
 */
class GgufTokenizerTest {
  @TempDir Path dir;

  @Test
  void specialTokensAndTemplateComeFromTheMetadata() {
    BpeTokenizer t = TestFiles.tokenizer("smollm2-gguf");
    assertEquals(49152, t.vocabSize());
    assertEquals(2, t.eosId().orElseThrow(), "<|im_end|>");
    assertEquals(2, t.padId().orElseThrow());
    assertArrayEquals(new int[] {33, 34, 35}, t.encode("123"));
    assertArrayEquals(t.encode("x"), t.encode("x", true), "add_bos_token is false");
    String prompt = t.applyChatTemplate(List.of(ChatMessage.user("hi")), true);
    assertTrue(prompt.endsWith("<|im_start|>assistant\n"), prompt);
  }

  @Test
  void writtenTokenizerJsonLoadsBackTokenExactly() throws IOException {
    BpeTokenizer t = TestFiles.tokenizer("smollm2-gguf");
    Tokenizers.save(t, dir, 8192);
    BpeTokenizer back = Tokenizers.load(dir);
    for (var row : TestFiles.datasetRows("math500/test.jsonl")) {
      String text = row.get("solution").asText();
      assertArrayEquals(t.encode(text), back.encode(text), text);
    }
    assertEquals(t.eosId(), back.eosId());
    List<ChatMessage> chat = List.of(ChatMessage.system("s"), ChatMessage.user("u"));
    assertEquals(t.applyChatTemplate(chat, true), back.applyChatTemplate(chat, true));
  }

  @Test
  void badMetadataIsRejectedByKey() {
    assertRejected(m -> m.put("tokenizer.ggml.model", "llama"), "tokenizer.ggml.model 'llama'");
    assertRejected(m -> m.put("tokenizer.ggml.pre", "default"), "tokenizer.ggml.pre 'default'");
    assertRejected(m -> m.remove("tokenizer.ggml.tokens"), "tokenizer.ggml.tokens is missing");
    assertRejected(m -> m.put("tokenizer.ggml.eos_token_id", 1L << 40), "eos_token_id");
    assertRejected(m -> m.put("tokenizer.ggml.bos_token_id", "1"), "bos_token_id must be a Long");
    assertRejected(m -> m.put("tokenizer.ggml.token_type", List.of(1L)), "token_type has 1");
    assertRejected(m -> m.put("tokenizer.ggml.merges", List.of("abc")), "merges[0]");
  }

  private static void assertRejected(Consumer<Map<String, Object>> breakIt, String inMessage) {
    Map<String, Object> metadata = new HashMap<>(TestFiles.ggufMetadata());
    breakIt.accept(metadata);
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () -> Tokenizers.fromGgufMetadata(metadata, "model.gguf"));
    assertTrue(
        e.getMessage().contains(inMessage) && e.getMessage().startsWith("model.gguf: "),
        () -> e.getMessage() + " should mention " + inMessage);
  }
}
