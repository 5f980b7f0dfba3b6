package dev.javelin.backend.checkpoint.safetensors;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.javelin.backend.Shape;
import dev.javelin.backend.Tensor;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

/**
 * Contract: any bytes as {@code model.safetensors.index.json}, next to two real shards, either read
 * as the tensors the {@code weight_map} names or fail with {@link SafetensorsException}; never
 * another exception, and never a shard outside the checkpoint directory.
 */
class HfIndexFuzzTest {
  private static final Path DIR = shardedCheckpoint();

  private static Path shardedCheckpoint() {
    try {
      Path dir = Files.createTempDirectory("fuzz-index");
      dir.toFile().deleteOnExit();
      Tensor.F32 small = new Tensor.F32(Shape.of(2, 2), new float[] {1, 2, 3, 4});
      SafetensorsWriter.write(
          dir.resolve("model-00001-of-00002.safetensors"),
          Map.of("a", small, "b", small),
          StorageType.F32,
          Map.of());
      SafetensorsWriter.write(
          dir.resolve("model-00002-of-00002.safetensors"),
          Map.of("c", small),
          StorageType.F32,
          Map.of());
      return dir;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @FuzzTest(maxDuration = "12s")
  void anyIndexReadsOrFailsTyped(byte[] index) throws IOException {
    Files.write(DIR.resolve(HfCheckpoint.INDEX_FILE), index);
    try {
      HfCheckpoint.read(DIR);
    } catch (SafetensorsException expected) {
      // the typed failure the contract allows
    }
  }
}
