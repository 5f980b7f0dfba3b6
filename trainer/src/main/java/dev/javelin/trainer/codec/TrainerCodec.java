package dev.javelin.trainer.codec;

import dev.javelin.trainer.SftExample;
import dev.javelin.trainer.TrainSample;
import dev.javelin.trainer.TrainerState;
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
  // Smallest encodings, used to bound counts before allocating.
  private static final int MIN_SAMPLE_BYTES = 4 + 4 + 4 + 4 + 8 + 4 + 4 + 4;
  private static final int MIN_ENTRY_BYTES = 4 + 8;

  private TrainerCodec() {}

  public static byte[] encodeSamples(List<TrainSample> samples) {
    WireWriter w = new WireWriter();
    w.putInt(SAMPLES);
    w.putInt(samples.size());
    for (TrainSample s : samples) {
      w.putString(s.promptUid());
      w.putInts(s.promptIds());
      w.putInts(s.responseIds());
      w.putFloats(s.rolloutLogProbs());
      w.putDouble(s.score());
      w.putDoubles(s.advantages());
      w.putFloats(s.oldLogProbs());
      w.putFloats(s.refLogProbs());
    }
    return w.toBytes();
  }

  public static List<TrainSample> decodeSamples(byte[] bytes) {
    WireReader r = new WireReader(bytes, "train samples");
    r.expectMagic(SAMPLES);
    int n = r.getCount(MIN_SAMPLE_BYTES);
    List<TrainSample> out = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      String uid = r.getString();
      int[] prompt = r.getInts();
      int[] response = r.getInts();
      float[] rollout = r.getFloatsOrNull();
      double score = r.getDouble();
      double[] adv = r.getDoubles();
      float[] old = r.getFloatsOrNull();
      float[] ref = r.getFloatsOrNull();
      try {
        out.add(new TrainSample(uid, prompt, response, rollout, score, adv, old, ref));
      } catch (IllegalArgumentException e) {
        throw new MalformedMessageException(
            "train samples: sample " + i + ": " + e.getMessage(), e);
      }
    }
    r.end();
    return out;
  }

  public static byte[] encodeExamples(List<SftExample> examples) {
    WireWriter w = new WireWriter();
    w.putInt(EXAMPLES);
    w.putInt(examples.size());
    for (SftExample e : examples) {
      w.putInts(e.promptIds());
      w.putInts(e.responseIds());
    }
    return w.toBytes();
  }

  public static List<SftExample> decodeExamples(byte[] bytes) {
    WireReader r = new WireReader(bytes, "sft examples");
    r.expectMagic(EXAMPLES);
    int n = r.getCount(8);
    List<SftExample> out = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      int[] prompt = r.getInts();
      int[] response = r.getInts();
      try {
        out.add(new SftExample(prompt, response));
      } catch (IllegalArgumentException e) {
        throw new MalformedMessageException(
            "sft examples: example " + i + ": " + e.getMessage(), e);
      }
    }
    r.end();
    return out;
  }

  /** Per-sample log-prob arrays, (N) ragged. */
  public static byte[] encodeLogProbs(float[][] logProbs) {
    WireWriter w = new WireWriter();
    w.putInt(LOGPROBS);
    w.putInt(logProbs.length);
    for (float[] row : logProbs) {
      if (row == null) {
        throw new IllegalArgumentException("log-prob rows must not be null");
      }
      w.putFloats(row);
    }
    return w.toBytes();
  }

  public static float[][] decodeLogProbs(byte[] bytes) {
    WireReader r = new WireReader(bytes, "log-probs");
    r.expectMagic(LOGPROBS);
    int n = r.getCount(4);
    float[][] out = new float[n][];
    for (int i = 0; i < n; i++) {
      out[i] = r.getFloatsOrNull();
      if (out[i] == null) {
        throw new MalformedMessageException("log-probs: row " + i + " is null");
      }
    }
    r.end();
    return out;
  }

  public static byte[] encodeMetrics(Map<String, Double> metrics) {
    WireWriter w = new WireWriter();
    w.putInt(METRICS);
    w.putInt(metrics.size());
    metrics.forEach(
        (k, v) -> {
          w.putString(k);
          w.putDouble(v);
        });
    return w.toBytes();
  }

  /** Metrics in their encoded order. */
  public static Map<String, Double> decodeMetrics(byte[] bytes) {
    WireReader r = new WireReader(bytes, "metrics");
    r.expectMagic(METRICS);
    int n = r.getCount(MIN_ENTRY_BYTES);
    Map<String, Double> out = new LinkedHashMap<>();
    for (int i = 0; i < n; i++) {
      String k = r.getString();
      out.put(k, r.getDouble());
    }
    r.end();
    return out;
  }

  /** A trainer state; also the form of the driver's extra state (with step count 0). */
  public static byte[] encodeState(TrainerState state) {
    WireWriter w = new WireWriter();
    w.putInt(STATE);
    w.putLong(state.optimizerSteps());
    w.putInt(state.extra().size());
    state
        .extra()
        .forEach(
            (k, v) -> {
              w.putString(k);
              w.putString(v);
            });
    return w.toBytes();
  }

  public static TrainerState decodeState(byte[] bytes) {
    WireReader r = new WireReader(bytes, "trainer state");
    r.expectMagic(STATE);
    long steps = r.getLong();
    int n = r.getCount(8);
    Map<String, String> extra = new LinkedHashMap<>();
    for (int i = 0; i < n; i++) {
      String k = r.getString();
      extra.put(k, r.getString());
    }
    r.end();
    try {
      return new TrainerState(steps, extra);
    } catch (IllegalArgumentException e) {
      throw new MalformedMessageException("trainer state: " + e.getMessage(), e);
    }
  }
}
