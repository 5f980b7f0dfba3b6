package dev.javelin.recipes.ray;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.logging.Logger;

/**
 * Removes the copy of Ray's native core worker (32 MB) that {@code Ray.init} extracts for a driver
 * into {@code /tmp/ray/<millis>/} and never deletes: once loaded, the mapped library no longer
 * needs its file, and without this every run left one behind. Only folders named by a time inside
 * this JVM's own {@code Ray.init} call are touched, and in them only the library and Ray's lock
 * file beside it.
 */
final class ExtractedLibraries {
  private static final Logger LOG = Logger.getLogger(ExtractedLibraries.class.getName());
  static final String LIBRARY = "libcore_worker_library_java.so";
  private static final List<String> EXTRACTED = List.of(LIBRARY, LIBRARY + ".tmp", "file_lock");

  private ExtractedLibraries() {}

  /**
   * Deletes what a driver's {@code Ray.init} between {@code fromMillis} and {@code toMillis} left.
   */
  static int removeUnder(Path root, long fromMillis, long toMillis) {
    int removed = 0;
    if (!Files.isDirectory(root)) {
      return 0;
    }
    List<Path> dirs = new ArrayList<>();
    try (DirectoryStream<Path> s = Files.newDirectoryStream(root, "[0-9]*")) {
      for (Path d : s) {
        String name = d.getFileName().toString();
        if (name.matches("\\d{1,19}")) {
          long t = Long.parseLong(name);
          if (t >= fromMillis && t <= toMillis && Files.isDirectory(d)) {
            dirs.add(d);
          }
        }
      }
    } catch (IOException e) {
      LOG.fine(() -> "cannot list " + root + ": " + e);
      return 0;
    }
    for (Path d : dirs) {
      try {
        for (String f : EXTRACTED) {
          removed += Files.deleteIfExists(d.resolve(f)) ? 1 : 0;
        }
        try (DirectoryStream<Path> left = Files.newDirectoryStream(d)) {
          if (!left.iterator().hasNext()) {
            Files.delete(d);
          }
        }
      } catch (IOException e) {
        LOG.fine(() -> "cannot clean " + d + ": " + e);
      }
    }
    return removed;
  }
}
