package dev.javelin.datasets.load;

import dev.javelin.datasets.DatasetException;
import java.nio.file.Files;
import java.nio.file.Path;

/** Checks shared by the loaders. */
final class DatasetFiles {
  private DatasetFiles() {}

  /** Stops with a message naming the path when it is not a readable regular file. */
  static void requireReadable(Path path) {
    if (!Files.exists(path)) {
      throw new DatasetException(
          "dataset file not found: " + path.toAbsolutePath() + " (check the dataset path)");
    }
    if (!Files.isRegularFile(path) || !Files.isReadable(path)) {
      throw new DatasetException("dataset path is not a readable file: " + path.toAbsolutePath());
    }
  }
}
