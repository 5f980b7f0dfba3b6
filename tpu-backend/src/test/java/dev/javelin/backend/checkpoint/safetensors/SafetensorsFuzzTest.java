package dev.javelin.backend.checkpoint.safetensors;

import com.code_intelligence.jazzer.junit.FuzzTest;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Contract: any bytes either open and read as tensors, or fail with {@link SafetensorsException};
 * never another exception, and never an allocation the file's size does not back.
 */
class SafetensorsFuzzTest {
  @FuzzTest(maxDuration = "12s")
  void anyBytesOpenOrFailTyped(byte[] bytes) throws IOException {
    Path file = Files.createTempFile("fuzz", ".safetensors");
    try {
      Files.write(file, bytes);
      try (SafetensorsFile f = SafetensorsFile.open(file)) {
        for (String name : f.tensors().keySet()) {
          f.read(name);
        }
      } catch (SafetensorsException expected) {
        // the typed failure the contract allows
      }
    } finally {
      Files.deleteIfExists(file);
    }
  }
}
