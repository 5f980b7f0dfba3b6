package dev.javelin.recipes.driver;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;

/**
 * VeRL's validation statistics of one pass of n responses per prompt, named as VeRL names them.
 *
 * <p>Per prompt and variable (the score {@code reward} and every numeric extra of the reward, e.g.
 * {@code acc}): {@code mean@n}; with n > 1 also {@code std@n} and, for k = 2, 4, 8, … below n and k
 * = n, bootstrap estimates over 1000 resamples of size k (drawn with replacement, seed 42) of
 * {@code best@k} (max), {@code worst@k} (min) and, when the reward reports a {@code pred} answer,
 * {@code maj@k} (the value of the first response carrying the resample's most frequent answer),
 * each as {@code /mean} and {@code /std}. Each statistic is then averaged over a data source's
 * prompts. The source's core variable is {@code acc} when reported, else {@code reward}; its {@code
 * mean}, {@code maj} and {@code best} statistics at the largest k go under {@code
 * val-core/<source>/<var>/}, everything else under {@code val-aux/}.
 *
 * <p>The resampling uses Java's generator, so bootstrap values agree with VeRL's statistically, not
 * to the last digit.
 */
final class ValidationMetrics {
  static final int BOOTSTRAPS = 1000;
  static final long SEED = 42;

  /**
   * One response's validation record.
   *
   * @param vars {@code reward} and the reward's numeric extras
   * @param pred the reward's extracted answer, or null when it reports none
   */
  record Response(Map<String, Double> vars, String pred) {}

  private ValidationMetrics() {}

  /**
   * The metrics of a pass: {@code sources.get(p)} is prompt p's data source, {@code responses}
   * holds n responses per prompt, prompt-major.
   */
  static Map<String, Double> compute(List<String> sources, int n, List<Response> responses) {
    // source -> var -> metric -> per-prompt values
    Map<String, Map<String, Map<String, List<Double>>>> bySource = new TreeMap<>();
    for (int p = 0; p < sources.size(); p++) {
      List<Response> group = responses.subList(p * n, p * n + n);
      Map<String, Map<String, List<Double>>> vars =
          bySource.computeIfAbsent(sources.get(p), s -> new TreeMap<>());
      promptMetrics(group)
          .forEach(
              (var, metrics) ->
                  metrics.forEach(
                      (name, v) ->
                          vars.computeIfAbsent(var, x -> new LinkedHashMap<>())
                              .computeIfAbsent(name, x -> new ArrayList<>())
                              .add(v)));
    }
    Map<String, Double> out = new LinkedHashMap<>();
    bySource.forEach(
        (source, vars) -> {
          String core = vars.containsKey("acc") ? "acc" : "reward";
          vars.forEach(
              (var, metrics) -> {
                int nMax =
                    metrics.keySet().stream().mapToInt(ValidationMetrics::atN).max().orElse(1);
                metrics.forEach(
                    (name, vals) -> {
                      boolean isCore =
                          var.equals(core)
                              && (name.startsWith("mean")
                                  || name.startsWith("maj")
                                  || name.startsWith("best"))
                              && atN(name) == nMax;
                      String section = isCore ? "val-core/" : "val-aux/";
                      out.put(section + source + "/" + var + "/" + name, mean(vals));
                    });
              });
        });
    return out;
  }

  /** The N of {@code mean@N} or {@code best@N/mean}. */
  private static int atN(String name) {
    String tail = name.substring(name.indexOf('@') + 1);
    int slash = tail.indexOf('/');
    return Integer.parseInt(slash < 0 ? tail : tail.substring(0, slash));
  }

  /** var -> metric -> value for one prompt's responses. */
  private static Map<String, Map<String, Double>> promptMetrics(List<Response> group) {
    Map<String, List<Double>> byVar = new LinkedHashMap<>();
    for (Response r : group) {
      r.vars().forEach((k, v) -> byVar.computeIfAbsent(k, x -> new ArrayList<>()).add(v));
    }
    boolean hasPred = group.stream().allMatch(r -> r.pred() != null);
    Map<String, Map<String, Double>> out = new LinkedHashMap<>();
    byVar.forEach(
        (var, list) -> {
          double[] vals = list.stream().mapToDouble(Double::doubleValue).toArray();
          int n = vals.length;
          Map<String, Double> m = new LinkedHashMap<>();
          m.put("mean@" + n, mean(vals));
          if (n > 1 && n == group.size()) {
            m.put("std@" + n, std(vals));
            for (int k : subsetSizes(n)) {
              double[][] bw = bootstrapBestWorst(vals, k);
              m.put("best@" + k + "/mean", mean(bw[0]));
              m.put("best@" + k + "/std", std(bw[0]));
              m.put("worst@" + k + "/mean", mean(bw[1]));
              m.put("worst@" + k + "/std", std(bw[1]));
              if (hasPred) {
                double[] maj = bootstrapMajority(vals, group, k);
                m.put("maj@" + k + "/mean", mean(maj));
                m.put("maj@" + k + "/std", std(maj));
              }
            }
          }
          out.put(var, m);
        });
    return out;
  }

  /** 2, 4, 8, … below n, then n. */
  static List<Integer> subsetSizes(int n) {
    List<Integer> ks = new ArrayList<>();
    for (int k = 2; k < n; k *= 2) {
      ks.add(k);
    }
    ks.add(n);
    return ks;
  }

  /**
   * The resample indices: every statistic and prompt draws the same ones for one (n, k), as VeRL
   * reseeds before each bootstrap.
   */
  private static int[][] resamples(int n, int k) {
    Random rng = new Random(SEED);
    int[][] idx = new int[BOOTSTRAPS][k];
    for (int[] row : idx) {
      for (int j = 0; j < k; j++) {
        row[j] = rng.nextInt(n);
      }
    }
    return idx;
  }

  /** {best values, worst values} of each resample of size k. */
  static double[][] bootstrapBestWorst(double[] vals, int k) {
    int[][] idx = resamples(vals.length, k);
    double[][] out = new double[2][BOOTSTRAPS];
    for (int b = 0; b < BOOTSTRAPS; b++) {
      double best = Double.NEGATIVE_INFINITY;
      double worst = Double.POSITIVE_INFINITY;
      for (int i : idx[b]) {
        best = Math.max(best, vals[i]);
        worst = Math.min(worst, vals[i]);
      }
      out[0][b] = best;
      out[1][b] = worst;
    }
    return out;
  }

  /** The majority-vote value of each resample of size k. */
  private static double[] bootstrapMajority(double[] vals, List<Response> group, int k) {
    int[][] idx = resamples(vals.length, k);
    double[] out = new double[BOOTSTRAPS];
    for (int b = 0; b < BOOTSTRAPS; b++) {
      List<String> preds = new ArrayList<>(k);
      double[] sample = new double[k];
      for (int j = 0; j < k; j++) {
        preds.add(group.get(idx[b][j]).pred());
        sample[j] = vals[idx[b][j]];
      }
      out[b] = majority(preds, sample);
    }
    return out;
  }

  /**
   * The value of the first response giving the most frequent answer; a tie goes to the answer seen
   * first.
   */
  static double majority(List<String> preds, double[] vals) {
    Map<String, int[]> votes = new LinkedHashMap<>(); // answer -> {count, first index}
    for (int i = 0; i < preds.size(); i++) {
      int at = i;
      votes.computeIfAbsent(preds.get(i), a -> new int[] {0, at})[0]++;
    }
    int[] best = null;
    for (int[] v : votes.values()) {
      if (best == null || v[0] > best[0]) {
        best = v;
      }
    }
    return best == null ? Double.NaN : vals[best[1]];
  }

  private static double mean(List<Double> v) {
    return v.stream().mapToDouble(Double::doubleValue).average().orElse(Double.NaN);
  }

  private static double mean(double[] v) {
    double s = 0;
    for (double x : v) {
      s += x;
    }
    return v.length == 0 ? Double.NaN : s / v.length;
  }

  /** The population standard deviation (numpy's default). */
  private static double std(double[] v) {
    double m = mean(v);
    double s = 0;
    for (double x : v) {
      s += (x - m) * (x - m);
    }
    return Math.sqrt(s / v.length);
  }
}
