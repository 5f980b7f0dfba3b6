package dev.javelin.backend.batch;

import dev.javelin.backend.DType;
import dev.javelin.backend.Shape;
import dev.javelin.backend.Tensor;
import dev.javelin.backend.graph.Program;
import dev.javelin.backend.model.LoraConfig;
import dev.javelin.backend.model.ModelConfig;
import dev.javelin.backend.program.ModelPrograms;
import dev.javelin.backend.program.PrefixPrograms;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Prompt + response pairs laid out so that each distinct prompt is run once: G right-padded prompts
 * (G, P) and B right-padded responses (B, R), response row b following prompt row {@code
 * prefixRow[b]}. GRPO draws n responses per prompt, and in short-answer tasks the prompt is most of
 * each sequence, so a dense (B, P + R) batch repeats the same prompt work n times (arith-grpo:
 * 9-token prompts, ≤ 5-token responses, n = 8: 2.4× fewer token rows). See {@link PrefixPrograms}.
 *
 * <p>The outputs score the response tokens only: column j of row b is {@code log π(response_b[j] |
 * prompt, response_b[<j])}.
 */
public final class PrefixBatch implements SequenceBatch {
  private final List<int[]> prompts; // G distinct prompts
  private final List<int[]> responses; // B responses
  private final int[] prefixRow; // (B)
  private final int longestResponse;
  private final int groups; // G', P', R': the padded shape (the real sizes when not bucketed)
  private final int promptWidth;
  private final int responseWidth;

  private PrefixBatch(
      List<int[]> prompts, List<int[]> responses, int[] prefixRow, int g, int p, int r) {
    this.prompts = prompts;
    this.responses = responses;
    this.prefixRow = prefixRow;
    int longest = 1;
    for (int[] resp : responses) {
      longest = Math.max(longest, resp.length);
    }
    this.longestResponse = longest;
    this.groups = g;
    this.promptWidth = p;
    this.responseWidth = r;
  }

  /**
   * Pairs {@code prompts.get(i)} with {@code responses.get(i)}; equal prompts (by content) share
   * one prompt row. Prompts need at least one token; responses may be empty.
   */
  public static PrefixBatch of(List<int[]> prompts, List<int[]> responses) {
    if (prompts.size() != responses.size() || prompts.isEmpty()) {
      throw new IllegalArgumentException(
          "need equal, non-zero numbers of prompts and responses, got "
              + prompts.size()
              + " and "
              + responses.size());
    }
    DistinctPrompts d = DistinctPrompts.of(prompts);
    int p = 1;
    int r = 1;
    for (int i = 0; i < prompts.size(); i++) {
      if (prompts.get(i).length == 0) {
        throw new IllegalArgumentException(
            "prompt " + i + " is empty: it needs at least one token");
      }
      p = Math.max(p, prompts.get(i).length);
      r = Math.max(r, responses.get(i).length);
    }
    List<int[]> distinct = d.prompts();
    int[] prefixRow = d.rowOf();
    return new PrefixBatch(distinct, List.copyOf(responses), prefixRow, distinct.size(), p, r);
  }

  /**
   * Shape buckets for G, P and R: exact up to 16 (short prompts and answers are where padding costs
   * most), then 24, 32, 48, 64, ... (two per octave), so a run compiles few programs and pads at
   * most a third.
   */
  static int bucket(int n) {
    if (n <= 16) {
      return n;
    }
    int pow = Integer.highestOneBit(n - 1) << 1;
    return n <= pow / 4 * 3 ? pow / 4 * 3 : pow;
  }

  @Override
  public PrefixBatch atBucket(ModelConfig c) {
    for (int b = 0; b < responses.size(); b++) {
      int len = prompts.get(prefixRow[b]).length + responses.get(b).length;
      if (len > c.maxPositions()) {
        throw new IllegalArgumentException(
            "row " + b + ": " + len + " tokens exceed maxPositions " + c.maxPositions());
      }
    }
    return new PrefixBatch(
        prompts, responses, prefixRow, bucket(groups), bucket(promptWidth), bucket(responseWidth));
  }

  /** Distinct prompts G (before bucket padding). */
  public int groups() {
    return prompts.size();
  }

  @Override
  public int rows() {
    return responses.size();
  }

  /** The longest response R (before bucket padding). */
  @Override
  public int scoredColumns() {
    return longestResponse;
  }

  /** Tokens of response {@code row}. */
  public int responseLength(int row) {
    return responses.get(row).length;
  }

  @Override
  public int tokenRows(ModelConfig c) {
    PrefixBatch at = atBucket(c);
    return at.groups * at.promptWidth + rows() * at.responseWidth;
  }

  @Override
  public String shapeKey() {
    return "g" + groups + "_p" + promptWidth + "_b" + rows() + "_r" + responseWidth;
  }

  @Override
  public Program logProbsProgram(ModelConfig c, LoraConfig lora, DType compute) {
    return PrefixPrograms.logProbs(
        c, groups, promptWidth, rows(), responseWidth, c.maxPositions(), lora, compute);
  }

  @Override
  public Map<String, Tensor> tokenInputs() {
    int g = groups;
    int p = promptWidth;
    int b = rows();
    int r = responseWidth;
    int[] prefixIds = new int[g * p]; // (G, P)
    float[] prefixMask = new float[g * p];
    for (int k = 0; k < prompts.size(); k++) {
      int[] prompt = prompts.get(k);
      System.arraycopy(prompt, 0, prefixIds, k * p, prompt.length);
      Arrays.fill(prefixMask, k * p, k * p + prompt.length, 1f);
    }
    int[] responseIds = new int[b * r]; // (B, R)
    float[] responseMask = new float[b * r];
    for (int k = 0; k < b; k++) {
      int[] resp = responses.get(k);
      System.arraycopy(resp, 0, responseIds, k * r, resp.length);
      Arrays.fill(responseMask, k * r, k * r + resp.length, 1f);
    }
    Map<String, Tensor> in = new HashMap<>();
    in.put(PrefixPrograms.PREFIX_IDS, new Tensor.I32(Shape.of(g, p), prefixIds));
    in.put(PrefixPrograms.PREFIX_MASK, new Tensor.F32(Shape.of(g, p), prefixMask));
    in.put(PrefixPrograms.RESPONSE_IDS, new Tensor.I32(Shape.of(b, r), responseIds));
    in.put(PrefixPrograms.RESPONSE_MASK, new Tensor.F32(Shape.of(b, r), responseMask));
    in.put(PrefixPrograms.PREFIX_ROW, new Tensor.I32(Shape.of(b), prefixRow.clone()));
    in.put(ModelPrograms.POSITIONS, new Tensor.I32(Shape.of(g * p + b * r), positions()));
    in.put(PrefixPrograms.SCORE_ROWS, new Tensor.I32(Shape.of(b * r), scoreRows()));
    return in;
  }

  /**
   * Rotary positions (G·P + B·R) of the token rows: prompt token i at i, response token j at {@code
   * |prompt| + j}; padding at 0 (masked, any valid position will do).
   */
  private int[] positions() {
    int p = promptWidth;
    int r = responseWidth;
    int[] pos = new int[groups * p + rows() * r];
    for (int k = 0; k < prompts.size(); k++) {
      for (int i = 0; i < prompts.get(k).length; i++) {
        pos[k * p + i] = i;
      }
    }
    for (int b = 0; b < rows(); b++) {
      int start = prompts.get(prefixRow[b]).length;
      int at = groups * p + b * r;
      for (int j = 0; j < responses.get(b).length; j++) {
        pos[at + j] = start + j;
      }
    }
    return pos;
  }

  /**
   * For each response token (B·R), the token row whose hidden state predicts it: the prompt's last
   * token for j = 0, else response token j - 1.
   */
  private int[] scoreRows() {
    int p = promptWidth;
    int r = responseWidth;
    int[] rows = new int[rows() * r];
    for (int b = 0; b < rows(); b++) {
      int g = prefixRow[b];
      rows[b * r] = g * p + prompts.get(g).length - 1;
      for (int j = 1; j < r; j++) {
        rows[b * r + j] = groups * p + b * r + j - 1;
      }
    }
    return rows;
  }
}
