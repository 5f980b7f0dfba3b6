package dev.javelin.backend.runtime;

import dev.javelin.backend.DType;
import dev.javelin.backend.Tensor;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Greedy decoding of a {@link PolicyModel} on its {@link SlotDecoder}, argmax at every step: the
 * deterministic reference that parity checks compare token by token (against transformers, across
 * devices, meshes and precisions, and against the sampler's own loop at temperature 0).
 */
public final class GreedyDecode {
  private GreedyDecode() {}

  /**
   * Greedy generation: each row stops after {@code eosId} or {@code maxNewTokens} tokens. Returns
   * the generated tokens of each row (prompt excluded). Runs on the sampler's {@link SlotDecoder},
   * so finished rows stop costing cache writes while the others go on.
   */
  public static List<int[]> generate(
      PolicyModel model, List<int[]> prompts, int maxNewTokens, int eosId) {
    return generate(model, prompts, maxNewTokens, eosId, DType.F32);
  }

  /** As above, decoding in {@code decode} (f32, or bf16 with a bf16 KV cache). */
  public static List<int[]> generate(
      PolicyModel model, List<int[]> prompts, int maxNewTokens, int eosId, DType decode) {
    if (prompts.isEmpty() || maxNewTokens < 1) {
      throw new IllegalArgumentException("need prompts and maxNewTokens >= 1");
    }
    int rows = prompts.size();
    int[] pos = new int[rows];
    for (int r = 0; r < rows; r++) {
      pos[r] = prompts.get(r).length;
      if (pos[r] == 0) {
        throw new IllegalArgumentException("prompt " + r + " is empty");
      }
    }
    int longest = Arrays.stream(pos).max().orElseThrow();
    List<int[]> out = new ArrayList<>();
    try (SlotDecoder decoder = SlotDecoder.open(model, rows, longest + maxNewTokens - 1, decode)) {
      Tensor.F32 logits = decoder.prefill(prompts);
      int[][] got = new int[rows][maxNewTokens];
      int[] count = new int[rows];
      boolean[] active = new boolean[rows];
      Arrays.fill(active, true);
      int v = model.config().vocabSize();
      int[] next = new int[rows];
      while (true) {
        boolean any = false;
        for (int r = 0; r < rows; r++) {
          if (active[r]) {
            next[r] = argmax(logits.data(), r * v, v);
            got[r][count[r]++] = next[r];
            active[r] = next[r] != eosId && count[r] < maxNewTokens;
            any |= active[r];
          }
        }
        if (!any) {
          break;
        }
        logits = decoder.step(next, pos, active);
        for (int r = 0; r < rows; r++) {
          pos[r] += active[r] ? 1 : 0;
        }
      }
      for (int r = 0; r < rows; r++) {
        out.add(Arrays.copyOf(got[r], count[r]));
      }
    }
    return out;
  }

  /** Index of the largest of {@code x[from .. from + n)}; the first on ties. */
  public static int argmax(float[] x, int from, int n) {
    int best = 0;
    for (int i = 1; i < n; i++) {
      if (x[from + i] > x[from + best]) {
        best = i;
      }
    }
    return best;
  }
}
