package dev.javelin.datasets.tokenizer;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.javelin.datasets.ChatMessage;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Loading rules on a tiny hand-made tokenizer.json: what runs, and what is rejected by name. */
class TokenizerFileTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String QWEN_REGEX =
      "(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\\r\\n\\p{L}\\p{N}]?\\p{L}+|\\p{N}| ?[^\\s\\p{L}\\p{N}]+[\\r\\n]*"
          + "|\\s*[\\r\\n]+|\\s+(?!\\S)|\\s+";

  @TempDir Path dir;

  /** Byte b has id b; merges a+b → 256, ab+c → 257, Ġ+a → 258; "<|end|>" is special id 259. */
  private static ObjectNode tinyTokenizer() {
    ObjectNode root = JSON.createObjectNode();
    ObjectNode model = root.putObject("model").put("type", "BPE");
    ObjectNode vocab = model.putObject("vocab");
    for (int b = 0; b < 256; b++) {
      vocab.put(String.valueOf(ByteLevel.charOf(b)), b);
    }
    vocab.put("ab", 256).put("abc", 257).put("Ġa", 258);
    model.putArray("merges").add("a b").add("ab c").add("Ġ a");
    root.putArray("added_tokens")
        .addObject()
        .put("id", 259)
        .put("content", "<|end|>")
        .put("special", true);
    ObjectNode pre = root.putObject("pre_tokenizer").put("type", "Sequence");
    ArrayNode steps = pre.putArray("pretokenizers");
    steps
        .addObject()
        .put("type", "Split")
        .put("behavior", "Isolated")
        .put("invert", false)
        .putObject("pattern")
        .put("Regex", QWEN_REGEX);
    steps
        .addObject()
        .put("type", "ByteLevel")
        .put("add_prefix_space", false)
        .put("use_regex", false);
    root.putObject("decoder").put("type", "ByteLevel");
    return root;
  }

  private BpeTokenizer load(ObjectNode tokenizer, String config) throws IOException {
    Files.writeString(dir.resolve("tokenizer.json"), JSON.writeValueAsString(tokenizer));
    if (config != null) {
      Files.writeString(dir.resolve("tokenizer_config.json"), config);
    }
    return Tokenizers.load(dir);
  }

  @Test
  void mergesByRankAndMatchesAddedTokensFirst() throws IOException {
    BpeTokenizer t = load(tinyTokenizer(), "{\"eos_token\": \"<|end|>\"}");
    // "abc" merges fully; " abd": a+b (rank 0) beats Ġ+a (rank 2), leaving Ġ, ab, d.
    assertArrayEquals(new int[] {257, 32, 256, 100, 259}, t.encode("abc abd<|end|>"));
    assertEquals("abc abd<|end|>", t.decode(new int[] {257, 32, 256, 100, 259}, false));
    assertEquals("abc abd", t.decode(new int[] {257, 32, 256, 100, 259}, true));
    assertEquals(260, t.vocabSize());
    assertEquals(259, t.eosId().orElseThrow());
    assertEquals(259, t.padId().orElseThrow(), "pad falls back to eos");
    IllegalStateException noTemplate =
        assertThrows(
            IllegalStateException.class, () -> t.applyChatTemplate(java.util.List.of(), true));
    assertTrue(noTemplate.getMessage().contains("chat_template"), noTemplate.getMessage());
  }

  @Test
  void chatTemplateMayComeFromChatTemplateJinja() throws IOException {
    Files.writeString(
        dir.resolve("chat_template.jinja"),
        "{% for m in messages %}[{{ m.content }}]{% endfor %}\n");
    BpeTokenizer t = load(tinyTokenizer(), "{\"eos_token\": \"<|end|>\"}");
    assertEquals(
        "[a][b]",
        t.applyChatTemplate(java.util.List.of(ChatMessage.user("a"), ChatMessage.user("b")), true));
  }

  @Test
  void decodeSkipsUnknownIdsAndReplacesInvalidUtf8() throws IOException {
    BpeTokenizer t = load(tinyTokenizer(), null);
    assertEquals("a\uFFFDb", t.decode(new int[] {97, 0xC3, 98, 100_000, -1}, false));
  }

  @Test
  void unsupportedPartsAreRejectedByName() {
    assertRejected(
        r -> r.putObject("normalizer").put("type", "Lowercase"), "normalizer.type 'Lowercase'");
    assertRejected(
        r -> ((ArrayNode) r.path("model").path("merges")).add("a zz"), "model.merges[3]");
    assertRejected(
        r ->
            ((ObjectNode) r.path("pre_tokenizer").path("pretokenizers").get(0).path("pattern"))
                .put("Regex", "\\w+"),
        "pre_tokenizer.pretokenizers[0].pattern.Regex");
    assertRejected(r -> ((ObjectNode) r.path("added_tokens").get(0)).put("lstrip", true), "lstrip");
    assertRejected(
        r -> ((ObjectNode) r.path("model")).put("type", "WordPiece"), "model.type 'WordPiece'");
    assertRejected(
        r -> r.putObject("post_processor").put("type", "BertProcessing"),
        "post_processor.type 'BertProcessing'");
    assertRejected(
        r -> r.putObject("decoder").put("type", "WordPiece"), "decoder.type 'WordPiece'");
    assertRejected(
        r -> r.putObject("pre_tokenizer").put("type", "Whitespace"), "pre_tokenizer.type");
    assertRejected(
        r -> ((ObjectNode) r.path("model")).put("byte_fallback", true), "model.byte_fallback");
  }

  @Test
  void missingByteTokensAreDroppedOrBecomeUnkAsInHuggingFace() throws IOException {
    ObjectNode tokenizer = tinyTokenizer();
    ((ObjectNode) tokenizer.path("model").path("vocab")).remove("d");
    assertArrayEquals(new int[] {97, 99}, load(tokenizer, null).encode("adc"));
    ((ObjectNode) tokenizer.path("model")).put("unk_token", "A");
    assertArrayEquals(new int[] {97, 65, 65, 99}, load(tokenizer, null).encode("addc"));
    ((ObjectNode) tokenizer.path("model")).put("fuse_unk", true);
    assertArrayEquals(new int[] {97, 65, 99}, load(tokenizer, null).encode("addc"));
  }

  @Test
  void templateProcessingAddsBosWhenAskedFor() throws IOException {
    ObjectNode tokenizer = tinyTokenizer();
    ObjectNode post = tokenizer.putObject("post_processor").put("type", "TemplateProcessing");
    ArrayNode single = post.putArray("single");
    single.addObject().putObject("SpecialToken").put("id", "<|end|>").put("type_id", 0);
    single.addObject().putObject("Sequence").put("id", "A").put("type_id", 0);
    post.putObject("special_tokens").putObject("<|end|>").putArray("ids").add(259);
    BpeTokenizer t = load(tokenizer, null);
    assertArrayEquals(new int[] {259, 257}, t.encode("abc", true));
    assertArrayEquals(new int[] {257}, t.encode("abc"));
  }

  @Test
  void writtenFilesLoadBackToTheSameTokenizer() throws IOException {
    BpeTokenizer t =
        load(
            tinyTokenizer(),
            "{\"eos_token\": \"<|end|>\", \"chat_template\": \"[{{ messages[0].content }}]\"}");
    Path out = dir.resolve("written");
    Tokenizers.save(t, out, 4096);
    BpeTokenizer back = Tokenizers.load(out);
    assertArrayEquals(t.encode("abc abd<|end|>"), back.encode("abc abd<|end|>"));
    assertEquals(259, back.eosId().orElseThrow());
    assertEquals("[a]", back.applyChatTemplate(java.util.List.of(ChatMessage.user("a")), true));
    assertTrue(Files.readString(out.resolve("tokenizer_config.json")).contains("4096"));
  }

  private void assertRejected(Consumer<ObjectNode> breakIt, String inMessage) {
    ObjectNode tokenizer = tinyTokenizer();
    breakIt.accept(tokenizer);
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> load(tokenizer, null));
    assertTrue(
        e.getMessage().contains(inMessage), () -> e.getMessage() + " should mention " + inMessage);
    assertTrue(e.getMessage().contains("tokenizer.json"), e.getMessage());
  }

  @Test
  void missingFilesAndBadConfigAreClearErrors() throws IOException {
    IllegalArgumentException missing =
        assertThrows(IllegalArgumentException.class, () -> Tokenizers.load(dir.resolve("nope")));
    assertTrue(missing.getMessage().contains("no tokenizer.json"), missing.getMessage());
    IllegalArgumentException eos =
        assertThrows(
            IllegalArgumentException.class,
            () -> load(tinyTokenizer(), "{\"eos_token\": \"abd\"}"));
    assertTrue(eos.getMessage().contains("eos_token 'abd'"), eos.getMessage());
  }
}
