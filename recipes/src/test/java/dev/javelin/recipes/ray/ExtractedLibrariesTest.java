package dev.javelin.recipes.ray;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A driver's extracted native library is removed; nothing outside its Ray.init is touched. */
class ExtractedLibrariesTest {
  @TempDir Path root;

  private Path extracted(String millis, String... files) throws Exception {
    Path d = Files.createDirectories(root.resolve(millis));
    for (String f : files) {
      Files.writeString(d.resolve(f), "x");
    }
    return d;
  }

  @Test
  void removesOnlyThisInitsLibraryAndLock() throws Exception {
    Path ours = extracted("1000", ExtractedLibraries.LIBRARY, "file_lock");
    Path withLogs = extracted("1500", ExtractedLibraries.LIBRARY, "driver.log");
    Path other = extracted("5000", ExtractedLibraries.LIBRARY);
    Path session = extracted("session_2026", ExtractedLibraries.LIBRARY);
    assertEquals(3, ExtractedLibraries.removeUnder(root, 900, 2000));
    assertFalse(Files.exists(ours));
    assertFalse(Files.exists(withLogs.resolve(ExtractedLibraries.LIBRARY)));
    assertTrue(Files.exists(withLogs.resolve("driver.log")));
    assertTrue(Files.exists(other.resolve(ExtractedLibraries.LIBRARY)));
    assertTrue(Files.exists(session.resolve(ExtractedLibraries.LIBRARY)));
    assertEquals(0, ExtractedLibraries.removeUnder(root.resolve("missing"), 0, Long.MAX_VALUE));
  }
}
