package dev.javelin.recipes.jobs;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.attribute.FileTime;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Map;
import java.util.Objects;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.zip.CRC32;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;

/**
 * A runtime-env package: a zip named by the hash of its content ({@code gcs://_ray_pkg_<sha>.zip},
 * Ray's own scheme), so an unchanged set of jars is found on the cluster and not uploaded again.
 * Entries are stored uncompressed (jars are compressed already) with a fixed time, so the same
 * files always give the same bytes.
 *
 * @param name the package name, {@code _ray_pkg_<sha256 prefix>.zip}
 * @param zip the zip bytes
 * @param files how many files it holds
 */
public record JobPackage(String name, byte[] zip, int files) {
  /** The dashboard's request limit is 100 MiB; stay clearly under it. */
  public static final long MAX_BYTES = 90L << 20;

  private static final FileTime EPOCH = FileTime.fromMillis(315_532_800_000L); // 1980-01-01

  /** Validates. */
  public JobPackage {
    Objects.requireNonNull(name, "name");
    if (!name.matches("_ray_pkg_[0-9a-f]{16,64}\\.zip")) {
      throw new IllegalArgumentException("name: '" + name + "' is not _ray_pkg_<hex>.zip");
    }
    Objects.requireNonNull(zip, "zip");
  }

  /** {@code gcs://<name>}: how a runtime env refers to it. */
  public String uri() {
    return "gcs://" + name;
  }

  /** The folder Ray unpacks it into, under the node's runtime resources. */
  public String folderName() {
    return name.substring(0, name.length() - ".zip".length());
  }

  /** Zips {@code files}: path in the zip → bytes. */
  public static JobPackage of(Map<String, byte[]> files) {
    SortedMap<String, byte[]> sorted = new TreeMap<>(files);
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (ZipOutputStream zip = new ZipOutputStream(bytes)) {
      for (var e : sorted.entrySet()) {
        zip.putNextEntry(storedEntry(e.getKey(), e.getValue()));
        zip.write(e.getValue());
        zip.closeEntry();
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot build a job package", e);
    }
    byte[] zip = bytes.toByteArray();
    if (zip.length > MAX_BYTES) {
      throw new IllegalArgumentException(
          "a job package of "
              + (zip.length >> 20)
              + " MiB is over the "
              + (MAX_BYTES >> 20)
              + " MiB the Ray dashboard accepts per upload: "
              + sorted.keySet());
    }
    return new JobPackage("_ray_pkg_" + sha256(zip).substring(0, 32) + ".zip", zip, sorted.size());
  }

  private static ZipEntry storedEntry(String path, byte[] data) {
    ZipEntry z = new ZipEntry(path);
    CRC32 crc = new CRC32();
    crc.update(data);
    z.setMethod(ZipEntry.STORED);
    z.setSize(data.length);
    z.setCompressedSize(data.length);
    z.setCrc(crc.getValue());
    z.setLastModifiedTime(EPOCH);
    return z;
  }

  private static String sha256(byte[] data) {
    try {
      return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(data));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("no SHA-256 in this JVM", e);
    }
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof JobPackage p && p.name.equals(name);
  }

  @Override
  public int hashCode() {
    return name.hashCode();
  }

  @Override
  public String toString() {
    return String.format(
        java.util.Locale.ROOT, "%s (%d files, %.1f MiB)", name, files, zip.length / 1048576.0);
  }
}
