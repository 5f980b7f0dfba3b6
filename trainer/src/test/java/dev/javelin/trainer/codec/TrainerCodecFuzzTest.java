package dev.javelin.trainer.codec;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.javelin.weightsync.wire.MalformedWireException;
import java.util.List;
import java.util.function.Consumer;

/**
 * Contract: every trainer message decoder returns a value or throws {@link MalformedWireException}.
 */
class TrainerCodecFuzzTest {
  private static final List<Consumer<byte[]>> DECODERS =
      List.of(
          TrainerCodec::decodeSamples,
          TrainerCodec::decodeExamples,
          TrainerCodec::decodeLogProbs,
          TrainerCodec::decodeMetrics,
          TrainerCodec::decodeUpdate,
          TrainerCodec::decodeState);

  @FuzzTest(maxDuration = "12s")
  void anyBytesDecodeOrFailTyped(byte[] bytes) {
    for (Consumer<byte[]> decode : DECODERS) {
      try {
        decode.accept(bytes);
      } catch (MalformedWireException expected) {
        // typed
      }
    }
  }
}
