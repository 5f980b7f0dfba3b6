package dev.javelin.trainer.engine;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.javelin.trainer.CheckpointManifest;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Contract: any bytes as a checkpoint's metadata ({@code checkpoint_manifest.json} and {@code
 * trainer_state.json}) either read or fail with {@link IllegalArgumentException} naming the file;
 * checking a checkpoint against any manifest returns a verdict and never throws, and never reads a
 * file outside the checkpoint directory.
 */
class CheckpointMetadataFuzzTest {
  private static final Path DIR = checkpoint();

  private static Path checkpoint() {
    try {
      Path dir = Files.createTempDirectory("fuzz-checkpoint");
      dir.toFile().deleteOnExit();
      Files.writeString(dir.resolve("model.safetensors"), "0123456789");
      return dir;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @FuzzTest(maxDuration = "12s")
  void anyMetadataReadsOrFailsTyped(byte[] bytes) throws IOException {
    try {
      CheckpointManifest.parse(bytes, "fuzz");
    } catch (IllegalArgumentException expected) {
      // typed
    }
    Files.write(DIR.resolve(CheckpointManifest.FILE), bytes);
    CheckpointManifest.problem(DIR);
    Path state = DIR.resolve(CheckpointFiles.STATE);
    Files.write(state, bytes);
    try {
      CheckpointFiles.readState(state);
    } catch (IllegalArgumentException expected) {
      // typed
    }
  }
}
