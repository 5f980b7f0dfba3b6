package dev.javelin.datasets.tokenizer;

import dev.javelin.datasets.DatasetException;
import dev.javelin.datasets.Tokenizer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

/** Creates tokenizers: Hugging Face files from disk, or the character tokenizer for tiny models. */
public final class Tokenizers {
  private static final CharTokenizer CHARACTER = new CharTokenizer();

  private Tokenizers() {}

  /**
   * Loads a BPE tokenizer (byte-level or SentencePiece-style) from a directory holding {@code
   * tokenizer.json} (and, optionally, {@code tokenizer_config.json} with eos/pad tokens and the
   * chat template), or from the path of a {@code tokenizer.json} whose config sits beside it.
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
    } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
      // A truncated or damaged download: one line naming the file, not a parser trace.
      com.fasterxml.jackson.core.JsonLocation at = e.getLocation();
      throw new DatasetException(
          "tokenizer files at "
              + json.getParent()
              + " are not valid JSON ("
              + e.getOriginalMessage().lines().findFirst().orElse("")
              + (at == null ? "" : ", line " + at.getLineNr() + " column " + at.getColumnNr())
              + "): the file is damaged or truncated; download it again",
          e);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read tokenizer files at " + json.getParent(), e);
    }
  }

  /**
   * Builds a byte-level BPE tokenizer from a GGUF file's metadata (the {@code tokenizer.ggml.*}
   * keys and {@code tokenizer.chat_template}), as a GGUF reader hands it over: String, Long for
   * every integer type, Double, Boolean, and {@code List<Object>} for arrays.
   *
   * @param source names the file in error messages
   * @throws IllegalArgumentException naming the key when a value is missing, mistyped or
   *     unsupported (only {@code tokenizer.ggml.model = "gpt2"} vocabularies and Gemma's {@code
   *     "llama"} ones are)
   */
  public static BpeTokenizer fromGgufMetadata(Map<String, Object> metadata, String source) {
    return GgufTokenizer.fromMetadata(metadata, source);
  }

  /**
   * Writes {@code tokenizer} as {@code tokenizer.json} and {@code tokenizer_config.json} (chat
   * template, bos/eos/pad/unk tokens, {@code modelMaxLength}) into {@code dir}, files that {@link
   * #load} and {@code transformers.AutoTokenizer.from_pretrained} read back as the same tokenizer.
   *
   * @throws UncheckedIOException when the files cannot be written
   */
  public static void save(BpeTokenizer tokenizer, Path dir, long modelMaxLength) {
    try {
      TokenizerWriter.write(tokenizer, dir, modelMaxLength);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write tokenizer files to " + dir, e);
    }
  }

  /** The character tokenizer for synthetic arithmetic tasks; see {@link CharTokenizer}. */
  public static Tokenizer character() {
    return CHARACTER;
  }
}
