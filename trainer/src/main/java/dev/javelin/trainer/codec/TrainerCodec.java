package dev.javelin.trainer.codec;

import dev.javelin.trainer.SftExample;
import dev.javelin.trainer.TrainSample;
import dev.javelin.trainer.TrainerState;
import dev.javelin.trainer.UpdateResult;
import dev.javelin.weightsync.wire.MalformedWireException;
import dev.javelin.weightsync.wire.WireReader;
import dev.javelin.weightsync.wire.WireWriter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The byte forms {@link dev.javelin.trainer.TrainerActor} takes and returns (Ray cannot serialize
 * records, and we never Java-deserialize). Little-endian; each message starts with a magic word and
 * must be consumed exactly; every length is bounds-checked before allocation.
 */
public final class TrainerCodec {
  private static final int SAMPLES = 0x4A545331; // "JTS1"
  private static final int EXAMPLES = 0x4A534631; // "JSF1"
  private static final int LOGPROBS = 0x4A4C5031; // "JLP1"
  private static final int METRICS = 0x4A4D5431; // "JMT1"
  private static final int STATE = 0x4A535431; // "JST1"
  private static final int UPDATE = 0x4A555031; // "JUP1"
  // Smallest encodings, used to bound counts before allocating.
  private static final int MIN_SAMPLE_BYTES = 4 + 4 + 4 + 4 + 8 + 4 + 4 + 4;
  private static final int MIN_ENTRY_BYTES = 4 + 8;

  private TrainerCodec() {}

  public static byte[] encodeSamples(List<TrainSample> samples) {
    WireWriter w = new WireWriter();
    w.i32(SAMPLES);
    w.i32(samples.size());
    for (TrainSample s : samples) {
      w.string(s.promptUid());
      w.ints(s.promptIds());
      w.ints(s.responseIds());
      w.floatsOrNull(s.rolloutLogProbs());
      w.f64(s.score());
      w.doubles(s.advantages());
      w.floatsOrNull(s.oldLogProbs());
      w.floatsOrNull(s.refLogProbs());
    }
    return w.toByteArray();
  }

  public static List<TrainSample> decodeSamples(byte[] bytes) {
    WireReader r = new WireReader(bytes, "train samples");
    r.expectMagic(SAMPLES);
    int n = r.count(MIN_SAMPLE_BYTES, "items");
    List<TrainSample> out = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      String uid = r.string("string");
      int[] prompt = r.ints("ints");
      int[] response = r.ints("ints");
      float[] rollout = r.floatsOrNull("floats");
      double score = r.f64();
      double[] adv = r.doubles("doubles");
      float[] old = r.floatsOrNull("floats");
      float[] ref = r.floatsOrNull("floats");
      try {
        out.add(new TrainSample(uid, prompt, response, rollout, score, adv, old, ref));
      } catch (IllegalArgumentException e) {
        throw new MalformedWireException("train samples: sample " + i + ": " + e.getMessage(), e);
      }
    }
    r.end();
    return out;
  }

  public static byte[] encodeExamples(List<SftExample> examples) {
    WireWriter w = new WireWriter();
    w.i32(EXAMPLES);
    w.i32(examples.size());
    for (SftExample e : examples) {
      w.ints(e.promptIds());
      w.ints(e.responseIds());
    }
    return w.toByteArray();
  }

  public static List<SftExample> decodeExamples(byte[] bytes) {
    WireReader r = new WireReader(bytes, "sft examples");
    r.expectMagic(EXAMPLES);
    int n = r.count(8, "items");
    List<SftExample> out = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      int[] prompt = r.ints("ints");
      int[] response = r.ints("ints");
      try {
        out.add(new SftExample(prompt, response));
      } catch (IllegalArgumentException e) {
        throw new MalformedWireException("sft examples: example " + i + ": " + e.getMessage(), e);
      }
    }
    r.end();
    return out;
  }

  /** Per-sample log-prob arrays, (N) ragged. */
  public static byte[] encodeLogProbs(float[][] logProbs) {
    WireWriter w = new WireWriter();
    w.i32(LOGPROBS);
    w.i32(logProbs.length);
    for (float[] row : logProbs) {
      if (row == null) {
        throw new IllegalArgumentException("log-prob rows must not be null");
      }
      w.floatsOrNull(row);
    }
    return w.toByteArray();
  }

  public static float[][] decodeLogProbs(byte[] bytes) {
    WireReader r = new WireReader(bytes, "log-probs");
    r.expectMagic(LOGPROBS);
    int n = r.count(4, "items");
    float[][] out = new float[n][];
    for (int i = 0; i < n; i++) {
      out[i] = r.floatsOrNull("floats");
      if (out[i] == null) {
        throw new MalformedWireException("log-probs: row " + i + " is null");
      }
    }
    r.end();
    return out;
  }

  public static byte[] encodeMetrics(Map<String, Double> metrics) {
    WireWriter w = new WireWriter();
    w.i32(METRICS);
    writeMetrics(w, metrics);
    return w.toByteArray();
  }

  /** Metrics in their encoded order. */
  public static Map<String, Double> decodeMetrics(byte[] bytes) {
    WireReader r = new WireReader(bytes, "metrics");
    r.expectMagic(METRICS);
    Map<String, Double> out = readMetrics(r);
    r.end();
    return out;
  }

  /** An update's result: the π_old seconds (NaN for none), then its metrics. */
  public static byte[] encodeUpdate(UpdateResult result) {
    WireWriter w = new WireWriter();
    w.i32(UPDATE);
    w.f64(result.oldLogProbSeconds());
    writeMetrics(w, result.metrics());
    return w.toByteArray();
  }

  public static UpdateResult decodeUpdate(byte[] bytes) {
    WireReader r = new WireReader(bytes, "update result");
    r.expectMagic(UPDATE);
    double oldSeconds = r.f64();
    Map<String, Double> metrics = readMetrics(r);
    r.end();
    return new UpdateResult(metrics, oldSeconds);
  }

  private static void writeMetrics(WireWriter w, Map<String, Double> metrics) {
    w.i32(metrics.size());
    metrics.forEach(
        (k, v) -> {
          w.string(k);
          w.f64(v);
        });
  }

  private static Map<String, Double> readMetrics(WireReader r) {
    int n = r.count(MIN_ENTRY_BYTES, "items");
    Map<String, Double> out = new LinkedHashMap<>();
    for (int i = 0; i < n; i++) {
      String k = r.string("string");
      out.put(k, r.f64());
    }
    return out;
  }

  /** A trainer state; also the form of the driver's extra state (with step count 0). */
  public static byte[] encodeState(TrainerState state) {
    WireWriter w = new WireWriter();
    w.i32(STATE);
    w.i64(state.optimizerSteps());
    w.i32(state.extra().size());
    state
        .extra()
        .forEach(
            (k, v) -> {
              w.string(k);
              w.string(v);
            });
    return w.toByteArray();
  }

  public static TrainerState decodeState(byte[] bytes) {
    WireReader r = new WireReader(bytes, "trainer state");
    r.expectMagic(STATE);
    long steps = r.i64();
    int n = r.count(8, "items");
    Map<String, String> extra = new LinkedHashMap<>();
    for (int i = 0; i < n; i++) {
      String k = r.string("string");
      extra.put(k, r.string("string"));
    }
    r.end();
    try {
      return new TrainerState(steps, extra);
    } catch (IllegalArgumentException e) {
      throw new MalformedWireException("trainer state: " + e.getMessage(), e);
    }
  }
}
