package dev.javelin.trainer;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.stream.Stream;
import java.util.zip.CRC32C;

/**
 * {@code checkpoint_manifest.json}: the size and CRC32C of every file of a checkpoint, written (and
 * every file flushed to disk) after the checkpoint's files and before it is moved into place, and
 * checked before a resume loads it, so that a truncated file or a flipped byte is found before it
 * is loaded, not after training on it.
 */
public final class CheckpointManifest {
  /** The manifest's file name inside a {@code global_step_N} directory. */
  public static final String FILE = "checkpoint_manifest.json";

  private static final String FORMAT = "javelin-checkpoint-manifest/1";
  private static final int MAX_BYTES = 1 << 20;
  private static final int MAX_FILES = 10_000;
  private static final ObjectMapper JSON = new ObjectMapper();

  /** One listed file: its length and CRC32C. */
  public record Entry(long bytes, long crc32c) {}

  private CheckpointManifest() {}

  /** Lists, checksums and flushes every file under {@code dir}, then writes the manifest. */
  static void write(Path dir) throws IOException {
    ObjectNode root = JSON.createObjectNode().put("format", FORMAT);
    ObjectNode files = root.putObject("files");
    for (Path file : filesUnder(dir)) {
      Entry e = checksum(file, true);
      files.putObject(relative(dir, file)).put("bytes", e.bytes()).put("crc32c", hex(e.crc32c()));
    }
    Path manifest = dir.resolve(FILE);
    Files.write(manifest, JSON.writerWithDefaultPrettyPrinter().writeValueAsBytes(root));
    checksum(manifest, true);
    try (FileChannel d = FileChannel.open(dir, StandardOpenOption.READ)) {
      d.force(true); // the directory entries too, so the rename that follows publishes them all
    }
  }

  /**
   * What is wrong with the checkpoint in {@code dir}, or empty when every listed file is there with
   * its length and checksum. A directory without a manifest (written before checksums were kept)
   * passes unchecked.
   */
  public static Optional<String> problem(Path dir) {
    Path manifest = dir.resolve(FILE);
    if (!Files.exists(manifest)) {
      return Optional.empty();
    }
    try {
      if (Files.size(manifest) > MAX_BYTES) {
        return Optional.of(FILE + " is larger than " + MAX_BYTES + " bytes");
      }
      Map<String, Entry> entries = parse(Files.readAllBytes(manifest), manifest.toString());
      for (Map.Entry<String, Entry> e : entries.entrySet()) {
        Path file = dir.resolve(e.getKey());
        if (!Files.isRegularFile(file)) {
          return Optional.of(e.getKey() + " is missing");
        }
        Entry found = checksum(file, false);
        if (found.bytes() != e.getValue().bytes()) {
          return Optional.of(
              e.getKey()
                  + " has "
                  + found.bytes()
                  + " bytes, "
                  + e.getValue().bytes()
                  + " written");
        }
        if (found.crc32c() != e.getValue().crc32c()) {
          return Optional.of(e.getKey() + " does not match its checksum (changed on disk)");
        }
      }
      return Optional.empty();
    } catch (IllegalArgumentException e) {
      return Optional.of(e.getMessage());
    } catch (IOException e) {
      return Optional.of("cannot be read: " + e.getMessage());
    }
  }

  /**
   * Reads a manifest's entries; throws {@link IllegalArgumentException} naming {@code source} when
   * it is not one. File names are confined to the checkpoint directory.
   */
  public static Map<String, Entry> parse(byte[] bytes, String source) {
    JsonNode root;
    try {
      root = JSON.readTree(bytes);
    } catch (JsonProcessingException e) {
      throw new IllegalArgumentException(source + " is not valid JSON", e);
    } catch (IOException e) {
      throw new IllegalArgumentException(source + " cannot be parsed: " + e.getMessage(), e);
    }
    if (root == null || !FORMAT.equals(root.path("format").asText())) {
      throw new IllegalArgumentException(source + " is not a " + FORMAT + " file");
    }
    JsonNode files = root.path("files");
    if (!files.isObject() || files.size() > MAX_FILES) {
      throw new IllegalArgumentException(source + ": files must be an object of at most 10000");
    }
    Map<String, Entry> out = new TreeMap<>();
    for (Map.Entry<String, JsonNode> f : files.properties()) {
      String name = f.getKey();
      if (!confined(name)) {
        throw new IllegalArgumentException(source + ": '" + name + "' is not a file inside it");
      }
      JsonNode bytesNode = f.getValue().path("bytes");
      String crc = f.getValue().path("crc32c").asText("");
      if (!bytesNode.canConvertToLong() || bytesNode.asLong() < 0 || !crc.matches("[0-9a-f]{8}")) {
        throw new IllegalArgumentException(source + ": '" + name + "' needs bytes and crc32c");
      }
      out.put(name, new Entry(bytesNode.asLong(), Long.parseLong(crc, 16)));
    }
    return out;
  }

  /** A relative path of plain names: no root, no {@code .} or {@code ..}, no empty part. */
  private static boolean confined(String name) {
    if (name.isEmpty() || name.startsWith("/") || name.contains("\\") || name.indexOf(0) >= 0) {
      return false;
    }
    for (String part : name.split("/", -1)) {
      if (part.isEmpty() || part.equals(".") || part.equals("..")) {
        return false;
      }
    }
    return true;
  }

  private static List<Path> filesUnder(Path dir) throws IOException {
    try (Stream<Path> walk = Files.walk(dir)) {
      List<Path> out = new ArrayList<>();
      walk.filter(Files::isRegularFile)
          .filter(p -> !p.equals(dir.resolve(FILE)))
          .sorted()
          .forEach(out::add);
      return out;
    }
  }

  private static String relative(Path dir, Path file) {
    return dir.relativize(file).toString().replace('\\', '/');
  }

  /** Length and CRC32C of {@code file}; with {@code flush}, also forces it to the disk. */
  private static Entry checksum(Path file, boolean flush) throws IOException {
    CRC32C crc = new CRC32C();
    long total = 0;
    try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
      ByteBuffer buf = ByteBuffer.allocateDirect(1 << 20);
      for (int n; (n = ch.read(buf)) >= 0; ) {
        buf.flip();
        crc.update(buf);
        buf.clear();
        total += n;
      }
      if (flush) {
        ch.force(true);
      }
    }
    return new Entry(total, crc.getValue());
  }

  private static String hex(long crc) {
    return String.format("%08x", crc);
  }
}
