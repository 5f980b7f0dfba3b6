package dev.javelin.datasets.tokenizer;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Loading rules of SentencePiece-style files on a tiny hand-made Llama 2 layout: byte fallback,
 * unknown chars, decoding, and the parts rejected by name. Parity with Hugging Face on real files
 * is {@link BpeParityTest}'s.
 */
class SentencePieceFileTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir Path dir;

  /**
   * Llama 2's layout: {@code <unk>}=0, {@code <s>}=1, {@code <0xNN>}=2+NN, then ▁=258, a=259,
   * b=260, ▁a=261 (merge ▁ a), ab=262 (merge a b).
   */
  private static ObjectNode tinyTokenizer() {
    ObjectNode root = JSON.createObjectNode();
    ObjectNode model =
        root.putObject("model")
            .put("type", "BPE")
            .put("unk_token", "<unk>")
            .put("fuse_unk", true)
            .put("byte_fallback", true);
    ObjectNode vocab = model.putObject("vocab").put("<unk>", 0).put("<s>", 1);
    for (int b = 0; b < 256; b++) {
      vocab.put(CharSymbols.byteToken(b), 2 + b);
    }
    vocab.put("\u2581", 258).put("a", 259).put("b", 260).put("\u2581a", 261).put("ab", 262);
    model.putArray("merges").add("\u2581 a").add("a b");
    ArrayNode added = root.putArray("added_tokens");
    added.addObject().put("id", 0).put("content", "<unk>").put("special", true);
    added.addObject().put("id", 1).put("content", "<s>").put("special", true);
    ArrayNode norms = root.putObject("normalizer").put("type", "Sequence").putArray("normalizers");
    norms.addObject().put("type", "Prepend").put("prepend", "\u2581");
    norms
        .addObject()
        .put("type", "Replace")
        .put("content", "\u2581")
        .putObject("pattern")
        .put("String", " ");
    root.putNull("pre_tokenizer");
    ArrayNode decoders = root.putObject("decoder").put("type", "Sequence").putArray("decoders");
    decoders
        .addObject()
        .put("type", "Replace")
        .put("content", " ")
        .putObject("pattern")
        .put("String", "\u2581");
    decoders.addObject().put("type", "ByteFallback");
    decoders.addObject().put("type", "Fuse");
    decoders.addObject().put("type", "Strip").put("content", " ").put("start", 1).put("stop", 0);
    return root;
  }

  private BpeTokenizer load(ObjectNode tokenizer) throws IOException {
    Files.writeString(dir.resolve("tokenizer.json"), JSON.writeValueAsString(tokenizer));
    return Tokenizers.load(dir);
  }

  @Test
  void unknownCharsFallBackToBytesAndDecodeBack() throws IOException {
    BpeTokenizer t = load(tinyTokenizer());
    // "▁ab▁é": ▁a merges first (rank 0), then é's bytes C3 A9 as <0xC3> <0xA9>
    assertArrayEquals(new int[] {261, 260, 258, 2 + 0xC3, 2 + 0xA9}, t.encode("ab é"));
    assertEquals("ab é", t.decode(t.encode("ab é"), false));
    assertEquals("\uFFFD\uFFFD", t.decode(new int[] {2 + 0xC3, 2 + 0xC3}, false));
  }

  @Test
  void withoutByteFallbackUnknownCharsFuseIntoOneUnk() throws IOException {
    ObjectNode tokenizer = tinyTokenizer();
    ((ObjectNode) tokenizer.path("model")).put("byte_fallback", false);
    assertArrayEquals(new int[] {261, 0, 260}, load(tokenizer).encode("aéèb"));
    ((ObjectNode) tokenizer.path("model")).put("fuse_unk", false);
    assertArrayEquals(new int[] {261, 0, 0, 260}, load(tokenizer).encode("aéèb"));
  }

  @Test
  void literalSplitEndsEachPieceWithTheDelimiter() {
    LiteralSplit split = new LiteralSplit("\u2581");
    String s = "a\u2581\u2581bc\u2581";
    assertEquals(2, split.end(s, 0));
    assertEquals(3, split.end(s, 2));
    assertEquals(6, split.end(s, 3));
    assertEquals(1, split.end("x", 0));
  }

  @Test
  void untrustedIdsOutsideTheVocabularyAreSkippedNotIndexed() throws IOException {
    BpeTokenizer t = load(tinyTokenizer());
    assertEquals(263, t.vocabSize());
    assertEquals(
        "a", t.decode(new int[] {-1, 263, Integer.MAX_VALUE, 261, Integer.MIN_VALUE}, false));
  }

  @Test
  void unsupportedPartsAreRejectedByPathAndType() {
    assertRejected(
        r ->
            ((ObjectNode) r.path("normalizer").path("normalizers").get(1).path("pattern"))
                .remove("String"),
        "normalizer.normalizers[1].pattern");
    assertRejected(
        r -> r.putObject("pre_tokenizer").put("type", "Whitespace"),
        "pre_tokenizer.type 'Whitespace'");
    assertRejected(
        r ->
            r.putObject("pre_tokenizer")
                .put("type", "Metaspace")
                .put("replacement", "\u2581")
                .put("prepend_scheme", "sometimes"),
        "pre_tokenizer.prepend_scheme 'sometimes'");
    assertRejected(
        r ->
            r.putObject("pre_tokenizer")
                .put("type", "Split")
                .put("behavior", "Isolated")
                .putObject("pattern")
                .put("String", " "),
        "pre_tokenizer.behavior 'Isolated'");
    assertRejected(
        r -> ((ArrayNode) r.path("decoder").path("decoders")).addObject().put("type", "CTC"),
        "decoder.decoders[4].type 'CTC'");
    assertRejected(
        r -> ((ArrayNode) r.path("decoder").path("decoders")).addObject().put("type", "ByteLevel"),
        "decoder ByteLevel");
    assertRejected(
        r -> ((ObjectNode) r.path("decoder").path("decoders").get(3)).remove("start"),
        "decoder.decoders[3].start");
  }

  private void assertRejected(Consumer<ObjectNode> breakIt, String inMessage) {
    ObjectNode tokenizer = tinyTokenizer();
    breakIt.accept(tokenizer);
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> load(tokenizer));
    assertTrue(
        e.getMessage().contains(inMessage), () -> e.getMessage() + " should mention " + inMessage);
    assertTrue(e.getMessage().contains(dir.resolve("tokenizer.json").toString()), e.getMessage());
  }
}
