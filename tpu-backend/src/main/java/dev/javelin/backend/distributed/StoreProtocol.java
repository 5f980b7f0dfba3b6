package dev.javelin.backend.distributed;

import dev.javelin.backend.StrictUtf8;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * The store's wire format: every message is a frame, a big-endian int32 body length followed by the
 * body. A request body is {@code op:u8, keyLength:u16, key:UTF-8, rest}; {@code rest} is the value
 * for SET, an int64 timeout in milliseconds for GET and empty for DELETE. A response body is {@code
 * status:u8} and then the value (GET) or a UTF-8 message (ERROR). Lengths are checked before
 * anything is allocated, so a peer cannot make the other side allocate more than the frame limit.
 */
final class StoreProtocol {
  static final byte SET = 1;
  static final byte GET = 2;
  static final byte DELETE = 3;

  static final byte OK = 0;
  static final byte TIMEOUT = 1;
  static final byte ERROR = 2;

  /**
   * Setting this key ends the store: the server answers, then closes as {@link
   * CoordinationServer#close} does, so a rank in another process can stop its peers at once.
   */
  static final String ABORT_KEY = "gang.abort";

  /** Longest key in UTF-8 bytes. */
  static final int MAX_KEY_BYTES = 1024;

  /** Default largest frame body: values above it must be split by the caller. */
  static final int DEFAULT_MAX_FRAME = 64 << 20;

  private StoreProtocol() {}

  /** A request as read from the wire. */
  record Request(byte op, String key, byte[] rest) {}

  static byte[] keyBytes(String key) {
    byte[] k = key.getBytes(StandardCharsets.UTF_8);
    if (k.length == 0 || k.length > MAX_KEY_BYTES) {
      throw new IllegalArgumentException(
          "a store key must have 1 to " + MAX_KEY_BYTES + " UTF-8 bytes, got " + k.length);
    }
    return k;
  }

  static void writeRequest(DataOutputStream out, byte op, byte[] key, byte[] rest, int maxFrame)
      throws IOException {
    long body = 3L + key.length + rest.length;
    if (body > maxFrame) {
      throw new IllegalArgumentException(
          "a store frame of " + body + " bytes exceeds the limit of " + maxFrame + " bytes");
    }
    out.writeInt((int) body);
    out.writeByte(op);
    out.writeShort(key.length);
    out.write(key);
    out.write(rest);
    out.flush();
  }

  /** Reads one frame body of at most {@code maxFrame} bytes; null at a clean end of stream. */
  static byte[] readFrame(DataInputStream in, int maxFrame) throws IOException {
    int first = in.read();
    if (first < 0) {
      return null;
    }
    int length = (first << 24) | (in.readUnsignedByte() << 16) | in.readUnsignedShort();
    if (length < 1 || length > maxFrame) {
      throw new FrameException(
          "a store frame of "
              + Integer.toUnsignedString(length)
              + " bytes is outside 1.."
              + maxFrame);
    }
    byte[] body = new byte[length];
    in.readFully(body);
    return body;
  }

  static Request parseRequest(byte[] body) throws FrameException {
    if (body.length < 3) {
      throw new FrameException("a store request of " + body.length + " bytes has no key header");
    }
    ByteBuffer b = ByteBuffer.wrap(body);
    byte op = b.get();
    int keyLength = Short.toUnsignedInt(b.getShort());
    if (keyLength == 0 || keyLength > MAX_KEY_BYTES || keyLength > b.remaining()) {
      throw new FrameException(
          "a store key of "
              + keyLength
              + " bytes is outside 1.."
              + Math.min(MAX_KEY_BYTES, b.remaining()));
    }
    String key =
        StrictUtf8.decode(body, 3, keyLength)
            .orElseThrow(() -> new FrameException("a store key is not valid UTF-8"));
    byte[] rest = new byte[body.length - 3 - keyLength];
    System.arraycopy(body, 3 + keyLength, rest, 0, rest.length);
    switch (op) {
      case SET -> {}
      case GET -> {
        if (rest.length != Long.BYTES) {
          throw new FrameException("a store GET carries an 8-byte timeout, got " + rest.length);
        }
      }
      case DELETE -> {
        if (rest.length != 0) {
          throw new FrameException("a store DELETE carries nothing, got " + rest.length + " bytes");
        }
      }
      default -> throw new FrameException("unknown store operation " + op);
    }
    return new Request(op, key, rest);
  }

  static void writeResponse(DataOutputStream out, byte status, byte[] payload) throws IOException {
    out.writeInt(1 + payload.length);
    out.writeByte(status);
    out.write(payload);
    out.flush();
  }

  /** A frame that breaks the protocol: the connection that sent it is answered and closed. */
  static final class FrameException extends IOException {
    FrameException(String message) {
      super(message);
    }
  }
}
