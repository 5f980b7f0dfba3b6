package dev.javelin.grpo.advantage;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Rows grouped by prompt uid, in first-seen order (VeRL's {@code id2score} dicts). */
final class Groups {
  private Groups() {}

  /** uid → row indices. */
  static Map<String, List<Integer>> byUid(String[] uids) {
    Map<String, List<Integer>> groups = new LinkedHashMap<>();
    for (int r = 0; r < uids.length; r++) {
      groups.computeIfAbsent(uids[r], k -> new ArrayList<>()).add(r);
    }
    return groups;
  }

  /** μ of the scores at {@code rows}. */
  static double mean(double[] s, List<Integer> rows) {
    double sum = 0.0;
    for (int r : rows) {
      sum += s[r];
    }
    return sum / rows.size();
  }

  /** Unbiased σ (divides by N − 1, like torch.std); needs at least two rows. */
  static double std(double[] s, List<Integer> rows) {
    double mu = mean(s, rows);
    double ss = 0.0;
    for (int r : rows) {
      ss += (s[r] - mu) * (s[r] - mu);
    }
    return Math.sqrt(ss / (rows.size() - 1));
  }

  /** Broadcasts one scalar per row over the row's valid tokens: (B,) → (B, T). */
  static double[] broadcast(double[] perRow, boolean[] mask, int cols) {
    double[] out = new double[mask.length]; // (B, T)
    for (int i = 0; i < out.length; i++) {
      out[i] = mask[i] ? perRow[i / cols] : 0.0;
    }
    return out;
  }
}
