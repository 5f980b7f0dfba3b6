package dev.javelin.sampler;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.javelin.weightsync.wire.MalformedWireException;

/**
 * Contract: bytes from another process decode to requests or results, or fail with {@link
 * MalformedWireException}; never an index error or a header-sized allocation.
 */
class RolloutCodecFuzzTest {
  @FuzzTest(maxDuration = "12s")
  void anyBytesDecodeOrFailTyped(byte[] bytes) {
    try {
      RolloutCodec.decodeRequests(bytes);
    } catch (MalformedWireException expected) {
      // typed
    }
    try {
      RolloutCodec.decodeResult(bytes);
    } catch (MalformedWireException expected) {
      // typed
    }
  }
}
