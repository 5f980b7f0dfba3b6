package dev.javelin.backend.checkpoint.safetensors;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.javelin.backend.Shape;
import dev.javelin.backend.Tensor;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SafetensorsTest {
  @TempDir Path tmp;

  @Test
  void roundTripsF32AndI32WithMetadata() {
    Map<String, Tensor> in = new LinkedHashMap<>();
    in.put("a", Tensor.of(new float[] {1.5f, -2, 3e-8f, Float.MAX_VALUE, 0, -0f}, 2, 3));
    in.put("ids", Tensor.ofInts(new int[] {7, -1, Integer.MAX_VALUE}, 3));
    in.put("empty", Tensor.of(new float[0], 0, 4));
    Path f = tmp.resolve("x.safetensors");
    SafetensorsWriter.write(f, in, StorageType.F32, Map.of("format", "pt"));
    try (SafetensorsFile r = SafetensorsFile.open(f)) {
      assertEquals(List.of("a", "ids", "empty"), List.copyOf(r.tensors().keySet()));
      assertEquals("pt", r.metadata().get("format"));
      assertArrayEquals(((Tensor.F32) in.get("a")).data(), r.readF32("a").data());
      assertArrayEquals(((Tensor.I32) in.get("ids")).data(), ((Tensor.I32) r.read("ids")).data());
      assertEquals(Shape.of(0, 4), r.read("empty").shape());
    }
  }

  @Test
  void bf16RoundsToNearestEvenAndWidensExactly() {
    float[] v = {1f, 1 + 0x1p-8f, 1 + 3 * 0x1p-8f, -3.140625f, 65504f, 1e-20f};
    Path f = tmp.resolve("b.safetensors");
    SafetensorsWriter.write(f, Map.of("w", Tensor.of(v, 6)), StorageType.BF16);
    try (SafetensorsFile r = SafetensorsFile.open(f)) {
      assertEquals(StorageType.BF16, r.info("w").type());
      float[] got = r.readF32("w").data();
      assertEquals(1f, got[0]);
      assertEquals(1f, got[1]); // halfway 1 + 2^-8 ties to even (1.0)
      assertEquals(1.015625f, got[2]); // 1 + 3·2^-8 ties to even (1 + 4·2^-8)
      assertEquals(-3.140625f, got[3]);
      assertEquals(65536f, got[4]);
      assertEquals(1e-20f, got[5], 1e-22f);
    }
  }

  @Test
  void readsIeeeHalf() {
    // 1.0, -2.0, 65504 (max), smallest subnormal 2^-24, +inf
    short[] bits = {0x3C00, (short) 0xC000, 0x7BFF, 0x0001, 0x7C00};
    ByteBuffer data = ByteBuffer.allocate(10).order(ByteOrder.LITTLE_ENDIAN);
    for (short s : bits) {
      data.putShort(s);
    }
    Path f = raw("{\"h\":{\"dtype\":\"F16\",\"shape\":[5],\"data_offsets\":[0,10]}}", data.array());
    try (SafetensorsFile r = SafetensorsFile.open(f)) {
      assertArrayEquals(
          new float[] {1f, -2f, 65504f, 0x1p-24f, Float.POSITIVE_INFINITY}, r.readF32("h").data());
    }
  }

  @Test
  void rejectsMalformedFiles() {
    assertBad(new byte[] {1, 2, 3}, "has no header");
    byte[] huge = ByteBuffer.allocate(16).order(ByteOrder.LITTLE_ENDIAN).putLong(1L << 40).array();
    assertBad(huge, "out of range");
    assertBad(
        fileBytes("{\"a\":{\"dtype\":\"F32\",\"shape\":[4],\"data_offsets\":[0,16]}}", new byte[8]),
        "past the data section");
    assertBad(
        fileBytes(
            "{\"a\":{\"dtype\":\"F32\",\"shape\":[3],\"data_offsets\":[0,16]}}", new byte[16]),
        "needs 12 bytes");
    assertBad(
        fileBytes("{\"a\":{\"dtype\":\"Q4\",\"shape\":[1],\"data_offsets\":[0,1]}}", new byte[1]),
        "unsupported dtype");
    assertBad(
        fileBytes("{\"a\":{\"dtype\":\"F32\",\"shape\":[-1],\"data_offsets\":[0,0]}}", new byte[0]),
        "bad shape");
    assertBad(fileBytes("{\"a\": [1, 2", new byte[0]), "not valid JSON");
    assertBad(fileBytes("[1]", new byte[0]), "must be a JSON object");
  }

  @Test
  void readsShardedCheckpointsAndRefusesPathsOutsideTheDirectory() throws IOException {
    Path dir = Files.createDirectories(tmp.resolve("ckpt"));
    SafetensorsWriter.write(
        dir.resolve("s1.safetensors"), Map.of("x", Tensor.of(new float[] {1}, 1)), StorageType.F32);
    SafetensorsWriter.write(
        dir.resolve("s2.safetensors"),
        Map.of("y", Tensor.of(new float[] {2}, 1)),
        StorageType.BF16);
    Files.writeString(
        dir.resolve(HfCheckpoint.INDEX_FILE),
        "{\"metadata\":{},\"weight_map\":{\"x\":\"s1.safetensors\",\"y\":\"s2.safetensors\"}}");
    Map<String, Tensor> all = HfCheckpoint.read(dir);
    assertEquals(2f, ((Tensor.F32) all.get("y")).data()[0]);
    assertEquals(1f, ((Tensor.F32) all.get("x")).data()[0]);
    Files.writeString(
        dir.resolve(HfCheckpoint.INDEX_FILE), "{\"weight_map\":{\"x\":\"../evil.safetensors\"}}");
    var e = assertThrows(SafetensorsException.class, () -> HfCheckpoint.read(dir));
    assertTrue(e.getMessage().contains("outside the directory"), e.getMessage());
    var missing =
        assertThrows(SafetensorsException.class, () -> HfCheckpoint.read(tmp.resolve("none")));
    assertTrue(missing.getMessage().contains("model.safetensors"), missing.getMessage());
  }

  private void assertBad(byte[] content, String message) {
    Path f = tmp.resolve("bad.safetensors");
    try {
      Files.write(f, content);
    } catch (IOException e) {
      throw new AssertionError(e);
    }
    var e = assertThrows(SafetensorsException.class, () -> SafetensorsFile.open(f).close());
    assertTrue(
        e.getMessage().contains(message),
        "message '" + e.getMessage() + "' lacks '" + message + "'");
  }

  private Path raw(String header, byte[] data) {
    Path f = tmp.resolve("raw.safetensors");
    try {
      Files.write(f, fileBytes(header, data));
    } catch (IOException e) {
      throw new AssertionError(e);
    }
    return f;
  }

  private static byte[] fileBytes(String header, byte[] data) {
    byte[] h = header.getBytes(StandardCharsets.UTF_8);
    return ByteBuffer.allocate(8 + h.length + data.length)
        .order(ByteOrder.LITTLE_ENDIAN)
        .putLong(h.length)
        .put(h)
        .put(data)
        .array();
  }
}
