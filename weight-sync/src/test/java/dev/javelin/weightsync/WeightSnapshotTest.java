package dev.javelin.weightsync;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.javelin.weightsync.wire.MalformedWireException;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class WeightSnapshotTest {

  static float[] random(int n, long seed) {
    Random r = new Random(seed);
    float[] a = new float[n];
    for (int i = 0; i < n; i++) {
      a[i] = (float) r.nextGaussian();
    }
    return a;
  }

  static WeightSnapshot model(long version, WireType type) {
    return WeightSnapshot.builder(version, type)
        .add("model.embed_tokens.weight", new int[] {16, 8}, random(128, 1))
        .add("model.norm.weight", new int[] {8}, random(8, 2))
        .add("lm_head.weight", new int[] {16, 8}, random(128, 3))
        .build();
  }

  @Test
  void aShapeWhoseByteCountOverflowsIsRefusedNotThrownAsArithmetic() {
    // found by SnapshotCodecFuzzTest: dimensions whose product overflows a long
    int big = Integer.MAX_VALUE;
    assertThrows(
        IllegalArgumentException.class,
        () -> new TensorEntry("w", WireType.F32, new int[] {big, big, big}, 0));
  }

  @Test
  void partsPutTogetherAreTheWholeSnapshotByteForByte() {
    float[] a = random(6, 1);
    float[] b = random(10, 2);
    float[] c = random(4, 3);
    for (WireType type : WireType.values()) {
      WeightSnapshot whole =
          WeightSnapshot.builder(5, type)
              .add("a", new int[] {2, 3}, a)
              .add("b", new int[] {10}, b)
              .add("c", new int[] {4}, c)
              .build();
      WeightSnapshot first = WeightSnapshot.builder(5, type).add("a", new int[] {2, 3}, a).build();
      WeightSnapshot rest =
          WeightSnapshot.builder(5, type)
              .add("b", new int[] {10}, b)
              .add("c", new int[] {4}, c)
              .build();
      WeightSnapshot joined = WeightSnapshot.concat(List.of(first, rest));
      assertArrayEquals(SnapshotCodec.toArray(whole), SnapshotCodec.toArray(joined), type.name());
      assertEquals(joined.checksum(), joined.computeChecksum());
    }
    WeightSnapshot v6 = WeightSnapshot.builder(6, WireType.F32).add("c", new int[] {4}, c).build();
    WeightSnapshot v5 = WeightSnapshot.builder(5, WireType.F32).add("c", new int[] {4}, c).build();
    assertThrows(IllegalArgumentException.class, () -> WeightSnapshot.concat(List.of(v5, v6)));
    assertThrows(IllegalArgumentException.class, () -> WeightSnapshot.concat(List.of(v5, v5)));
    assertThrows(IllegalArgumentException.class, () -> WeightSnapshot.concat(List.of()));
  }

  @Test
  void f32RoundTripIsExact() {
    WeightSnapshot s = model(3, WireType.F32);
    assertArrayEquals(random(128, 3), s.floats("lm_head.weight"));
    assertArrayEquals(random(8, 2), s.floats("model.norm.weight"));
    assertEquals((128 + 8 + 128) * 4L, s.byteSize());
    assertEquals(s.checksum(), s.computeChecksum());
  }

  @Test
  void bf16RoundsToNearestEvenAndHalvesBytes() {
    WeightSnapshot s = model(1, WireType.BF16);
    assertEquals((128 + 8 + 128) * 2L, s.byteSize());
    float[] want = random(128, 1);
    float[] got = s.floats("model.embed_tokens.weight");
    for (int i = 0; i < want.length; i++) {
      // bf16 keeps 8 significant bits: relative error at most 2^-9.
      assertEquals(want[i], got[i], Math.abs(want[i]) * 0x1p-8f, "element " + i);
    }
    // 1 + 2^-8 is exactly halfway between bf16 neighbours 1 and 1 + 2^-7: ties go to even (1.0).
    assertEquals(1.0f, WireType.fromBf16(WireType.toBf16(1f + 0x1p-8f)));
    assertEquals(1f + 0x1p-6f, WireType.fromBf16(WireType.toBf16(1f + 0x1p-7f + 0x1p-8f)));
    assertTrue(Float.isNaN(WireType.fromBf16(WireType.toBf16(Float.NaN))));
    assertEquals(Float.POSITIVE_INFINITY, WireType.fromBf16(WireType.toBf16(Float.MAX_VALUE)));
  }

  @Test
  void codecRoundTripSharesPayload() {
    WeightSnapshot s = model(7, WireType.F32);
    ByteBuffer bytes = SnapshotCodec.encode(s);
    WeightSnapshot back = SnapshotCodec.decode(bytes);
    assertEquals(7, back.version());
    assertEquals(s.entries(), back.entries());
    assertEquals(s.checksum(), back.checksum());
    assertEquals(s.checksum(), back.computeChecksum());
    assertArrayEquals(s.floats("lm_head.weight"), back.floats("lm_head.weight"));
  }

  @Test
  void toArrayHandsBackTheArrayASnapshotWasDecodedFromAndCopiesOtherwise() {
    WeightSnapshot s = model(4, WireType.F32);
    ByteBuffer encoded = SnapshotCodec.encode(s);
    byte[] wire = new byte[encoded.remaining()];
    encoded.duplicate().get(wire);
    assertArrayEquals(wire, SnapshotCodec.toArray(s));
    // a transport that stores arrays republishes a received snapshot without a model-sized copy
    WeightSnapshot received = SnapshotCodec.decode(ByteBuffer.wrap(wire));
    assertSame(wire, SnapshotCodec.toArray(received));
    // a view of part of an array is copied, exactly its bytes
    byte[] padded = new byte[wire.length + 3];
    System.arraycopy(wire, 0, padded, 3, wire.length);
    WeightSnapshot inside = SnapshotCodec.decode(ByteBuffer.wrap(padded, 3, wire.length).slice());
    assertArrayEquals(wire, SnapshotCodec.toArray(inside));
  }

  @Test
  void everyTruncationIsAMalformedSnapshotNotACrash() {
    ByteBuffer bytes = SnapshotCodec.encode(model(2, WireType.BF16));
    for (int len = 0; len < bytes.capacity(); len++) {
      ByteBuffer cut = bytes.duplicate().limit(len).slice();
      assertThrows(MalformedWireException.class, () -> SnapshotCodec.decode(cut), "len " + len);
    }
  }

  @Test
  void corruptHeaderFieldsAreRejectedWithReasons() {
    ByteBuffer good = SnapshotCodec.encode(model(2, WireType.F32));
    ByteBuffer badMagic = copy(good);
    badMagic.put(0, (byte) 'X');
    assertTrue(
        assertThrows(MalformedWireException.class, () -> SnapshotCodec.decode(badMagic))
            .getMessage()
            .contains("magic"));
    ByteBuffer hugeCount = copy(good);
    hugeCount.order(java.nio.ByteOrder.LITTLE_ENDIAN).putInt(24, Integer.MAX_VALUE);
    assertThrows(MalformedWireException.class, () -> SnapshotCodec.decode(hugeCount));
    ByteBuffer negativeName = copy(good);
    negativeName.order(java.nio.ByteOrder.LITTLE_ENDIAN).putInt(28, -5);
    assertThrows(MalformedWireException.class, () -> SnapshotCodec.decode(negativeName));
  }

  @Test
  void shapeMustMatchData() {
    var b = WeightSnapshot.builder(0, WireType.F32);
    var e =
        assertThrows(
            IllegalArgumentException.class, () -> b.add("w", new int[] {3, 3}, new float[8]));
    assertTrue(e.getMessage().contains("w"));
  }

  static ByteBuffer copy(ByteBuffer b) {
    ByteBuffer c = ByteBuffer.allocate(b.capacity());
    c.put(b.duplicate());
    return c.flip();
  }
}
