package dev.javelin.datasets.tokenizer;

import dev.javelin.datasets.Tokenizer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** Creates tokenizers: Hugging Face files from disk, or the character tokenizer for tiny models. */
public final class Tokenizers {
  private static final CharTokenizer CHARACTER = new CharTokenizer();

  private Tokenizers() {}

  /**
   * Loads a byte-level BPE tokenizer from a directory holding {@code tokenizer.json} (and,
   * optionally, {@code tokenizer_config.json} with eos/pad tokens and the chat template), or from
   * the path of a {@code tokenizer.json} whose config sits beside it.
   *
   * @throws IllegalArgumentException when a file is missing or holds something unsupported; the
   *     message names the file and field
   * @throws UncheckedIOException when a file cannot be read
   */
  public static BpeTokenizer load(Path dirOrTokenizerJson) {
    Path json =
        Files.isDirectory(dirOrTokenizerJson)
            ? dirOrTokenizerJson.resolve("tokenizer.json")
            : dirOrTokenizerJson;
    if (!Files.isRegularFile(json)) {
      throw new IllegalArgumentException(
          "no tokenizer.json at " + json + " (pass a directory holding it, or its path)");
    }
    Path config = json.resolveSibling("tokenizer_config.json");
    try {
      TokenizerFile file = TokenizerFile.read(json);
      TokenizerConfig cfg =
          Files.isRegularFile(config) ? TokenizerConfig.read(config) : TokenizerConfig.empty();
      Path jinja = json.resolveSibling("chat_template.jinja");
      if (cfg.chatTemplate().isEmpty()
          && Files.isRegularFile(jinja)) { // newer transformers save it apart
        cfg = cfg.withChatTemplate(Files.readString(jinja));
      }
      return new BpeTokenizer(file, cfg);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read tokenizer files at " + json.getParent(), e);
    }
  }

  /** The character tokenizer for synthetic arithmetic tasks; see {@link CharTokenizer}. */
  public static Tokenizer character() {
    return CHARACTER;
  }
}
