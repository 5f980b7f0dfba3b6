package dev.javelin.datasets.tokenizer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.javelin.datasets.DatasetException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A truncated tokenizer.json is one line naming the files, not a JSON parser's trace. */
class TruncatedTokenizerTest {
  @TempDir Path dir;

  @Test
  void truncatedJsonIsOneLineNamingTheFiles() throws Exception {
    Files.writeString(
        dir.resolve("tokenizer.json"), "{\"model\": {\"type\": \"BPE\", \"vocab\": {\"a\": 0");
    DatasetException e = assertThrows(DatasetException.class, () -> Tokenizers.load(dir));
    assertEquals(1, e.getMessage().lines().count(), e.getMessage());
    assertTrue(e.getMessage().contains(dir + " are not valid JSON"), e.getMessage());
    assertTrue(e.getMessage().contains("download it again"), e.getMessage());
  }
}
