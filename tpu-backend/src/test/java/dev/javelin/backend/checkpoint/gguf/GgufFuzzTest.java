package dev.javelin.backend.checkpoint.gguf;

import com.code_intelligence.jazzer.junit.FuzzTest;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Contract: any bytes either open as a GGUF file whose metadata, tensor infos, dequantised tensors
 * and model config can all be read, or fail with {@link GgufException}; never another exception,
 * and never an allocation that the file's size does not back.
 */
class GgufFuzzTest {
  @FuzzTest(maxDuration = "12s")
  void anyBytesOpenOrFailTyped(byte[] bytes) throws IOException {
    Path file = Files.createTempFile("fuzz", ".gguf");
    try {
      Files.write(file, bytes);
      try (GgufFile f = GgufFile.open(file)) {
        for (String name : f.tensors().keySet()) {
          f.readF32(name);
        }
        GgufModel.config(f);
      } catch (GgufException expected) {
        // the typed failure the contract allows
      }
    } finally {
      Files.deleteIfExists(file);
    }
  }
}
