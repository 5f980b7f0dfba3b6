package dev.javelin.backend.checkpoint.gguf;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.javelin.backend.Shape;
import dev.javelin.backend.Tensor;
import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Reads fixtures written by gguf-py (tools/gguf_fixtures.py) and rejects corrupted copies. */
class GgufFileTest {
  @TempDir Path tmp;

  static Path fixture(String name) {
    try {
      return Path.of(GgufFileTest.class.getResource("/gguf/" + name).toURI());
    } catch (URISyntaxException | NullPointerException e) {
      throw new IllegalStateException("missing test fixture gguf/" + name, e);
    }
  }

  @Test
  void readsEveryMetadataType() {
    try (GgufFile f = GgufFile.open(fixture("metadata.gguf"))) {
      Map<String, Object> m = f.metadata();
      assertEquals(3, f.version());
      assertEquals("llama", m.get("general.architecture"));
      assertEquals(64L, m.get("general.alignment"));
      assertEquals(200L, m.get("t.u8"));
      assertEquals(-100L, m.get("t.i8"));
      assertEquals(60000L, m.get("t.u16"));
      assertEquals(-30000L, m.get("t.i16"));
      assertEquals(4000000000L, m.get("t.u32"));
      assertEquals(-2000000000L, m.get("t.i32"));
      assertEquals(1L << 40, m.get("t.u64"));
      assertEquals(-(1L << 40), m.get("t.i64"));
      assertEquals(0.5, m.get("t.f32"));
      assertEquals(0.1, m.get("t.f64"));
      assertEquals(true, m.get("t.bool"));
      assertEquals("héllo", m.get("t.str"));
      assertEquals(List.of("a", "bc", ""), m.get("t.arr_str"));
      assertEquals(List.of(1L, 2L, 3L), m.get("t.arr_int"));
      assertEquals(List.of(List.of(1L, 2L), List.of(3L)), m.get("t.arr_nested"));
    }
  }

  @Test
  void readsTensorsAtTheAlignedOffsets() {
    try (GgufFile f = GgufFile.open(fixture("metadata.gguf"))) {
      assertEquals(List.of("a", "b"), List.copyOf(f.tensors().keySet()));
      for (GgufTensorInfo t : f.tensors().values()) {
        assertEquals(0, t.offset() % 64, t.toString());
      }
      Tensor.F32 a = f.readF32("a");
      assertEquals(Shape.of(2, 3), a.shape());
      assertArrayEquals(new float[] {0, 1, 2, 3, 4, 5}, a.data());
      float[] b = new float[5];
      Arrays.fill(b, -1.5f);
      assertArrayEquals(b, f.readF32("b").data());
    }
  }

  @Test
  void dequantisesLikeGgufPy() throws IOException {
    try (GgufFile f = GgufFile.open(fixture("quants.gguf"))) {
      assertEquals(9, f.tensors().size());
      for (GgufTensorInfo t : f.tensors().values()) {
        Tensor.F32 got = f.readF32(t.name());
        assertEquals(Shape.of(2, 256), got.shape());
        float[] want = readF32(fixture(t.name() + ".f32"));
        assertArrayEquals(want, got.data(), 0f, t.name() + " (" + t.type() + ")");
      }
    }
  }

  /**
   * Blocks copied from the Gemma 3 270M Q4_K_M GGUF (tools/gemma3_quant_fixture.py), among them the
   * Q5_0 that llama.cpp falls back to for 640-wide rows.
   */
  @Test
  void dequantisesRealGemma3BlocksLikeGgufPy() throws IOException {
    try (GgufFile f = GgufFile.open(fixture("gemma3_blocks.gguf"))) {
      assertEquals(
          List.of(GgmlType.Q5_0, GgmlType.Q8_0, GgmlType.Q4_K, GgmlType.Q6_K),
          f.tensors().values().stream().map(GgufTensorInfo::type).toList());
      for (GgufTensorInfo t : f.tensors().values()) {
        Tensor.F32 got = f.readF32(t.name());
        float[] want = readF32(fixture(t.name() + ".f32"));
        assertEquals(Shape.of(1, 256), got.shape());
        assertArrayEquals(want, got.data(), 0f, t.name() + " (" + t.type() + ")");
      }
    }
  }

  private static float[] readF32(Path p) throws IOException {
    ByteBuffer b = ByteBuffer.wrap(Files.readAllBytes(p)).order(ByteOrder.LITTLE_ENDIAN);
    float[] out = new float[b.remaining() / 4];
    b.asFloatBuffer().get(out);
    return out;
  }

  @Test
  void rejectsBadMagicAndVersion() throws IOException {
    byte[] good = Files.readAllBytes(fixture("metadata.gguf"));
    byte[] magic = good.clone();
    magic[0] = 'X';
    assertRejected(magic, "bad magic");
    byte[] version = good.clone();
    version[4] = 1;
    assertRejected(version, "version 1");
  }

  @Test
  void rejectsEveryTruncation() throws IOException {
    byte[] good = Files.readAllBytes(fixture("metadata.gguf"));
    long end;
    try (GgufFile f = GgufFile.open(fixture("metadata.gguf"))) {
      end = f.tensors().values().stream().mapToLong(t -> t.offset() + t.bytes()).max().orElse(0);
    }
    // the writer pads after the last tensor; a cut anywhere before its data's end is an error
    for (int len = 0; len < end; len += 7) {
      assertRejected(Arrays.copyOf(good, len), "");
    }
  }

  @Test
  void rejectsHugeCountsBeforeAllocating() throws IOException {
    byte[] good = Files.readAllBytes(fixture("metadata.gguf"));
    byte[] tensors = good.clone();
    ByteBuffer.wrap(tensors).order(ByteOrder.LITTLE_ENDIAN).putLong(8, Long.MAX_VALUE / 2);
    assertRejected(tensors, "tensor count");
    byte[] kv = good.clone();
    ByteBuffer.wrap(kv).order(ByteOrder.LITTLE_ENDIAN).putLong(16, -1L);
    assertRejected(kv, "metadata count");
  }

  /** A fuzzing finding: four dimensions of 2^31 - 1 overflowed a long (ArithmeticException). */
  @Test
  void rejectsAShapeWhoseElementCountOverflows() throws IOException {
    ByteBuffer b = ByteBuffer.allocate(81).order(ByteOrder.LITTLE_ENDIAN);
    b.putInt(GgufHeader.MAGIC).putInt(3).putLong(1).putLong(0); // one tensor, no metadata
    b.putLong(1).put((byte) 't').putInt(4);
    for (int d = 0; d < 4; d++) {
      b.putLong(Integer.MAX_VALUE);
    }
    b.putInt(0).putLong(0); // f32 at offset 0
    assertRejected(b.array(), "elements (too many for one array)");
  }

  private void assertRejected(byte[] bytes, String fragment) throws IOException {
    Path p = tmp.resolve("bad.gguf");
    Files.write(p, bytes);
    GgufException e = assertThrows(GgufException.class, () -> GgufFile.open(p).close());
    assertTrue(e.getMessage().startsWith(p.toString()), e.getMessage());
    assertTrue(e.getMessage().contains(fragment), e.getMessage());
  }
}
