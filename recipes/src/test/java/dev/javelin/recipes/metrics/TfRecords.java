package dev.javelin.recipes.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;

/** Reads back TFRecord framing (length, its CRC, data, its CRC) for tests of event files. */
public final class TfRecords {
  private TfRecords() {}

  /**
   * The number of whole records at the head of {@code file}; a cut last record (a write that ran
   * out of disk) ends the count, a checksum that does not match fails the test.
   */
  public static int whole(byte[] file) {
    ByteBuffer in = ByteBuffer.wrap(file).order(ByteOrder.LITTLE_ENDIAN);
    int n = 0;
    while (in.remaining() >= 12) {
      int at = in.position();
      long len = in.getLong(at);
      if (len < 0 || in.remaining() < 12 + len + 4) {
        break;
      }
      byte[] header = Arrays.copyOfRange(file, at, at + 8);
      byte[] data = Arrays.copyOfRange(file, at + 12, at + 12 + (int) len);
      assertEquals(TfEventWriter.maskedCrc32c(header), in.getInt(at + 8), "length crc at " + at);
      assertEquals(TfEventWriter.maskedCrc32c(data), in.getInt(at + 12 + (int) len), "data crc");
      in.position(at + 12 + (int) len + 4);
      n++;
    }
    return n;
  }
}
