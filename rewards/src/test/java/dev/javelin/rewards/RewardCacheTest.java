package dev.javelin.rewards;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Compiled rewards live in the user's private cache and what is loaded matches the source. */
class RewardCacheTest {
  @TempDir Path tmp;

  private static double score(Path src) {
    RewardSpec spec = new RewardSpec(src.toString(), null, "com.example.LengthPenalty", Map.of());
    return RewardRegistry.forSpec(spec)
        .resolve(spec)
        .score(RewardInput.of("any", "abcd", "x"))
        .score();
  }

  @Test
  void entriesArePrivateKeyedBySourceAndATamperedClassIsRecompiled() throws IOException {
    Path src = Files.writeString(tmp.resolve("LengthPenalty.java"), RewardCodeTest.LENGTH_PENALTY);
    Path root = RewardCode.open(src.toString()).root();
    RewardCache user = RewardCache.ofUser();
    assertFalse(root.startsWith(Path.of(System.getProperty("java.io.tmpdir"))), root.toString());
    assertEquals(root, user.entry(RewardCache.key(Files.readAllBytes(src))));
    assertEquals("rwx------", PosixFilePermissions.toString(Files.getPosixFilePermissions(root)));
    assertEquals(
        "rwx------",
        PosixFilePermissions.toString(Files.getPosixFilePermissions(root.getParent())));
    assertEquals(-0.004, score(src), 1e-12);

    // Another source with the same class name: its class swapped into the first entry.
    Path other = tmp.resolve("other/LengthPenalty.java");
    Files.createDirectories(other.getParent());
    Files.writeString(
        other,
        RewardCodeTest.LENGTH_PENALTY.replace("-scale * in.response()", "1000.0 * in.response()"));
    Path swapped = RewardCode.open(other.toString()).root();
    Path cls = Path.of("com/example/LengthPenalty.class");
    Files.copy(swapped.resolve(cls), root.resolve(cls), StandardCopyOption.REPLACE_EXISTING);
    assertFalse(RewardCache.verified(root, RewardCache.key(Files.readAllBytes(src))));

    assertEquals(-0.004, score(src), 1e-12, "the swapped class ran instead of the source");
    assertTrue(RewardCache.verified(root, RewardCache.key(Files.readAllBytes(src))));

    // A class added beside the compiled ones is refused too.
    Files.writeString(root.resolve("com/example/Extra.class"), "x");
    assertFalse(RewardCache.verified(root, RewardCache.key(Files.readAllBytes(src))));
  }
}
