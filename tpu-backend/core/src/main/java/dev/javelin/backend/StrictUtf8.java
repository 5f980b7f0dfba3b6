package dev.javelin.backend;

import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Optional;

/**
 * UTF-8 from bytes another program wrote (GGUF headers, coordination-store frames): malformed input
 * is refused, never replaced with U+FFFD, so that two different byte strings cannot read as the
 * same name.
 */
public final class StrictUtf8 {
  private StrictUtf8() {}

  /** The text of {@code length} bytes at {@code offset}, or empty when they are not valid UTF-8. */
  public static Optional<String> decode(byte[] bytes, int offset, int length) {
    try {
      return Optional.of(
          StandardCharsets.UTF_8
              .newDecoder()
              .onMalformedInput(CodingErrorAction.REPORT)
              .onUnmappableCharacter(CodingErrorAction.REPORT)
              .decode(ByteBuffer.wrap(bytes, offset, length))
              .toString());
    } catch (CharacterCodingException e) {
      return Optional.empty();
    }
  }
}
