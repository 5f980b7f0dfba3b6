package dev.javelin.sampler;

import dev.javelin.weightsync.wire.MalformedWireException;
import dev.javelin.weightsync.wire.WireReader;
import dev.javelin.weightsync.wire.WireWriter;
import java.util.ArrayList;
import java.util.List;

/**
 * The byte forms of request batches and generation results, for actor calls: explicit little-endian
 * layouts, decoded with bounds checks and validated through the records' constructors, never Java
 * serialization.
 *
 * <pre>
 * requests: "JVRQ" i32 format=1 | i32 count | count × { str requestId, str promptUid,
 *   ints prompt, f64 temperature, i32 topK, f64 topP, f64 minP, i32 maxResponseLength,
 *   ints stopTokenIds, u8 greedy, i64 seed }
 * result:   "JVRO" i32 format=1 | i32 count | count × { str requestId, str promptUid,
 *   ints prompt, ints response, f32 logProbs[len(response)], u8 finish, i64 version,
 *   f64 seconds } | metrics { i32 responses, i64 promptTokens, i64 responseTokens, f64 seconds,
 *   i32 prefills, i32 decodeSteps, i32 rows, f64 lengthMean, i32 lengthMax, i32 lengthMin,
 *   f64 clipRatio }
 * </pre>
 *
 * ({@code str} = i32 byte length + UTF-8; {@code ints} = i32 count + i32 values.)
 */
public final class RolloutCodec {
  private static final int REQUESTS_MAGIC = 0x5152564A; // "JVRQ" little-endian
  private static final int RESULT_MAGIC = 0x4F52564A; // "JVRO"
  private static final int FORMAT = 1;
  private static final int MIN_REQUEST_BYTES = 4 + 4 + 4 + 8 + 4 + 8 + 8 + 4 + 4 + 1 + 8;
  private static final int MIN_ROLLOUT_BYTES = 4 + 4 + 4 + 4 + 1 + 8 + 8;

  private RolloutCodec() {}

  public static byte[] encodeRequests(List<GenerationRequest> requests) {
    WireWriter w = new WireWriter().i32(REQUESTS_MAGIC).i32(FORMAT).i32(requests.size());
    for (GenerationRequest r : requests) {
      SamplingParams p = r.params();
      w.string(r.requestId()).string(r.promptUid()).ints(r.promptIds());
      w.f64(p.temperature()).i32(p.topK()).f64(p.topP()).f64(p.minP());
      w.i32(p.maxResponseLength()).ints(p.stopTokenIds()).u8(p.greedy() ? 1 : 0);
      w.i64(r.seed());
    }
    return w.toByteArray();
  }

  /**
   * @throws MalformedWireException when the bytes are not a well-formed request batch
   */
  public static List<GenerationRequest> decodeRequests(byte[] bytes) {
    WireReader in = header(bytes, REQUESTS_MAGIC, "request batch");
    int n = in.count(MIN_REQUEST_BYTES, "request");
    List<GenerationRequest> out = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      String id = in.string("requestId");
      String uid = in.string("promptUid");
      int[] prompt = in.ints("prompt");
      double temperature = in.f64();
      int topK = in.i32();
      double topP = in.f64();
      double minP = in.f64();
      int maxLen = in.i32();
      int[] stops = in.ints("stopTokenIds");
      boolean greedy = flag(in.u8(), "greedy");
      long seed = in.i64();
      out.add(
          validated(
              () ->
                  new GenerationRequest(
                      id,
                      uid,
                      prompt,
                      new SamplingParams(temperature, topK, topP, minP, maxLen, stops, greedy),
                      seed)));
    }
    in.end();
    return out;
  }

  public static byte[] encodeResult(GenerationResult result) {
    WireWriter w = new WireWriter().i32(RESULT_MAGIC).i32(FORMAT).i32(result.rollouts().size());
    for (Rollout r : result.rollouts()) {
      w.string(r.requestId()).string(r.promptUid()).ints(r.promptIds()).ints(r.responseIds());
      w.floats(r.logProbs()).u8(finishCode(r.finish())).i64(r.policyVersion()).f64(r.seconds());
    }
    SamplerMetrics m = result.metrics();
    w.i32(m.responses()).i64(m.promptTokens()).i64(m.responseTokens()).f64(m.seconds());
    w.i32(m.prefills()).i32(m.decodeSteps()).i32(m.rows());
    w.f64(m.lengthMean()).i32(m.lengthMax()).i32(m.lengthMin()).f64(m.clipRatio());
    return w.toByteArray();
  }

  /**
   * @throws MalformedWireException when the bytes are not a well-formed result
   */
  public static GenerationResult decodeResult(byte[] bytes) {
    WireReader in = header(bytes, RESULT_MAGIC, "generation result");
    int n = in.count(MIN_ROLLOUT_BYTES, "rollout");
    List<Rollout> rollouts = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      String id = in.string("requestId");
      String uid = in.string("promptUid");
      int[] prompt = in.ints("prompt");
      int[] response = in.ints("response");
      float[] logProbs = in.floats(response.length, "logProbs");
      FinishReason finish = finishOf(in.u8());
      long version = in.i64();
      double seconds = in.f64();
      rollouts.add(
          validated(
              () -> new Rollout(id, uid, prompt, response, logProbs, finish, version, seconds)));
    }
    // arguments evaluate left to right: the wire order
    SamplerMetrics m =
        new SamplerMetrics(
            in.i32(), in.i64(), in.i64(), in.f64(), in.i32(), in.i32(), in.i32(), in.f64(),
            in.i32(), in.i32(), in.f64());
    in.end();
    return new GenerationResult(rollouts, m);
  }

  private static WireReader header(byte[] bytes, int magic, String what) {
    WireReader in = new WireReader(bytes, what);
    if (in.i32() != magic) {
      throw new MalformedWireException("not a Javelin " + what + " (bad magic)");
    }
    int format = in.i32();
    if (format != FORMAT) {
      throw new MalformedWireException(what + " format " + format + " is not " + FORMAT);
    }
    return in;
  }

  /** Wire codes are fixed here, not taken from declaration order. */
  private static int finishCode(FinishReason f) {
    return switch (f) {
      case STOP -> 0;
      case LENGTH -> 1;
    };
  }

  private static FinishReason finishOf(int code) {
    return switch (code) {
      case 0 -> FinishReason.STOP;
      case 1 -> FinishReason.LENGTH;
      default -> throw new MalformedWireException("unknown finish reason " + code);
    };
  }

  private static boolean flag(int b, String what) {
    if (b > 1) {
      throw new MalformedWireException(what + " flag must be 0 or 1, got " + b);
    }
    return b == 1;
  }

  /** Runs a record constructor, reporting its validation failure as malformed bytes. */
  private static <T> T validated(java.util.function.Supplier<T> build) {
    try {
      return build.get();
    } catch (IllegalArgumentException | NullPointerException e) {
      throw new MalformedWireException("invalid value: " + e.getMessage(), e);
    }
  }
}
