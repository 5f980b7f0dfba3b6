package dev.javelin.recipes.metrics;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.zip.CRC32C;
import org.junit.jupiter.api.Test;

class TfEventWriterTest {
  @Test
  void crc32cKnownVectorsAndMask() {
    CRC32C crc = new CRC32C();
    crc.update("123456789".getBytes(StandardCharsets.US_ASCII));
    assertEquals(0xE3069283L, crc.getValue()); // the CRC-32C check value
    int c = 0xE3069283;
    assertEquals(
        ((c >>> 15) | (c << 17)) + 0xa282ead8,
        TfEventWriter.maskedCrc32c("123456789".getBytes(StandardCharsets.US_ASCII)));
    // 32 zero bytes: CRC-32C 0x8A9136AA (RFC 3720 B.4), masked by TFRecord's rule.
    assertEquals(0x8A9136AA, (int) crcOf(new byte[32]));
    assertEquals(
        Integer.rotateRight(0x8A9136AA, 15) + 0xa282ead8, TfEventWriter.maskedCrc32c(new byte[32]));
  }

  private static long crcOf(byte[] b) {
    CRC32C crc = new CRC32C();
    crc.update(b);
    return crc.getValue();
  }

  @Test
  void recordFramingIsLengthCrcDataCrc() throws Exception {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    byte[] data = "hello".getBytes(StandardCharsets.US_ASCII);
    new TfEventWriter(out).writeRecord(data);
    ByteBuffer b = ByteBuffer.wrap(out.toByteArray()).order(ByteOrder.LITTLE_ENDIAN);
    assertEquals(8 + 4 + 5 + 4, b.remaining());
    assertEquals(5L, b.getLong(0));
    assertEquals(
        TfEventWriter.maskedCrc32c(Arrays.copyOfRange(out.toByteArray(), 0, 8)), b.getInt(8));
    assertArrayEquals(data, Arrays.copyOfRange(out.toByteArray(), 12, 17));
    assertEquals(TfEventWriter.maskedCrc32c(data), b.getInt(17));
  }

  @Test
  void scalarEventEncodesStepTagAndFloat() throws Exception {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    Map<String, Double> m = new LinkedHashMap<>();
    m.put("a/b", 0.5);
    m.put("nan", Double.NaN);
    new TfEventWriter(out).writeScalars(1.0, 300, m);
    byte[] rec = out.toByteArray();
    byte[] event = Arrays.copyOfRange(rec, 12, rec.length - 4);
    byte[] expected = {
      0x09,
      0,
      0,
      0,
      0,
      0,
      0,
      (byte) 0xf0,
      0x3f, // wall_time = 1.0
      0x10,
      (byte) 0xac,
      0x02, // step = 300
      0x2a,
      12, // summary, 12 bytes
      0x0a,
      10, // value, 10 bytes
      0x0a,
      3,
      'a',
      '/',
      'b', // tag
      0x15,
      0,
      0,
      0,
      0x3f // simple_value = 0.5f
    };
    assertArrayEquals(expected, event);
  }
}
