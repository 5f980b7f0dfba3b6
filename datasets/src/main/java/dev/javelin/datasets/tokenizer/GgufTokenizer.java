package dev.javelin.datasets.tokenizer;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A byte-level BPE tokenizer from GGUF metadata ({@code tokenizer.ggml.*}): the metadata is turned
 * into the {@code tokenizer.json} layout Hugging Face uses for the same vocabulary and loaded by
 * the same code as a file, so both paths tokenize alike and the result can be written back out as
 * {@code tokenizer.json}. {@code tokenizer.ggml.pre} picks the split regex as llama.cpp does.
 * Gemma's SentencePiece vocabularies ({@code tokenizer.ggml.model} {@code llama}) go through {@link
 * GgufSentencePiece} to the same layout.
 */
final class GgufTokenizer {
  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
  private static final int CONTROL = 3;
  private static final int USER_DEFINED = 4;

  private GgufTokenizer() {}

  /** The pre-tokenizer llama.cpp runs for a {@code tokenizer.ggml.pre} value. */
  private enum Pre {
    GPT2,
    DIGITS_GPT2,
    LLAMA3,
    QWEN2;

    static Pre of(String pre) {
      return switch (pre) {
        case "gpt2" -> GPT2;
        case "smollm", "starcoder", "refact" -> DIGITS_GPT2;
        case "llama3", "llama-v3", "llama-bpe", "falcon3" -> LLAMA3;
        case "qwen2", "deepseek-r1-qwen" -> QWEN2;
        default ->
            throw new IllegalArgumentException(
                "tokenizer.ggml.pre '"
                    + pre
                    + "' is not supported (supported: gpt2, smollm, starcoder, refact, llama3,"
                    + " llama-v3, llama-bpe, falcon3, qwen2, deepseek-r1-qwen)");
      };
    }
  }

  /**
   * Builds the tokenizer; {@code source} (e.g. the GGUF file name) prefixes error messages.
   *
   * @throws IllegalArgumentException naming the metadata key when a value is missing, mistyped or
   *     unsupported
   */
  static BpeTokenizer fromMetadata(Map<String, Object> metadata, String source) {
    try {
      GgufMetadata md = new GgufMetadata(metadata);
      String model = md.string("tokenizer.ggml.model");
      String arch = md.optionalString("general.architecture").orElse("");
      if ("llama".equals(model) && arch.startsWith("gemma")) {
        List<String> stored = md.strings("tokenizer.ggml.tokens");
        TokenizerJsonReader.Raw raw = GgufSentencePiece.raw(md, stored);
        return new BpeTokenizer(TokenizerFile.parse(raw), config(md, stored));
      }
      if (!"gpt2".equals(model)) {
        throw new IllegalArgumentException(
            "tokenizer.ggml.model '"
                + model
                + "' is not supported (only 'gpt2', byte-level BPE, and Gemma's SentencePiece"
                + " 'llama'; general.architecture is '"
                + arch
                + "')");
      }
      Pre pre = Pre.of(md.optionalString("tokenizer.ggml.pre").orElse("gpt2"));
      List<String> tokens = spelled(md.strings("tokenizer.ggml.tokens"));
      TokenizerJsonReader.Raw raw = raw(md, pre, tokens);
      return new BpeTokenizer(TokenizerFile.parse(raw), config(md, tokens));
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(source + ": " + e.getMessage(), e);
    }
  }

  /** Tokens outside the byte alphabet are spelled by their UTF-8 bytes, as transformers does. */
  private static List<String> spelled(List<String> tokens) {
    List<String> out = new ArrayList<>(tokens.size());
    for (String token : tokens) {
      boolean inAlphabet = token.chars().allMatch(c -> ByteLevel.byteOf((char) c) >= 0);
      if (inAlphabet) {
        out.add(token);
      } else {
        byte[] utf8 = token.getBytes(StandardCharsets.UTF_8);
        out.add(ByteLevel.toAlphabet(utf8, 0, utf8.length));
      }
    }
    return out;
  }

  private static TokenizerJsonReader.Raw raw(GgufMetadata md, Pre pre, List<String> tokens) {
    Map<String, Integer> vocab = new HashMap<>(tokens.size() * 2);
    for (int id = 0; id < tokens.size(); id++) {
      vocab.put(tokens.get(id), id);
    }
    List<String[]> merges = new ArrayList<>();
    List<String> mergeText = md.strings("tokenizer.ggml.merges");
    for (int i = 0; i < mergeText.size(); i++) {
      String[] pair = mergeText.get(i).split(" ", -1);
      if (pair.length != 2) {
        throw new IllegalArgumentException("tokenizer.ggml.merges[" + i + "] must be 'left right'");
      }
      merges.add(pair);
    }
    Map<String, JsonNode> sections = new LinkedHashMap<>();
    sections.put("added_tokens", addedTokens(md, tokens));
    sections.put("normalizer", NODES.nullNode());
    boolean prefixSpace = md.optionalBool("tokenizer.ggml.add_space_prefix").orElse(false);
    sections.put("pre_tokenizer", preTokenizer(pre, prefixSpace));
    sections.put("post_processor", postProcessor(md, tokens));
    sections.put("decoder", byteLevel(true, true));
    ObjectNode options = NODES.objectNode().put("type", "BPE");
    options.putNull("dropout");
    options.putNull("unk_token");
    options.put("continuing_subword_prefix", "").put("end_of_word_suffix", "");
    options.put("fuse_unk", false).put("byte_fallback", false);
    options.put("ignore_merges", pre == Pre.LLAMA3); // llama.cpp and Llama 3's tokenizer.json
    return new TokenizerJsonReader.Raw(sections, options, vocab, merges);
  }

  /** Control tokens (type 3) as special added tokens, user-defined ones (4) as plain ones. */
  private static ArrayNode addedTokens(GgufMetadata md, List<String> tokens) {
    ArrayNode added = NODES.arrayNode();
    List<Long> types = md.optionalLongs("tokenizer.ggml.token_type", tokens.size());
    for (int id = 0; id < types.size(); id++) {
      int type = types.get(id).intValue();
      if (type == CONTROL || type == USER_DEFINED) {
        ObjectNode t = added.addObject().put("id", id).put("content", tokens.get(id));
        t.put("single_word", false).put("lstrip", false).put("rstrip", false);
        t.put("normalized", false).put("special", type == CONTROL);
      }
    }
    return added;
  }

  private static JsonNode preTokenizer(Pre pre, boolean prefixSpace) {
    if (prefixSpace && pre != Pre.GPT2) {
      throw new IllegalArgumentException(
          "tokenizer.ggml.add_space_prefix=true is only supported with tokenizer.ggml.pre 'gpt2'");
    }
    ObjectNode seq = NODES.objectNode().put("type", "Sequence");
    ArrayNode steps = seq.putArray("pretokenizers");
    switch (pre) {
      case GPT2 -> {
        return byteLevel(prefixSpace, true);
      }
      case DIGITS_GPT2 -> {
        steps.addObject().put("type", "Digits").put("individual_digits", true);
        steps.add(byteLevel(false, true));
      }
      case LLAMA3, QWEN2 -> {
        ObjectNode split = steps.addObject().put("type", "Split");
        split
            .putObject("pattern")
            .put("Regex", pre == Pre.LLAMA3 ? SplitPattern.LLAMA3 : SplitPattern.QWEN);
        split.put("behavior", "Isolated").put("invert", false);
        steps.add(byteLevel(false, false));
      }
    }
    return seq;
  }

  private static ObjectNode byteLevel(boolean prefixSpace, boolean useRegex) {
    return NODES
        .objectNode()
        .put("type", "ByteLevel")
        .put("add_prefix_space", prefixSpace)
        .put("trim_offsets", true)
        .put("use_regex", useRegex);
  }

  /**
   * {@code add_bos_token}/{@code add_eos_token} as a TemplateProcessing, as Hugging Face writes.
   */
  static JsonNode postProcessor(GgufMetadata md, List<String> tokens) {
    Optional<String> bos = special(md, "tokenizer.ggml.add_bos_token", "bos_token_id", tokens);
    Optional<String> eos = special(md, "tokenizer.ggml.add_eos_token", "eos_token_id", tokens);
    ObjectNode post = NODES.objectNode().put("type", "TemplateProcessing");
    ArrayNode single = post.putArray("single");
    ArrayNode pair = post.putArray("pair");
    ObjectNode specials = post.putObject("special_tokens");
    for (int seq = 0; seq < 2; seq++) {
      for (ArrayNode items : seq == 0 ? List.of(single, pair) : List.of(pair)) {
        bos.ifPresent(
            b -> items.addObject().putObject("SpecialToken").put("id", b).put("type_id", 0));
        items.addObject().putObject("Sequence").put("id", seq == 0 ? "A" : "B").put("type_id", seq);
        eos.ifPresent(
            e -> items.addObject().putObject("SpecialToken").put("id", e).put("type_id", 0));
      }
    }
    for (Optional<String> token : List.of(bos, eos)) {
      token.ifPresent(
          t -> {
            ObjectNode entry = specials.putObject(t).put("id", t);
            entry.putArray("ids").add(tokens.indexOf(t));
            entry.putArray("tokens").add(t);
          });
    }
    return post;
  }

  private static Optional<String> special(
      GgufMetadata md, String flag, String idKey, List<String> tokens) {
    if (!md.optionalBool(flag).orElse(false)) {
      return Optional.empty();
    }
    return Optional.of(
        tokens.get(
            md.tokenId("tokenizer.ggml." + idKey, tokens.size())
                .orElseThrow(
                    () ->
                        new IllegalArgumentException(
                            flag + " is set but tokenizer.ggml." + idKey + " is missing"))));
  }

  private static TokenizerConfig config(GgufMetadata md, List<String> tokens) {
    Map<String, String> special = new LinkedHashMap<>();
    String[][] keys = {
      {"bos_token", "bos_token_id"}, {"eos_token", "eos_token_id"},
      {"pad_token", "padding_token_id"}, {"unk_token", "unknown_token_id"}
    };
    for (String[] key : keys) {
      md.tokenId("tokenizer.ggml." + key[1], tokens.size())
          .ifPresent(id -> special.put(key[0], tokens.get(id)));
    }
    return new TokenizerConfig(md.optionalString("tokenizer.chat_template"), special);
  }
}
