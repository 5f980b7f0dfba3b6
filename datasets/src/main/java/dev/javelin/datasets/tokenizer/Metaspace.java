package dev.javelin.datasets.tokenizer;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Locale;

/**
 * SentencePiece's {@code Metaspace} pre-tokenizer: spaces become the replacement char ("▁"), a
 * replacement is put before the text by the prepend scheme, and with {@code split} the text is cut
 * before each replacement (Hugging Face's {@code MergedWithNext}).
 *
 * @param replacement the marker standing for a space, one code point
 * @param scheme when a marker is put before a text run that does not start with one
 * @param split whether each marker starts a new BPE word
 */
record Metaspace(String replacement, Prepend scheme, boolean split) implements Splitter {
  /** Hugging Face's {@code prepend_scheme}. */
  enum Prepend {
    /** Before every text run between added tokens. */
    ALWAYS,
    /** Only before the run at the very start of the input. */
    FIRST,
    /** Never. */
    NEVER
  }

  /**
   * The run {@code s} with spaces replaced and the marker prepended; {@code atStart}: s starts the
   * input.
   */
  String apply(String s, boolean atStart) {
    String out = s.replace(" ", replacement);
    boolean prepend =
        switch (scheme) {
          case ALWAYS -> true;
          case FIRST -> atStart;
          case NEVER -> false;
        };
    return prepend && !out.isEmpty() && !out.startsWith(replacement) ? replacement + out : out;
  }

  /** Pieces start at each marker; without {@code split} the run is one piece. */
  @Override
  public int end(String s, int pos) {
    if (!split) {
      return s.length();
    }
    int next =
        s.indexOf(replacement, s.startsWith(replacement, pos) ? pos + replacement.length() : pos);
    return next < 0 ? s.length() : next;
  }

  /**
   * Reads a Metaspace step at {@code path}; files from before {@code prepend_scheme} existed say
   * {@code add_prefix_space} instead.
   */
  static Metaspace parse(JsonNode node, String path) {
    String replacement = TextNormalizer.text(node, "replacement", path);
    if (replacement.codePointCount(0, replacement.length()) != 1) {
      throw new IllegalArgumentException(
          "tokenizer.json: "
              + path
              + ".replacement must be one character, got '"
              + replacement
              + "'");
    }
    JsonNode schemeNode = node.path("prepend_scheme");
    Prepend scheme;
    if (schemeNode.isMissingNode() || schemeNode.isNull()) {
      scheme = node.path("add_prefix_space").asBoolean(true) ? Prepend.ALWAYS : Prepend.NEVER;
    } else {
      String name = schemeNode.asText();
      scheme =
          switch (name) {
            case "always", "first", "never" -> Prepend.valueOf(name.toUpperCase(Locale.ROOT));
            default ->
                throw new IllegalArgumentException(
                    "tokenizer.json: "
                        + path
                        + ".prepend_scheme '"
                        + name
                        + "' is not supported (always, first or never)");
          };
    }
    return new Metaspace(replacement, scheme, node.path("split").asBoolean(true));
  }
}
