package dev.javelin.backend.xla;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.logging.Logger;

/**
 * Serialized executables keyed by a hash of the StableHLO text, the compile options and the
 * plugin's identity (platform name, platform version, PJRT API version), in memory and optionally
 * on disk, so that a second run loads instead of compiling. Disk writes are atomic (temp file +
 * move); an unreadable entry is a miss, never an error.
 */
final class CompileCache {
  private static final Logger LOG = Logger.getLogger(CompileCache.class.getName());

  /** Environment variable / system property naming the cache folder, or {@code off}. */
  static final String ENV = "JAVELIN_XLA_CACHE";

  static final String PROPERTY = "javelin.xla.cache";
  private static final long MEMORY_BYTES = 256L << 20;

  private static final ConcurrentHashMap<String, Object> ENTRY_LOCKS = new ConcurrentHashMap<>();

  private final Optional<Path> dir;
  private final String pluginId;
  private final LinkedHashMap<String, byte[]> memory = new LinkedHashMap<>(16, 0.75f, true);
  private long memoryBytes;
  private int hits;
  private int misses;

  CompileCache(Optional<Path> dir, String pluginId) {
    this.dir = dir;
    this.pluginId = pluginId;
  }

  /**
   * A process-wide lock per entry: devices that need the same program at the same time (samplers
   * starting together) compile it once, and the others then find it in the disk cache.
   */
  static Object lockFor(String key) {
    return ENTRY_LOCKS.computeIfAbsent(key, k -> new Object());
  }

  /** The folder from {@value #PROPERTY} / {@value #ENV}, default ~/.cache/javelin/xla. */
  static Optional<Path> defaultDir() {
    String v = System.getProperty(PROPERTY, System.getenv(ENV));
    if ("off".equals(v)) {
      return Optional.empty();
    }
    return Optional.of(
        v != null && !v.isBlank()
            ? Path.of(v)
            : Path.of(System.getProperty("user.home"), ".cache", "javelin", "xla"));
  }

  String key(byte[] programText, byte[] compileOptions) {
    try {
      MessageDigest sha = MessageDigest.getInstance("SHA-256");
      sha.update(pluginId.getBytes(StandardCharsets.UTF_8));
      sha.update((byte) 0);
      sha.update(compileOptions);
      sha.update((byte) 0);
      sha.update(programText);
      return HexFormat.of().formatHex(sha.digest());
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is required by every JDK", e);
    }
  }

  synchronized Optional<byte[]> get(String key) {
    byte[] bytes = memory.get(key);
    if (bytes == null && dir.isPresent()) {
      bytes = readDisk(dir.get().resolve(key + ".pjrt"));
      if (bytes != null) {
        remember(key, bytes);
      }
    }
    if (bytes == null) {
      misses++;
      return Optional.empty();
    }
    hits++;
    return Optional.of(bytes);
  }

  synchronized void put(String key, byte[] serialized) {
    remember(key, serialized);
    dir.ifPresent(d -> writeDisk(d, key, serialized));
  }

  /** Drops an entry that failed to load (stale or corrupt). */
  synchronized void evict(String key) {
    byte[] old = memory.remove(key);
    if (old != null) {
      memoryBytes -= old.length;
    }
    dir.ifPresent(
        d -> {
          try {
            Files.deleteIfExists(d.resolve(key + ".pjrt"));
          } catch (IOException e) {
            LOG.warning(() -> "cannot delete stale cache entry " + key + ": " + e.getMessage());
          }
        });
  }

  synchronized int hits() {
    return hits;
  }

  synchronized int misses() {
    return misses;
  }

  private void remember(String key, byte[] bytes) {
    byte[] old = memory.put(key, bytes);
    memoryBytes += bytes.length - (old == null ? 0 : old.length);
    var it = memory.entrySet().iterator();
    while (memoryBytes > MEMORY_BYTES && it.hasNext()) {
      Map.Entry<String, byte[]> eldest = it.next();
      if (!eldest.getKey().equals(key)) {
        memoryBytes -= eldest.getValue().length;
        it.remove();
      }
    }
  }

  private static byte[] readDisk(Path file) {
    try {
      return Files.isRegularFile(file) ? Files.readAllBytes(file) : null;
    } catch (IOException e) {
      LOG.warning(() -> "ignoring unreadable cache entry " + file + ": " + e.getMessage());
      return null;
    }
  }

  private static void writeDisk(Path d, String key, byte[] bytes) {
    try {
      Files.createDirectories(d);
      Path tmp = Files.createTempFile(d, key, ".tmp");
      Files.write(tmp, bytes);
      try {
        Files.move(tmp, d.resolve(key + ".pjrt"), StandardCopyOption.ATOMIC_MOVE);
      } catch (AtomicMoveNotSupportedException e) {
        Files.move(tmp, d.resolve(key + ".pjrt"), StandardCopyOption.REPLACE_EXISTING);
      }
    } catch (IOException e) {
      LOG.warning(() -> "cannot write compile cache entry in " + d + ": " + e.getMessage());
    }
  }
}
