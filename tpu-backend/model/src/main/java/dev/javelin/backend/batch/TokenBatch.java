package dev.javelin.backend.batch;

import dev.javelin.backend.DType;
import dev.javelin.backend.Shape;
import dev.javelin.backend.Tensor;
import dev.javelin.backend.graph.Program;
import dev.javelin.backend.model.LoraConfig;
import dev.javelin.backend.model.ModelConfig;
import dev.javelin.backend.program.ModelPrograms;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * Right-padded token sequences: ids (B, T) i32 and attention mask (B, T) f32, 1 on real tokens.
 * Each row's real tokens come first (prompt then response); positions are 0..T-1.
 */
public record TokenBatch(Tensor.I32 ids, Tensor.F32 mask) implements SequenceBatch {

  public TokenBatch {
    if (ids.shape().rank() != 2 || !ids.shape().equals(mask.shape())) {
      throw new IllegalArgumentException(
          "ids and mask must both be (B, T); got " + ids.shape() + " and " + mask.shape());
    }
    if (ids.shape().dim(1) < 2) {
      throw new IllegalArgumentException(
          "sequences need at least 2 tokens, T=" + ids.shape().dim(1));
    }
    for (float m : mask.data()) {
      if (m != 0f && m != 1f) {
        throw new IllegalArgumentException("mask values must be 0 or 1, got " + m);
      }
    }
  }

  /** Pads {@code sequences} on the right with id 0 to the longest (or {@code minLength}). */
  public static TokenBatch rightPadded(List<int[]> sequences, int minLength) {
    int t = minLength;
    for (int[] s : sequences) {
      t = Math.max(t, s.length);
    }
    int b = sequences.size();
    int[] ids = new int[b * t];
    float[] mask = new float[b * t];
    for (int r = 0; r < b; r++) {
      int[] s = sequences.get(r);
      System.arraycopy(s, 0, ids, r * t, s.length);
      Arrays.fill(mask, r * t, r * t + s.length, 1f);
    }
    return new TokenBatch(
        new Tensor.I32(Shape.of(b, t), ids), new Tensor.F32(Shape.of(b, t), mask));
  }

  /** Fails unless there is a next token to score: log-probs and training need T >= 2. */
  public TokenBatch requireScorable() {
    if (length() < 2) {
      throw new IllegalArgumentException(
          "log-probs need sequences of at least 2 tokens, T=" + length());
    }
    return this;
  }

  public int batch() {
    return ids.shape().dim(0);
  }

  public int length() {
    return ids.shape().dim(1);
  }

  /** The same batch with extra padding columns up to length {@code t}. */
  public TokenBatch padTo(int t) {
    if (t == length()) {
      return this;
    }
    if (t < length()) {
      throw new IllegalArgumentException("cannot pad length " + length() + " down to " + t);
    }
    int b = batch();
    int[] ids2 = new int[b * t];
    float[] mask2 = new float[b * t];
    for (int r = 0; r < b; r++) {
      System.arraycopy(ids.data(), r * length(), ids2, r * t, length());
      System.arraycopy(mask.data(), r * length(), mask2, r * t, length());
    }
    return new TokenBatch(
        new Tensor.I32(Shape.of(b, t), ids2), new Tensor.F32(Shape.of(b, t), mask2));
  }

  /** Positions 0..T-1 for every row. */
  public Tensor.I32 positions() {
    int b = batch();
    int t = length();
    int[] p = new int[b * t];
    for (int i = 0; i < p.length; i++) {
      p[i] = i % t;
    }
    return new Tensor.I32(Shape.of(b, t), p);
  }

  @Override
  public int rows() {
    return batch();
  }

  @Override
  public int scoredColumns() {
    return length() - 1;
  }

  @Override
  public TokenBatch atBucket(ModelConfig c) {
    return requireScorable().padTo(SequenceBatch.lengthBucket(c, length()));
  }

  @Override
  public String shapeKey() {
    return "b" + batch() + "_t" + length();
  }

  @Override
  public Program logProbsProgram(ModelConfig c, LoraConfig lora, DType compute) {
    return ModelPrograms.logProbs(c, batch(), length(), c.maxPositions(), lora, compute);
  }

  @Override
  public Map<String, Tensor> tokenInputs() {
    return Map.of(
        ModelPrograms.INPUT_IDS, ids,
        ModelPrograms.POSITIONS, positions(),
        ModelPrograms.ATTENTION_MASK, mask);
  }

  @Override
  public int tokenRows(ModelConfig c) {
    return batch() * SequenceBatch.lengthBucket(c, length());
  }
}
