package dev.javelin.datasets;

import static org.junit.jupiter.api.Assertions.fail;

import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Locates the shared read-only datasets; a missing file fails the test with the path it expected.
 */
public final class SharedData {
  private SharedData() {}

  /** {@code ${javelin.root}/../shared/datasets/<relative>}, which must exist. */
  public static Path path(String relative) {
    String root = System.getProperty("javelin.root");
    if (root == null) {
      fail(
          "system property javelin.root is not set; run the tests through Maven (surefire sets it)");
    }
    Path path = Path.of(root).resolve("../shared/datasets").resolve(relative).normalize();
    if (!Files.isRegularFile(path)) {
      fail("shared dataset missing: " + path + " (see shared/datasets/README.md)");
    }
    return path;
  }
}
