package dev.javelin.backend.checkpoint.safetensors;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.javelin.backend.Tensor;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;

/**
 * A Hugging Face checkpoint directory: {@code model.safetensors}, or shards listed in {@code
 * model.safetensors.index.json} ({@code weight_map}: tensor name to shard file). Tensors keep their
 * HF names ({@code model.layers.0.self_attn.q_proj.weight}, ...).
 */
public final class HfCheckpoint {
  public static final String SINGLE_FILE = "model.safetensors";
  public static final String INDEX_FILE = "model.safetensors.index.json";
  private static final String STEM = "model";

  private HfCheckpoint() {}

  /** Reads every tensor of the checkpoint in {@code dir}, by HF name. */
  public static Map<String, Tensor> read(Path dir) {
    Path index = dir.resolve(INDEX_FILE);
    Map<String, Tensor> out = new LinkedHashMap<>();
    if (Files.isRegularFile(index)) {
      for (Map.Entry<String, Map<String, Boolean>> shard : shards(dir, index).entrySet()) {
        try (SafetensorsFile f = SafetensorsFile.open(dir.resolve(shard.getKey()))) {
          for (String name : shard.getValue().keySet()) {
            out.put(name, f.read(name));
          }
        }
      }
      return out;
    }
    Path single = dir.resolve(SINGLE_FILE);
    if (!Files.isRegularFile(single)) {
      throw new SafetensorsException(
          "no " + SINGLE_FILE + " or " + INDEX_FILE + " in checkpoint directory " + dir);
    }
    try (SafetensorsFile f = SafetensorsFile.open(single)) {
      for (String name : f.tensors().keySet()) {
        out.put(name, f.read(name));
      }
    }
    return out;
  }

  /** Writes {@code tensors} as one {@code model.safetensors} in {@code dir}. */
  public static void write(Path dir, Map<String, ? extends Tensor> tensors, StorageType floatType) {
    write(dir, tensors, floatType, CheckpointShard.WHOLE);
  }

  /**
   * Writes {@code shard}'s part of {@code tensors} (in their order): {@code model.safetensors} when
   * whole, else its {@code model-0000r-of-0000n.safetensors}, and the first rank writes the index
   * that lists every tensor's file. Each rank of a gang calls this with its own shard.
   */
  public static void write(
      Path dir,
      Map<String, ? extends Tensor> tensors,
      StorageType floatType,
      CheckpointShard shard) {
    Map<String, String> meta = Map.of("format", "pt");
    SafetensorsWriter.write(
        dir.resolve(shard.fileName(STEM)), shard.part(tensors), floatType, meta);
    if (!shard.whole() && shard.first()) {
      writeIndex(dir.resolve(INDEX_FILE), tensors, floatType, shard.ranks());
    }
  }

  private static void writeIndex(
      Path index, Map<String, ? extends Tensor> tensors, StorageType floatType, int ranks) {
    ObjectMapper json = new ObjectMapper();
    ObjectNode root = json.createObjectNode();
    ObjectNode map = json.createObjectNode();
    int[] owners = CheckpointShard.owners(tensors, ranks);
    long bytes = 0;
    int i = 0;
    for (Map.Entry<String, ? extends Tensor> e : tensors.entrySet()) {
      Tensor t = e.getValue();
      StorageType type = t instanceof Tensor.I32 ? StorageType.I32 : floatType;
      bytes += t.shape().size() * type.byteSize();
      map.put(e.getKey(), CheckpointShard.fileName(STEM, owners[i++], ranks));
    }
    root.putObject("metadata").put("total_size", bytes);
    root.set("weight_map", map);
    try {
      Path tmp = index.resolveSibling(index.getFileName() + ".tmp");
      json.writerWithDefaultPrettyPrinter().writeValue(tmp.toFile(), root);
      Files.move(tmp, index, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write " + index, e);
    }
  }

  /** Shard file to the names it holds, with shard names confined to {@code dir}. */
  private static Map<String, Map<String, Boolean>> shards(Path dir, Path index) {
    JsonNode root;
    try {
      root = new ObjectMapper().readTree(index.toFile());
    } catch (IOException e) {
      throw new SafetensorsException("cannot parse " + index + ": " + e.getMessage(), e);
    }
    JsonNode map = root == null ? null : root.get("weight_map");
    if (map == null || !map.isObject()) {
      throw new SafetensorsException(index + " has no weight_map object");
    }
    Path base = dir.toAbsolutePath().normalize();
    Map<String, Map<String, Boolean>> byShard = new TreeMap<>();
    for (Map.Entry<String, JsonNode> e : map.properties()) {
      String file = e.getValue().asText();
      Path resolved = base.resolve(file).normalize();
      if (!e.getValue().isTextual() || file.isEmpty() || !base.equals(resolved.getParent())) {
        throw new SafetensorsException(
            index + ": weight_map entry '" + e.getKey() + "' names a file outside the directory");
      }
      byShard.computeIfAbsent(file, k -> new LinkedHashMap<>()).put(e.getKey(), Boolean.TRUE);
    }
    return byShard;
  }
}
