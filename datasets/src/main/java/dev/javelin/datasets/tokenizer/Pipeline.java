package dev.javelin.datasets.tokenizer;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The steps around the BPE model that a {@code tokenizer.json} names: normalizers, the
 * pre-tokenizer, the post-processor's single-sequence template and the decoder. Byte-level files (a
 * ByteLevel pre-tokenizer) and SentencePiece-style ones (Metaspace or no pre-tokenizer) are run.
 * Each section may be one step or a {@code Sequence}; a type Javelin does not run is rejected with
 * its JSON path rather than tokenizing differently.
 *
 * @param normalizers applied in order to each text run between added tokens
 * @param metaspace SentencePiece's space marking, applied after the normalizers, if the file has it
 * @param splitter the pre-tokenizer scanner
 * @param addPrefixSpace ByteLevel's {@code add_prefix_space}: a space is put before each text run
 *     that does not start with one
 * @param byteLevel whether the model's tokens are in the byte-level alphabet
 * @param prefix ids the post-processor puts before the text (e.g. BOS)
 * @param suffix ids it puts after the text (e.g. EOS)
 * @param decoder turns tokens back into text
 */
record Pipeline(
    List<TextNormalizer> normalizers,
    Optional<Metaspace> metaspace,
    Splitter splitter,
    boolean addPrefixSpace,
    boolean byteLevel,
    int[] prefix,
    int[] suffix,
    TokenDecoder decoder) {
  /** GPT-2's regex as a Split pattern, which some converted files spell out. */
  static final String GPT2_REGEX =
      "'s|'t|'re|'ve|'m|'ll|'d| ?\\p{L}+| ?\\p{N}+| ?[^\\s\\p{L}\\p{N}]+|\\s+(?!\\S)|\\s+";

  Pipeline {
    normalizers = List.copyOf(normalizers);
  }

  /** A run with no pre-tokenizer is one BPE word. */
  private static final Splitter WHOLE_RUN = (s, pos) -> s.length();

  /** Reads the sections of {@code root} (top-level fields of tokenizer.json). */
  static Pipeline parse(Map<String, JsonNode> root) {
    List<TextNormalizer> normalizers = new ArrayList<>();
    TextNormalizer.parse(section(root, "normalizer"), "normalizer", normalizers);
    JsonNode pre = section(root, "pre_tokenizer");
    List<int[]> template = new ArrayList<>();
    postProcessor(section(root, "post_processor"), "post_processor", template);
    int[] prefix = template.isEmpty() ? new int[0] : template.get(0);
    int[] suffix = template.isEmpty() ? new int[0] : template.get(1);
    List<JsonNode> steps = steps(pre);
    boolean byteLevel =
        steps.stream().anyMatch(step -> "ByteLevel".equals(step.path("type").asText()));
    // the pre-tokenizer first: it decides which decoders fit
    Optional<Metaspace> metaspace = Optional.empty();
    Splitter splitter = WHOLE_RUN;
    JsonNode step = byteLevel ? null : sentencePieceStep(steps);
    if (byteLevel) {
      splitter = splitter(pre);
    } else if (step != null) {
      String path =
          "Sequence".equals(pre.path("type").asText())
              ? "pre_tokenizer.pretokenizers[0]"
              : "pre_tokenizer";
      String type = step.path("type").asText();
      switch (type) {
        case "Metaspace" -> {
          metaspace = Optional.of(Metaspace.parse(step, path));
          splitter = metaspace.get();
        }
        case "Split" -> splitter = LiteralSplit.parse(step, path);
        default -> throw unsupported(path, type);
      }
    }
    TokenDecoder decoder = TokenDecoder.parse(section(root, "decoder"), byteLevel);
    return new Pipeline(
        normalizers,
        metaspace,
        splitter,
        byteLevel && byteLevelPrefixSpace(pre),
        byteLevel,
        prefix,
        suffix,
        decoder);
  }

  /**
   * The one step of a SentencePiece-style pre-tokenizer (alone or in a Sequence), or null when
   * there is none.
   */
  private static JsonNode sentencePieceStep(List<JsonNode> steps) {
    if (steps.isEmpty()) {
      return null;
    }
    require(
        steps.size() == 1,
        "pre_tokenizer.pretokenizers: only one step (Metaspace or Split) is supported without"
            + " ByteLevel");
    return steps.get(0);
  }

  /**
   * The supported pre-tokenizers: ByteLevel with its GPT-2 regex (alone, or after {@code
   * Digits(individual_digits)}), or a Split regex followed by ByteLevel without a regex.
   */
  private static Splitter splitter(JsonNode node) {
    List<JsonNode> steps = steps(node);
    String path =
        "Sequence".equals(node.path("type").asText()) ? "pre_tokenizer.pretokenizers" : "";
    require(!steps.isEmpty(), "pre_tokenizer is missing (a byte-level BPE needs ByteLevel)");
    JsonNode last = steps.get(steps.size() - 1);
    String lastPath = path.isEmpty() ? "pre_tokenizer" : path + "[" + (steps.size() - 1) + "]";
    require(
        "ByteLevel".equals(last.path("type").asText()),
        lastPath
            + ".type '"
            + last.path("type").asText()
            + "' is not supported here"
            + " (the last pre-tokenizer must be ByteLevel)");
    boolean regex = last.path("use_regex").asBoolean(true);
    if (steps.size() == 1) {
      require(regex, lastPath + ".use_regex=false alone would not split the text");
      return new Gpt2Split(false);
    }
    require(
        steps.size() == 2,
        "pre_tokenizer must be ByteLevel, [Digits, ByteLevel] or [Split, ByteLevel]");
    require(
        !last.path("add_prefix_space").asBoolean(false),
        lastPath + ".add_prefix_space=true after another pre-tokenizer is not supported");
    JsonNode first = steps.get(0);
    String firstPath = path + "[0]";
    String type = first.path("type").asText();
    return switch (type) {
      case "Digits" -> {
        require(
            first.path("individual_digits").asBoolean(false),
            firstPath + ".individual_digits=false is not supported");
        require(regex, lastPath + ".use_regex must be true after Digits");
        yield new Gpt2Split(true);
      }
      case "Split" -> {
        require(!regex, lastPath + ".use_regex must be false after Split");
        yield split(first, firstPath);
      }
      default -> throw unsupported(firstPath, type);
    };
  }

  private static Splitter split(JsonNode split, String path) {
    require(
        "Isolated".equals(split.path("behavior").asText()),
        path
            + ".behavior '"
            + split.path("behavior").asText()
            + "' is not supported (only Isolated)");
    require(!split.path("invert").asBoolean(false), path + ".invert=true is not supported");
    String regex = split.path("pattern").path("Regex").asText();
    if (GPT2_REGEX.equals(regex)) {
      return new Gpt2Split(false);
    }
    return SplitPattern.forRegex(regex)
        .orElseThrow(
            () ->
                new IllegalArgumentException(
                    "tokenizer.json: "
                        + path
                        + ".pattern.Regex is not a supported pattern"
                        + " (Qwen2/Qwen3, Llama 3 or GPT-2): "
                        + regex));
  }

  private static boolean byteLevelPrefixSpace(JsonNode node) {
    List<JsonNode> steps = steps(node);
    return steps.size() == 1 && steps.get(0).path("add_prefix_space").asBoolean(false);
  }

  private static List<JsonNode> steps(JsonNode node) {
    List<JsonNode> steps = new ArrayList<>();
    if (absent(node)) {
      return steps;
    }
    if ("Sequence".equals(node.path("type").asText())) {
      node.path("pretokenizers").forEach(steps::add);
    } else {
      steps.add(node);
    }
    return steps;
  }

  /** Collects {prefix, suffix} of a TemplateProcessing; ByteLevel leaves ids unchanged. */
  private static void postProcessor(JsonNode node, String path, List<int[]> template) {
    if (absent(node)) {
      return;
    }
    String type = node.path("type").asText();
    switch (type) {
      case "ByteLevel" -> {}
      case "TemplateProcessing" -> {
        require(template.isEmpty(), path + ": only one TemplateProcessing is supported");
        template.addAll(TemplateSpec.singleTemplate(node, path));
      }
      case "Sequence" -> {
        JsonNode steps = node.path("processors");
        for (int i = 0; i < steps.size(); i++) {
          postProcessor(steps.get(i), path + ".processors[" + i + "]", template);
        }
      }
      default -> throw unsupported(path, type);
    }
  }

  static JsonNode section(Map<String, JsonNode> root, String name) {
    JsonNode node = root.get(name);
    return node == null ? com.fasterxml.jackson.databind.node.MissingNode.getInstance() : node;
  }

  private static boolean absent(JsonNode node) {
    return node.isMissingNode() || node.isNull();
  }

  static IllegalArgumentException unsupported(String path, String type) {
    return new IllegalArgumentException(
        "tokenizer.json: " + path + ".type '" + type + "' is not supported");
  }

  private static void require(boolean ok, String message) {
    if (!ok) {
      throw new IllegalArgumentException("tokenizer.json: " + message);
    }
  }
}
