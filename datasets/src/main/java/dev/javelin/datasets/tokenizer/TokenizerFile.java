package dev.javelin.datasets.tokenizer;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The parts of a Hugging Face {@code tokenizer.json} that Javelin runs: a byte-level BPE model,
 * added tokens, an optional NFC normalizer and the Qwen/Llama 3 Split pre-tokenizer. Anything else
 * is rejected with an error naming the field, rather than silently tokenizing differently.
 *
 * @param model the BPE model
 * @param addedTokens tokens matched before pre-tokenizing
 * @param nfc whether text is NFC-normalized first
 * @param split the pre-tokenizer scanner
 * @param vocabSize one past the largest id
 */
record TokenizerFile(
    BpeModel model, List<AddedToken> addedTokens, boolean nfc, SplitPattern split, int vocabSize) {
  private static final long MAX_FILE_BYTES = 512L << 20;
  private static final int MAX_ADDED = 100_000;

  TokenizerFile {
    addedTokens = List.copyOf(addedTokens);
  }

  /** Reads and validates {@code path}; errors name the file and the offending field. */
  static TokenizerFile read(Path path) throws IOException {
    long size = Files.size(path);
    if (size > MAX_FILE_BYTES) {
      throw new IllegalArgumentException(path + ": " + size + " bytes exceeds the 512 MiB limit");
    }
    try {
      return parse(TokenizerJsonReader.read(path));
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(path + ": " + e.getMessage(), e);
    }
  }

  static TokenizerFile parse(TokenizerJsonReader.Raw raw) {
    JsonNode model = raw.modelOptions();
    Map<String, JsonNode> root = raw.sections();
    require("BPE".equals(model.path("type").asText()), "model.type must be BPE");
    requireEmpty(model, "continuing_subword_prefix");
    requireEmpty(model, "end_of_word_suffix");
    require(
        model.path("dropout").isNull() || model.path("dropout").isMissingNode(),
        "model.dropout is not supported");
    require(
        !model.path("byte_fallback").asBoolean(false), "model.byte_fallback=true is not supported");
    Map<String, Integer> vocab = raw.vocab();
    List<AddedToken> added = readAdded(section(root, "added_tokens"));
    int vocabSize = vocab.values().stream().mapToInt(i -> i + 1).max().orElse(0);
    for (AddedToken token : added) {
      vocabSize = Math.max(vocabSize, token.id() + 1);
    }
    String[] tokens = new String[vocabSize];
    vocab.forEach((token, id) -> tokens[id] = token);
    PairRanks merges = resolveMerges(raw.merges(), vocab);
    BpeModel bpe =
        new BpeModel(vocab, tokens, merges, model.path("ignore_merges").asBoolean(false));
    requireTypeIn(section(root, "decoder"), "decoder", false);
    requireTypeIn(section(root, "post_processor"), "post_processor", true);
    return new TokenizerFile(
        bpe,
        added,
        readNfc(section(root, "normalizer")),
        readSplit(section(root, "pre_tokenizer")),
        vocabSize);
  }

  private static List<AddedToken> readAdded(JsonNode node) {
    List<AddedToken> added = new ArrayList<>();
    if (node.isMissingNode() || node.isNull()) {
      return added;
    }
    require(
        node.isArray() && node.size() <= MAX_ADDED,
        "added_tokens must be an array <= " + MAX_ADDED);
    for (JsonNode t : node) {
      String where = "added_tokens[" + added.size() + "]";
      for (String flag : List.of("single_word", "lstrip", "rstrip")) {
        require(!t.path(flag).asBoolean(false), where + "." + flag + "=true is not supported");
      }
      require(t.path("id").canConvertToInt(), where + ".id must be an int");
      require(
          t.path("id").asInt() < TokenizerJsonReader.MAX_VOCAB,
          where + ".id must be < " + TokenizerJsonReader.MAX_VOCAB);
      require(t.path("content").isTextual(), where + ".content must be a string");
      added.add(
          new AddedToken(
              t.path("id").asInt(), t.path("content").asText(), t.path("special").asBoolean()));
    }
    return added;
  }

  private static PairRanks resolveMerges(List<String[]> pairs, Map<String, Integer> vocab) {
    int n = pairs.size();
    int[] lefts = new int[n];
    int[] rights = new int[n];
    int[] results = new int[n];
    for (int rank = 0; rank < n; rank++) {
      String[] pair = pairs.get(rank);
      lefts[rank] = idOf(vocab, pair[0], rank);
      rights[rank] = idOf(vocab, pair[1], rank);
      results[rank] = idOf(vocab, pair[0] + pair[1], rank);
    }
    return new PairRanks(lefts, rights, results);
  }

  private static int idOf(Map<String, Integer> vocab, String token, int rank) {
    Integer id = vocab.get(token);
    require(
        id != null, "model.merges[" + rank + "] uses '" + token + "', which is not in model.vocab");
    return id;
  }

  private static boolean readNfc(JsonNode node) {
    if (node.isMissingNode() || node.isNull()) {
      return false;
    }
    String type = node.path("type").asText();
    require(
        "NFC".equals(type), "normalizer.type '" + type + "' is not supported (only NFC or null)");
    return true;
  }

  private static SplitPattern readSplit(JsonNode node) {
    require("Sequence".equals(node.path("type").asText()), "pre_tokenizer must be a Sequence");
    JsonNode steps = node.path("pretokenizers");
    require(steps.size() == 2, "pre_tokenizer must be [Split, ByteLevel]");
    JsonNode split = steps.get(0);
    JsonNode byteLevel = steps.get(1);
    require("Split".equals(split.path("type").asText()), "pre_tokenizer[0] must be Split");
    require("Isolated".equals(split.path("behavior").asText()), "pre_tokenizer[0].behavior");
    require(!split.path("invert").asBoolean(false), "pre_tokenizer[0].invert=true");
    require(
        "ByteLevel".equals(byteLevel.path("type").asText()), "pre_tokenizer[1] must be ByteLevel");
    require(
        !byteLevel.path("add_prefix_space").asBoolean(), "pre_tokenizer[1].add_prefix_space=true");
    require(!byteLevel.path("use_regex").asBoolean(true), "pre_tokenizer[1].use_regex=true");
    String regex = split.path("pattern").path("Regex").asText();
    return SplitPattern.forRegex(regex)
        .orElseThrow(
            () ->
                new IllegalArgumentException(
                    "pre_tokenizer[0].pattern.Regex is not a supported pattern"
                        + " (Qwen2/Qwen3 or Llama 3): "
                        + regex));
  }

  private static JsonNode section(Map<String, JsonNode> root, String name) {
    JsonNode node = root.get(name);
    return node == null ? com.fasterxml.jackson.databind.node.MissingNode.getInstance() : node;
  }

  /** Only ByteLevel (ids unchanged) is run; TemplateProcessing would add BOS/EOS ids. */
  private static void requireTypeIn(JsonNode node, String field, boolean nullable) {
    boolean absent = node.isMissingNode() || node.isNull();
    String type = node.path("type").asText();
    require(
        absent ? nullable : "ByteLevel".equals(type),
        field + ".type '" + type + "' is not supported (only ByteLevel)");
  }

  private static void requireEmpty(JsonNode model, String field) {
    JsonNode v = model.path(field);
    require(
        v.isMissingNode() || v.isNull() || v.asText().isEmpty(),
        "model." + field + " is not supported");
  }

  private static void require(boolean ok, String message) {
    if (!ok) {
      throw new IllegalArgumentException("tokenizer.json: " + message);
    }
  }
}
