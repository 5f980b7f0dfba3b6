package dev.javelin.rewards.worker;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Map;

/**
 * Length-prefixed frames: a 4-byte big-endian length, then that many bytes of UTF-8 JSON (one
 * object). A length below 0 or above the reader's limit is refused before anything is allocated.
 */
public final class Frames {
  /** The largest frame either side accepts: 256 MiB, room for a few long responses. */
  public static final int MAX_BYTES = 256 << 20;

  private Frames() {}

  /** Writes one frame holding {@code message} as JSON and flushes. */
  public static void write(DataOutputStream out, Map<String, Object> message) throws IOException {
    writeText(out, Json.write(message));
  }

  /** Writes one frame holding {@code json}, which must be one JSON object's text, and flushes. */
  public static void writeText(DataOutputStream out, String json) throws IOException {
    byte[] bytes = json.getBytes(StandardCharsets.UTF_8);
    if (bytes.length > MAX_BYTES) {
      throw new IOException("frame of " + bytes.length + " bytes exceeds " + MAX_BYTES);
    }
    out.writeInt(bytes.length);
    out.write(bytes);
    out.flush();
  }

  /**
   * Reads one frame's object, or null at a clean end of stream (before a length). A short frame, an
   * out-of-bounds length or text that is not a JSON object throws {@link IOException}.
   */
  public static Map<String, Object> read(DataInputStream in, int maxBytes) throws IOException {
    int first = in.read();
    if (first < 0) {
      return null;
    }
    int len = (first << 24) | (in.readUnsignedByte() << 16) | in.readUnsignedShort();
    if (len < 0 || len > maxBytes) {
      throw new IOException("frame length " + len + " outside [0, " + maxBytes + "]");
    }
    byte[] bytes = new byte[len];
    try {
      in.readFully(bytes);
    } catch (EOFException e) {
      throw new IOException("stream ended inside a frame of " + len + " bytes", e);
    }
    try {
      return Json.readObject(new String(bytes, StandardCharsets.UTF_8));
    } catch (IllegalArgumentException e) {
      throw new IOException("bad frame: " + e.getMessage(), e);
    }
  }
}
