package dev.javelin.weightsync;

import com.code_intelligence.jazzer.junit.FuzzTest;
import java.nio.ByteBuffer;

/** Contract: any bytes decode to a snapshot or fail with {@link MalformedSnapshotException}. */
class SnapshotCodecFuzzTest {
  @FuzzTest(maxDuration = "12s")
  void anyBytesDecodeOrFailTyped(byte[] bytes) {
    try {
      SnapshotCodec.decode(ByteBuffer.wrap(bytes));
    } catch (MalformedSnapshotException expected) {
      // the typed failure the contract allows
    }
  }
}
