package dev.javelin.datasets.tokenizer;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;

/** tokenizer.json's {@code decoder}: turns the token strings of ids back into text. */
sealed interface TokenDecoder {
  String decode(List<String> tokens);

  /**
   * GPT-2's byte-level decoder: each token's chars map back to bytes (a token with chars outside
   * the alphabet, such as an added {@code <|im_end|>}, is its own UTF-8); invalid UTF-8 becomes
   * U+FFFD.
   */
  record ByteLevelDecoder() implements TokenDecoder {
    @Override
    public String decode(List<String> tokens) {
      ByteLevel.ByteSink sink = new ByteLevel.ByteSink();
      tokens.forEach(t -> ByteLevel.appendBytes(t, sink));
      return sink.toText();
    }
  }

  /** SentencePiece-style steps, run in order; what they leave is concatenated. */
  record Steps(List<DecodeStep> steps) implements TokenDecoder {
    public Steps {
      steps = List.copyOf(steps);
    }

    @Override
    public String decode(List<String> tokens) {
      List<String> out = tokens;
      for (DecodeStep step : steps) {
        out = step.apply(out);
      }
      return String.join("", out);
    }
  }

  /** No decoder in the file: Hugging Face joins the tokens with spaces. */
  record Joined() implements TokenDecoder {
    @Override
    public String decode(List<String> tokens) {
      return String.join(" ", tokens);
    }
  }

  /**
   * Reads {@code node}: ByteLevel (alone or in a Sequence of ByteLevel) for byte-level models,
   * otherwise a step or a Sequence of Replace, ByteFallback, Fuse, Strip and Metaspace. A
   * byte-level model without a decoder still decodes through its byte alphabet.
   */
  static TokenDecoder parse(JsonNode node, boolean byteLevelModel) {
    List<DecodeStep> steps = new ArrayList<>();
    int byteLevel = parseSteps(node, "decoder", steps);
    if (byteLevelModel) {
      if (!steps.isEmpty()) {
        throw new IllegalArgumentException(
            "tokenizer.json: decoder must be ByteLevel for a ByteLevel pre-tokenizer, not "
                + steps.get(0).getClass().getSimpleName());
      }
      return new ByteLevelDecoder();
    }
    if (byteLevel > 0) {
      throw new IllegalArgumentException(
          "tokenizer.json: decoder ByteLevel needs the ByteLevel pre-tokenizer");
    }
    return node.isMissingNode() || node.isNull() ? new Joined() : new Steps(steps);
  }

  /** Appends the steps at {@code path} to {@code out}; returns how many ByteLevel steps it saw. */
  private static int parseSteps(JsonNode node, String path, List<DecodeStep> out) {
    if (node.isMissingNode() || node.isNull()) {
      return 0;
    }
    String type = node.path("type").asText();
    switch (type) {
      case "ByteLevel" -> {
        return 1;
      }
      case "Sequence" -> {
        JsonNode steps = node.path("decoders");
        if (!steps.isArray()) {
          throw new IllegalArgumentException(
              "tokenizer.json: " + path + ".decoders must be an array");
        }
        int byteLevel = 0;
        for (int i = 0; i < steps.size(); i++) {
          byteLevel += parseSteps(steps.get(i), path + ".decoders[" + i + "]", out);
        }
        return byteLevel;
      }
      case "Replace" -> {
        TextNormalizer.Replace r = TextNormalizer.replace(node, path);
        out.add(new DecodeStep.Replace(r.pattern(), r.content()));
      }
      case "ByteFallback" -> out.add(new DecodeStep.ByteFallback());
      case "Fuse" -> out.add(new DecodeStep.Fuse());
      case "Strip" -> out.add(strip(node, path));
      case "Metaspace" -> out.add(new DecodeStep.MetaspaceDecode(Metaspace.parse(node, path)));
      default -> throw Pipeline.unsupported(path, type);
    }
    return 0;
  }

  private static DecodeStep strip(JsonNode node, String path) {
    String content = TextNormalizer.text(node, "content", path);
    if (content.codePointCount(0, content.length()) != 1) {
      throw new IllegalArgumentException(
          "tokenizer.json: " + path + ".content must be one character");
    }
    int start = node.path("start").asInt(-1);
    int stop = node.path("stop").asInt(-1);
    if (start < 0 || stop < 0) {
      throw new IllegalArgumentException(
          "tokenizer.json: " + path + ".start and .stop must be integers >= 0");
    }
    return new DecodeStep.Strip(content.codePointAt(0), start, stop);
  }
}
