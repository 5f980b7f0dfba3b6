package dev.javelin.datasets.tokenizer;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.javelin.datasets.ChatMessage;
import dev.javelin.datasets.DatasetException;
import dev.javelin.datasets.tokenizer.template.TemplateException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Timeout;

/**
 * Contract: any bytes as {@code tokenizer.json} and {@code tokenizer_config.json} (the input up to
 * its first NUL byte, and the rest) either load as a tokenizer that encodes, decodes and applies
 * its chat template, or fail with {@link IllegalArgumentException} (a bad field, named), {@link
 * DatasetException} (not JSON: a damaged or truncated file), {@link UncheckedIOException}
 * (unreadable) or {@link TemplateException} (a bad chat template); never another exception, never
 * more than 5 s on one input.
 */
class TokenizerFilesFuzzTest {
  private static final String TEXT = "Hello world 123 <|end|> ünïcödé\n\tx";

  @FuzzTest(maxDuration = "12s")
  @Timeout(5)
  void anyFilesLoadOrFailTyped(byte[] bytes) throws IOException {
    int nul = indexOfNul(bytes);
    Path dir = Files.createTempDirectory("fuzz-tokenizer");
    try {
      Files.write(dir.resolve("tokenizer.json"), Arrays.copyOfRange(bytes, 0, nul));
      if (nul < bytes.length) {
        Files.write(
            dir.resolve("tokenizer_config.json"), Arrays.copyOfRange(bytes, nul + 1, bytes.length));
      }
      BpeTokenizer t;
      try {
        t = Tokenizers.load(dir);
      } catch (IllegalArgumentException
          | UncheckedIOException
          | DatasetException
          | TemplateException expected) {
        return; // the typed failures the contract allows
      }
      t.decode(t.encode(TEXT), false);
      try {
        t.applyChatTemplate(List.of(ChatMessage.user(TEXT)), true);
      } catch (IllegalStateException | TemplateException noOrBadTemplate) {
        // no chat template, or one that fails on this conversation
      }
    } finally {
      for (String name : new String[] {"tokenizer.json", "tokenizer_config.json"}) {
        Files.deleteIfExists(dir.resolve(name));
      }
      Files.deleteIfExists(dir);
    }
  }

  private static int indexOfNul(byte[] bytes) {
    for (int i = 0; i < bytes.length; i++) {
      if (bytes[i] == 0) {
        return i;
      }
    }
    return bytes.length;
  }
}
