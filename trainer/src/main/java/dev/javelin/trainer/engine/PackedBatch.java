package dev.javelin.trainer.engine;

import dev.javelin.backend.Shape;
import dev.javelin.backend.Tensor;
import dev.javelin.backend.model.TokenBatch;
import java.util.ArrayList;
import java.util.List;

/**
 * Prompt+response sequences packed into one right-padded {@link TokenBatch}, and the index maps
 * between the model's token columns and the loss's response columns.
 *
 * <p>The model scores {@code ids[:, 1:]}: its log-prob column {@code j} is the token at position
 * {@code j + 1}. Response token {@code k} of row {@code i} sits at position {@code P_i + k}, so it
 * is model column {@code P_i + k - 1}. The loss works on (B, R) response-aligned arrays (R = the
 * longest response, or wider), the layout of {@link dev.javelin.grpo.PolicyBatch}.
 */
final class PackedBatch {
  private final TokenBatch tokens;
  private final int[] promptLengths; // (B)
  private final int[] responseLengths; // (B)
  private final int maxResponse;

  private PackedBatch(TokenBatch tokens, int[] promptLengths, int[] responseLengths) {
    this.tokens = tokens;
    this.promptLengths = promptLengths;
    this.responseLengths = responseLengths;
    int r = 0;
    for (int len : responseLengths) {
      r = Math.max(r, len);
    }
    this.maxResponse = r;
  }

  /** Packs rows of {@code prompts.get(i) ++ responses.get(i)}. */
  static PackedBatch of(List<int[]> prompts, List<int[]> responses) {
    if (prompts.size() != responses.size() || prompts.isEmpty()) {
      throw new IllegalArgumentException(
          "need equal, non-zero numbers of prompts and responses, got "
              + prompts.size()
              + " and "
              + responses.size());
    }
    int b = prompts.size();
    List<int[]> rows = new ArrayList<>(b);
    int[] p = new int[b];
    int[] r = new int[b];
    for (int i = 0; i < b; i++) {
      int[] prompt = prompts.get(i);
      int[] response = responses.get(i);
      p[i] = prompt.length;
      r[i] = response.length;
      int[] row = new int[prompt.length + response.length];
      System.arraycopy(prompt, 0, row, 0, prompt.length);
      System.arraycopy(response, 0, row, prompt.length, response.length);
      rows.add(row);
    }
    return new PackedBatch(TokenBatch.rightPadded(rows, 2), p, r);
  }

  TokenBatch tokens() {
    return tokens;
  }

  int rows() {
    return promptLengths.length;
  }

  int maxResponse() {
    return maxResponse;
  }

  int responseLength(int row) {
    return responseLengths[row];
  }

  /** Row {@code row}'s response log-probs out of the model's (B, T-1) output. */
  float[] responseValues(Tensor.F32 perToken, int row) {
    int cols = perToken.shape().dim(1);
    float[] out = new float[responseLengths[row]];
    System.arraycopy(perToken.data(), row * cols + promptLengths[row] - 1, out, 0, out.length);
    return out;
  }

  /** The model's (B, T-1) output as (B, {@code width}) response columns, zero past each end. */
  double[] responseColumns(Tensor.F32 perToken, int width) {
    checkWidth(width);
    int cols = perToken.shape().dim(1);
    double[] out = new double[rows() * width]; // (B, R)
    float[] src = perToken.data();
    for (int i = 0; i < rows(); i++) {
      int from = i * cols + promptLengths[i] - 1;
      for (int k = 0; k < responseLengths[i]; k++) {
        out[i * width + k] = src[from + k];
      }
    }
    return out;
  }

  /**
   * (B, {@code width}) response columns scattered back to a (B, T-1) model cotangent; everything
   * outside the responses is zero, so prompts and padding get no gradient.
   */
  Tensor.F32 tokenColumns(double[] responseCols, int width) {
    checkWidth(width);
    int b = rows();
    int cols = tokens.length() - 1;
    float[] out = new float[b * cols]; // (B, T-1)
    if (responseCols == null) {
      return new Tensor.F32(Shape.of(b, cols), out);
    }
    for (int i = 0; i < b; i++) {
      int to = i * cols + promptLengths[i] - 1;
      for (int k = 0; k < responseLengths[i]; k++) {
        out[to + k] = (float) responseCols[i * width + k];
      }
    }
    return new Tensor.F32(Shape.of(b, cols), out);
  }

  private void checkWidth(int width) {
    if (width < maxResponse) {
      throw new IllegalArgumentException(
          "response width " + width + " is narrower than the longest response " + maxResponse);
    }
  }
}
