package dev.javelin.datasets.tokenizer;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A Hugging Face {@code tokenizer.json} holding a BPE model, byte-level (GPT-2/SmolLM2, Qwen2/3,
 * Llama 3) or SentencePiece-style (Llama 2, Mistral, Gemma): the model, its added tokens and the
 * {@link Pipeline} around it. Anything Javelin does not run is rejected with an error naming the
 * field, rather than silently tokenizing differently.
 *
 * @param model the BPE model
 * @param addedTokens tokens matched before pre-tokenizing
 * @param pipeline normalizers, pre-tokenizer, post-processor template
 * @param vocabSize one past the largest id
 * @param raw the file as read, for writing it back out
 */
record TokenizerFile(
    BpeModel model,
    List<AddedToken> addedTokens,
    Pipeline pipeline,
    int vocabSize,
    TokenizerJsonReader.Raw raw) {
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
    require(
        "BPE".equals(model.path("type").asText()),
        "model.type '" + model.path("type").asText() + "' is not supported (only BPE)");
    requireEmpty(model, "continuing_subword_prefix");
    requireEmpty(model, "end_of_word_suffix");
    require(
        model.path("dropout").isNull() || model.path("dropout").isMissingNode(),
        "model.dropout is not supported");
    Pipeline pipeline = Pipeline.parse(root);
    boolean byteFallback = model.path("byte_fallback").asBoolean(false);
    require(
        !(byteFallback && pipeline.byteLevel()),
        "model.byte_fallback=true is not supported with the ByteLevel pre-tokenizer");
    Map<String, Integer> vocab = raw.vocab();
    List<AddedToken> added = readAdded(Pipeline.section(root, "added_tokens"));
    int vocabSize = vocab.values().stream().mapToInt(i -> i + 1).max().orElse(0);
    for (AddedToken token : added) {
      vocabSize = Math.max(vocabSize, token.id() + 1);
    }
    String[] tokens = new String[vocabSize];
    vocab.forEach((token, id) -> tokens[id] = token);
    PairRanks merges = resolveMerges(raw.merges(), vocab);
    BpeModel bpe =
        new BpeModel(
            vocab,
            tokens,
            merges,
            new BpeModel.Options(
                model.path("ignore_merges").asBoolean(false),
                unkId(model, vocab),
                model.path("fuse_unk").asBoolean(false),
                pipeline.byteLevel(),
                byteFallback));
    for (int id : concat(pipeline.prefix(), pipeline.suffix())) {
      require(id < vocabSize, "post_processor uses id " + id + ", outside the vocabulary");
    }
    return new TokenizerFile(bpe, added, pipeline, vocabSize, raw);
  }

  private static int[] concat(int[] a, int[] b) {
    int[] out = java.util.Arrays.copyOf(a, a.length + b.length);
    System.arraycopy(b, 0, out, a.length, b.length);
    return out;
  }

  private static int unkId(JsonNode model, Map<String, Integer> vocab) {
    JsonNode unk = model.path("unk_token");
    if (unk.isMissingNode() || unk.isNull()) {
      return -1;
    }
    Integer id = vocab.get(unk.asText());
    require(id != null, "model.unk_token '" + unk.asText() + "' is not in model.vocab");
    return id;
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
