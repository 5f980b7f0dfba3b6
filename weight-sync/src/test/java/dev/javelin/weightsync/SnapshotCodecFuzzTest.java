package dev.javelin.weightsync;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.javelin.weightsync.wire.MalformedWireException;
import java.nio.ByteBuffer;

/** Contract: any bytes decode to a snapshot or fail with {@link MalformedWireException}. */
class SnapshotCodecFuzzTest {
  @FuzzTest(maxDuration = "12s")
  void anyBytesDecodeOrFailTyped(byte[] bytes) {
    try {
      SnapshotCodec.decode(ByteBuffer.wrap(bytes));
    } catch (MalformedWireException expected) {
      // the typed failure the contract allows
    }
  }
}
