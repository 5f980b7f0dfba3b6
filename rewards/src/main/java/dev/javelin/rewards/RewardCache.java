package dev.javelin.rewards;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Stream;

/**
 * Where compiled {@code .java} rewards are kept: one folder per source text (its SHA-256 and the
 * Java version) under the user's own cache directory ({@code $XDG_CACHE_HOME/javelin/rewards} or
 * {@code ~/.cache/javelin/rewards}, or {@code javelin.reward.cache} when set), created mode 700. A
 * finished entry lists the SHA-256 of every file javac wrote in {@value #MANIFEST}; an entry whose
 * files differ from that list (a swapped or added class) is deleted and compiled again, so what is
 * loaded is always what the source compiles to.
 */
final class RewardCache {
  static final String MANIFEST = ".complete";
  private static final String SOURCE_LINE = "source ";
  private final Path root;

  RewardCache(Path root) {
    this.root = root;
  }

  /** The cache of this user: the {@code javelin.reward.cache} property, else the XDG cache. */
  static RewardCache ofUser() {
    String set = System.getProperty("javelin.reward.cache");
    if (set != null && !set.isBlank()) {
      return new RewardCache(Path.of(set));
    }
    String xdg = System.getenv("XDG_CACHE_HOME");
    Path base =
        xdg != null && !xdg.isBlank()
            ? Path.of(xdg)
            : Path.of(System.getProperty("user.home"), ".cache");
    return new RewardCache(base.resolve("javelin").resolve("rewards"));
  }

  /** The hex SHA-256 of the source text and this Java's version: the entry's name. */
  static String key(byte[] source) {
    MessageDigest sha = sha256();
    sha.update(source);
    sha.update((byte) 0);
    sha.update(Runtime.version().toString().getBytes(StandardCharsets.UTF_8));
    return HexFormat.of().formatHex(sha.digest());
  }

  /** The entry folder for {@code key}, its parents created private to this user. */
  Path entry(String key) throws IOException {
    createPrivate(root);
    return root.resolve(key);
  }

  /** Whether {@code dir} holds a finished entry whose files all match its manifest. */
  static boolean verified(Path dir, String key) throws IOException {
    Path manifest = dir.resolve(MANIFEST);
    if (!Files.isRegularFile(manifest)) {
      return false;
    }
    List<String> lines = Files.readAllLines(manifest, StandardCharsets.UTF_8);
    if (lines.isEmpty() || !lines.get(0).equals(SOURCE_LINE + key)) {
      return false;
    }
    Map<String, String> want = new TreeMap<>();
    for (String line : lines.subList(1, lines.size())) {
      int space = line.indexOf(' ');
      if (space <= 0) {
        return false;
      }
      want.put(line.substring(space + 1), line.substring(0, space));
    }
    return want.equals(hashes(dir));
  }

  /** Records the files javac wrote into {@code dir} as a finished entry of {@code key}. */
  static void seal(Path dir, String key) throws IOException {
    StringBuilder b = new StringBuilder(SOURCE_LINE).append(key).append('\n');
    hashes(dir).forEach((file, hash) -> b.append(hash).append(' ').append(file).append('\n'));
    Files.writeString(dir.resolve(MANIFEST), b);
  }

  /** Empties {@code dir} (an entry that failed verification or an interrupted compile). */
  static void clear(Path dir) throws IOException {
    if (!Files.exists(dir)) {
      return;
    }
    try (Stream<Path> all = Files.walk(dir)) {
      for (Path p : all.sorted(Comparator.reverseOrder()).toList()) {
        if (!p.equals(dir)) {
          Files.delete(p);
        }
      }
    }
  }

  /** Each file under {@code dir} but the manifest, by relative path, with its hex SHA-256. */
  private static Map<String, String> hashes(Path dir) throws IOException {
    Map<String, String> out = new TreeMap<>();
    try (Stream<Path> all = Files.walk(dir)) {
      for (Path p : all.filter(Files::isRegularFile).toList()) {
        String rel = dir.relativize(p).toString().replace('\\', '/');
        if (!rel.equals(MANIFEST)) {
          out.put(rel, HexFormat.of().formatHex(sha256().digest(Files.readAllBytes(p))));
        }
      }
    }
    return out;
  }

  /** Creates {@code dir} (and missing parents) readable by this user only where POSIX allows. */
  static void createPrivate(Path dir) throws IOException {
    Files.createDirectories(dir);
    if (FileSystems.getDefault().supportedFileAttributeViews().contains("posix")) {
      Set<PosixFilePermission> mine = PosixFilePermissions.fromString("rwx------");
      try {
        Files.setPosixFilePermissions(dir, mine);
      } catch (UnsupportedOperationException e) {
        throw new UncheckedIOException(new IOException("cannot make " + dir + " private", e));
      }
    }
  }

  private static MessageDigest sha256() {
    try {
      return MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is part of every JDK", e);
    }
  }
}
