package dev.javelin.recipes.metrics;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.zip.CRC32C;

/**
 * TensorBoard's event-file format: TFRecord framing (little-endian uint64 length, masked CRC32C of
 * the length, the data, masked CRC32C of the data) around hand-encoded {@code tensorflow.Event}
 * protobufs. Only the fields TensorBoard needs for scalars are written: {@code wall_time} (1,
 * double), {@code step} (2, int64), {@code file_version} (3, string) and {@code summary} (5) with
 * {@code Summary.Value}s of {@code tag} (1, string) and {@code simple_value} (2, float).
 */
public final class TfEventWriter {
  private final OutputStream out;

  public TfEventWriter(OutputStream out) {
    this.out = out;
  }

  /** The first record of every event file. */
  public void writeFileVersion(double wallTime) throws IOException {
    ByteArrayOutputStream e = new ByteArrayOutputStream();
    fixed64Field(e, 1, Double.doubleToLongBits(wallTime));
    bytesField(e, 3, "brain.Event:2".getBytes(StandardCharsets.UTF_8));
    writeRecord(e.toByteArray());
  }

  /** One event holding every finite metric as a scalar summary value. */
  public void writeScalars(double wallTime, long step, Map<String, Double> scalars)
      throws IOException {
    ByteArrayOutputStream summary = new ByteArrayOutputStream();
    for (var s : scalars.entrySet()) {
      if (s.getValue() == null || !Double.isFinite(s.getValue())) {
        continue; // TensorBoard would draw NaN as a gap anyway; metrics.jsonl keeps the null
      }
      ByteArrayOutputStream value = new ByteArrayOutputStream();
      bytesField(value, 1, s.getKey().getBytes(StandardCharsets.UTF_8));
      tag(value, 2, 5);
      int bits = Float.floatToIntBits(s.getValue().floatValue());
      value.write(ByteBuffer.allocate(4).order(ByteOrder.LITTLE_ENDIAN).putInt(bits).array());
      bytesField(summary, 1, value.toByteArray());
    }
    ByteArrayOutputStream e = new ByteArrayOutputStream();
    fixed64Field(e, 1, Double.doubleToLongBits(wallTime));
    tag(e, 2, 0);
    varint(e, step);
    bytesField(e, 5, summary.toByteArray());
    writeRecord(e.toByteArray());
    out.flush();
  }

  /** Frames one record. */
  void writeRecord(byte[] data) throws IOException {
    byte[] len = ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN).putLong(data.length).array();
    out.write(len);
    out.write(le32(maskedCrc32c(len)));
    out.write(data);
    out.write(le32(maskedCrc32c(data)));
  }

  /** TFRecord's CRC: CRC32C rotated right by 15 bits plus a constant. */
  static int maskedCrc32c(byte[] data) {
    CRC32C crc = new CRC32C();
    crc.update(data);
    int c = (int) crc.getValue();
    return ((c >>> 15) | (c << 17)) + 0xa282ead8;
  }

  private static byte[] le32(int v) {
    return ByteBuffer.allocate(4).order(ByteOrder.LITTLE_ENDIAN).putInt(v).array();
  }

  private static void tag(ByteArrayOutputStream o, int field, int wireType) {
    varint(o, ((long) field << 3) | wireType);
  }

  private static void varint(ByteArrayOutputStream o, long v) {
    while ((v & ~0x7FL) != 0) {
      o.write((int) ((v & 0x7F) | 0x80));
      v >>>= 7;
    }
    o.write((int) v);
  }

  private static void fixed64Field(ByteArrayOutputStream o, int field, long bits) {
    tag(o, field, 1);
    o.writeBytes(ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN).putLong(bits).array());
  }

  private static void bytesField(ByteArrayOutputStream o, int field, byte[] b) {
    tag(o, field, 2);
    varint(o, b.length);
    o.writeBytes(b);
  }
}
