package dev.javelin.backend.checkpoint.safetensors;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.javelin.backend.Shape;
import dev.javelin.backend.Tensor;
import dev.javelin.backend.checkpoint.ModelCheckpoint;
import dev.javelin.backend.model.ModelConfig;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A checkpoint written in parts, one per rank, reads back whole, as an HF sharded checkpoint. */
class CheckpointShardTest {
  @TempDir Path dir;

  private static Map<String, Tensor.F32> tensors(int... sizes) {
    Map<String, Tensor.F32> m = new LinkedHashMap<>();
    for (int i = 0; i < sizes.length; i++) {
      float[] d = new float[sizes[i]];
      for (int j = 0; j < d.length; j++) {
        d[j] = i + j / 1000f;
      }
      m.put("t" + i, new Tensor.F32(Shape.of(sizes[i]), d));
    }
    return m;
  }

  @Test
  void ranksOwnContiguousRunsOfAboutEqualBytes() {
    Map<String, Tensor.F32> t = tensors(10, 10, 10, 10, 10, 10, 40);
    assertArrayEquals(new int[] {0, 0, 0, 0, 0, 1, 1}, CheckpointShard.owners(t, 2)); // 50 + 50
    assertArrayEquals(new int[] {0, 0, 0, 0, 0, 0, 0}, CheckpointShard.owners(t, 1));
    Set<String> seen = new HashSet<>();
    for (int r = 0; r < 3; r++) {
      for (String name : new CheckpointShard(r, 3).part(t).keySet()) {
        assertTrue(seen.add(name), name + " in two parts");
      }
    }
    assertEquals(t.keySet(), seen);
    assertEquals("model-00002-of-00003.safetensors", new CheckpointShard(1, 3).fileName("model"));
    assertEquals("model.safetensors", CheckpointShard.WHOLE.fileName("model"));
    assertThrows(IllegalArgumentException.class, () -> new CheckpointShard(2, 2));
  }

  @Test
  void partsWrittenByEveryRankReadBackAsTheWholeCheckpoint() throws Exception {
    Map<String, Tensor.F32> t = tensors(7, 3, 12, 5, 9);
    for (int r = 0; r < 3; r++) {
      HfCheckpoint.write(dir, t, StorageType.F32, new CheckpointShard(r, 3));
    }
    assertFalse(Files.exists(dir.resolve(HfCheckpoint.SINGLE_FILE)));
    Map<String, Tensor> back = HfCheckpoint.read(dir);
    assertEquals(t.keySet(), back.keySet());
    t.forEach((k, v) -> assertArrayEquals(v.data(), ((Tensor.F32) back.get(k)).data(), k));
    JsonNode index = new ObjectMapper().readTree(dir.resolve(HfCheckpoint.INDEX_FILE).toFile());
    assertEquals(4L * (7 + 3 + 12 + 5 + 9), index.path("metadata").path("total_size").asLong());
    assertEquals("model-00003-of-00003.safetensors", index.path("weight_map").path("t4").asText());
  }

  @Test
  void moreRanksThanTensorsLeaveSomePartsEmpty() {
    Map<String, Tensor.F32> t = tensors(4, 4);
    for (int r = 0; r < 5; r++) {
      HfCheckpoint.write(dir, t, StorageType.F32, new CheckpointShard(r, 5));
    }
    assertEquals(t.keySet(), HfCheckpoint.read(dir).keySet());
  }

  @Test
  void aModelSavedInPartsLoadsAsTheSameModel() {
    ModelConfig c = ModelConfig.tiny(); // as a single process saves it, then in four parts
    ModelCheckpoint ck = ModelCheckpoint.random(c, 5, 0.02);
    for (int r = 0; r < 4; r++) {
      ck.save(dir, "llama", StorageType.F32, new CheckpointShard(r, 4));
    }
    ModelCheckpoint back = ModelCheckpoint.load(dir);
    assertEquals(ck.weights().keySet(), back.weights().keySet());
    ck.weights().forEach((k, w) -> assertArrayEquals(w.data(), back.weights().get(k).data(), k));
  }
}
