package dev.javelin.trainer.engine;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What fuzzing the checkpoint metadata readers found. */
class CheckpointMetadataFindingsTest {
  @TempDir Path dir;

  /**
   * Found by CheckpointMetadataFuzzTest: bytes that Jackson guesses to be UTF-32 failed with a
   * CharConversionException, reported as an unreadable file instead of a malformed one.
   */
  @Test
  void aStateFileInAnImpossibleEncodingIsMalformedNotUnreadable() throws IOException {
    Path state = dir.resolve(CheckpointFiles.STATE);
    byte[] bytes = new byte[128];
    bytes[125] = 0x7a;
    bytes[126] = 0x0a;
    bytes[127] = 0x20;
    Files.write(state, bytes);
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> CheckpointFiles.readState(state));
    assertTrue(e.getMessage().startsWith(state + " is not valid JSON"), e.getMessage());
    assertTrue(e.getMessage().lines().count() == 1, e.getMessage());
  }
}
