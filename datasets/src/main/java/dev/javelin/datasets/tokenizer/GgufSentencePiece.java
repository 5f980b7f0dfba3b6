package dev.javelin.datasets.tokenizer;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Gemma's SentencePiece vocabulary in a GGUF ({@code tokenizer.ggml.model} {@code llama}) as the
 * BPE {@code tokenizer.json} layout transformers builds from the same file: spaces become "▁"
 * before a split after each of them, unknown characters fall back to {@code <0xNN>} byte tokens,
 * and the merges, which the file does not list, are every cut of a token into two vocabulary
 * tokens, ranked by the token's position in the file (its scores do not follow the merge order), a
 * token's own cuts longest left piece first. Tokens made only of whitespace that holds a space are
 * stored with real spaces and spelled with "▁" here, as the normalised text spells them.
 */
final class GgufSentencePiece {
  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
  private static final String SPACE = "\u2581";
  private static final int CONTROL = 3;
  private static final int USER_DEFINED = 4;

  private GgufSentencePiece() {}

  static TokenizerJsonReader.Raw raw(GgufMetadata md, List<String> stored) {
    if (md.optionalBool("tokenizer.ggml.add_space_prefix").orElse(false)) {
      throw new IllegalArgumentException(
          "tokenizer.ggml.add_space_prefix=true is not supported with tokenizer.ggml.model"
              + " 'llama' (only Gemma's SentencePiece vocabularies, which add no prefix space)");
    }
    List<String> tokens = new ArrayList<>(stored.size());
    for (String t : stored) {
      tokens.add(spaces(t) ? SPACE.repeat(t.codePointCount(0, t.length())) : t);
    }
    Map<String, Integer> vocab = new HashMap<>(tokens.size() * 2);
    for (int id = 0; id < tokens.size(); id++) {
      vocab.put(tokens.get(id), id);
    }
    Map<String, JsonNode> sections = new LinkedHashMap<>();
    sections.put("added_tokens", addedTokens(md, stored, tokens));
    ObjectNode normalizer = NODES.objectNode().put("type", "Replace");
    normalizer.putObject("pattern").put("String", " ");
    sections.put("normalizer", normalizer.put("content", SPACE));
    ObjectNode split = NODES.objectNode().put("type", "Split");
    split.putObject("pattern").put("String", " ");
    sections.put("pre_tokenizer", split.put("behavior", "MergedWithPrevious").put("invert", false));
    sections.put("post_processor", GgufTokenizer.postProcessor(md, tokens));
    ObjectNode decoder = NODES.objectNode().put("type", "Sequence");
    ArrayNode steps = decoder.putArray("decoders");
    ObjectNode replace = steps.addObject().put("type", "Replace");
    replace.putObject("pattern").put("String", SPACE);
    replace.put("content", " ");
    steps.addObject().put("type", "ByteFallback");
    steps.addObject().put("type", "Fuse");
    sections.put("decoder", decoder);
    ObjectNode options = NODES.objectNode().put("type", "BPE");
    options.putNull("dropout");
    md.tokenId("tokenizer.ggml.unknown_token_id", tokens.size())
        .ifPresentOrElse(
            id -> options.put("unk_token", tokens.get(id)), () -> options.putNull("unk_token"));
    options.put("continuing_subword_prefix", "").put("end_of_word_suffix", "");
    options.put("fuse_unk", true).put("byte_fallback", true).put("ignore_merges", false);
    return new TokenizerJsonReader.Raw(sections, options, vocab, merges(tokens, vocab));
  }

  /** Whitespace only, with at least one space (Python's {@code str.isspace} set, roughly). */
  private static boolean spaces(String t) {
    return t.indexOf(' ') >= 0
        && t.chars().allMatch(c -> Character.isWhitespace(c) || Character.isSpaceChar(c));
  }

  /** Every cut of every token into two tokens, by the token's position, longest left first. */
  private static List<String[]> merges(List<String> tokens, Map<String, Integer> vocab) {
    List<String[]> merges = new ArrayList<>();
    for (int id = 0; id < tokens.size(); id++) {
      String t = tokens.get(id);
      if (vocab.get(t) != id) {
        continue; // a repeated spelling is the id it last has, and ranks there
      }
      for (int cut = t.length() - 1; cut > 0; cut--) {
        if (Character.isLowSurrogate(t.charAt(cut))) {
          continue; // cut between code points only
        }
        String left = t.substring(0, cut);
        String right = t.substring(cut);
        if (vocab.containsKey(left) && vocab.containsKey(right)) {
          merges.add(new String[] {left, right});
        }
      }
    }
    return merges;
  }

  /**
   * Control tokens (type 3) as special added tokens, user-defined ones (4) as plain ones, except
   * those respelled with "▁": they match normalised text through the merges instead.
   */
  private static ArrayNode addedTokens(GgufMetadata md, List<String> stored, List<String> tokens) {
    ArrayNode added = NODES.arrayNode();
    List<Long> types = md.optionalLongs("tokenizer.ggml.token_type", tokens.size());
    for (int id = 0; id < types.size(); id++) {
      int type = types.get(id).intValue();
      boolean respelled = !stored.get(id).equals(tokens.get(id));
      if (type == CONTROL || (type == USER_DEFINED && !respelled)) {
        ObjectNode t = added.addObject().put("id", id).put("content", tokens.get(id));
        t.put("single_word", false).put("lstrip", false).put("rstrip", false);
        t.put("normalized", false).put("special", type == CONTROL);
      }
    }
    return added;
  }
}
