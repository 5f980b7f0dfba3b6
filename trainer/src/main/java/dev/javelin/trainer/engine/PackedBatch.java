package dev.javelin.trainer.engine;

import dev.javelin.backend.Shape;
import dev.javelin.backend.Tensor;
import dev.javelin.backend.batch.PrefixBatch;
import dev.javelin.backend.batch.SequenceBatch;
import dev.javelin.backend.batch.TokenBatch;
import dev.javelin.backend.model.ModelConfig;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * Prompt+response pairs in the layout the model runs fastest ({@link SequenceBatch#pack}: each
 * distinct prompt once when responses share prompts, else dense rows), and the maps between the
 * model's scored columns and the loss's response columns.
 *
 * <p>Response token {@code k} of row {@code i} is model column {@code first[i] + k}: {@code k} in a
 * {@link PrefixBatch}, which scores responses only; {@code P_i + k - 1} in a {@link TokenBatch},
 * which scores {@code ids[:, 1:]}. The loss works on (B, R) response-aligned arrays (R = the
 * longest response, or wider), the layout of {@link dev.javelin.grpo.PolicyBatch}.
 */
final class PackedBatch {
  private final SequenceBatch tokens;
  private final int[] first; // (B) model column of each row's first response token
  private final int[] responseLengths; // (B)
  private final int maxResponse;

  private PackedBatch(SequenceBatch tokens, List<int[]> prompts, List<int[]> responses) {
    this.tokens = tokens;
    int b = responses.size();
    this.first = new int[b];
    this.responseLengths = new int[b];
    int r = 0;
    for (int i = 0; i < b; i++) {
      first[i] = tokens instanceof PrefixBatch ? 0 : prompts.get(i).length - 1;
      responseLengths[i] = responses.get(i).length;
      r = Math.max(r, responseLengths[i]);
    }
    this.maxResponse = r;
  }

  /** Packs rows of {@code prompts.get(i)} followed by {@code responses.get(i)}. */
  static PackedBatch of(List<int[]> prompts, List<int[]> responses, ModelConfig c) {
    return new PackedBatch(SequenceBatch.pack(prompts, responses, c), prompts, responses);
  }

  /** Packs {@code items}, each split into its prompt and its response ids. */
  static <T> PackedBatch of(
      List<T> items, Function<T, int[]> prompt, Function<T, int[]> response, ModelConfig c) {
    List<int[]> prompts = new ArrayList<>(items.size());
    List<int[]> responses = new ArrayList<>(items.size());
    for (T t : items) {
      prompts.add(prompt.apply(t));
      responses.add(response.apply(t));
    }
    return of(prompts, responses, c);
  }

  SequenceBatch tokens() {
    return tokens;
  }

  int rows() {
    return responseLengths.length;
  }

  int maxResponse() {
    return maxResponse;
  }

  int responseLength(int row) {
    return responseLengths[row];
  }

  /** Row {@code row}'s response log-probs out of the model's (B, C) output. */
  float[] responseValues(Tensor.F32 perToken, int row) {
    int cols = perToken.shape().dim(1);
    float[] out = new float[responseLengths[row]];
    System.arraycopy(perToken.data(), row * cols + first[row], out, 0, out.length);
    return out;
  }

  /** The model's (B, C) output as (B, {@code width}) response columns, zero past each end. */
  double[] responseColumns(Tensor.F32 perToken, int width) {
    checkWidth(width);
    int cols = perToken.shape().dim(1);
    double[] out = new double[rows() * width]; // (B, R)
    float[] src = perToken.data();
    for (int i = 0; i < rows(); i++) {
      for (int k = 0; k < responseLengths[i]; k++) {
        out[i * width + k] = src[i * cols + first[i] + k];
      }
    }
    return out;
  }

  /**
   * (B, {@code width}) response columns as the model's (B, C) cotangent; padding past each
   * response's end is zero, so it gets no gradient.
   */
  Tensor.F32 tokenColumns(double[] responseCols, int width) {
    checkWidth(width);
    int b = rows();
    int cols = tokens.scoredColumns();
    float[] out = new float[b * cols]; // (B, C)
    if (responseCols != null) {
      for (int i = 0; i < b; i++) {
        for (int k = 0; k < responseLengths[i]; k++) {
          out[i * cols + first[i] + k] = (float) responseCols[i * width + k];
        }
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
