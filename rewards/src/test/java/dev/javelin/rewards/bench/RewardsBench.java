package dev.javelin.rewards.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.javelin.rewards.RewardFunction;
import dev.javelin.rewards.RewardInput;
import dev.javelin.rewards.RewardRegistry;
import dev.javelin.rewards.RewardScorer;
import dev.javelin.rewards.RewardScorerConfig;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * Scoring throughput of {@code gsm8k} and {@code math} on the shared datasets' reference solutions,
 * single-threaded and through the pooled {@link RewardScorer}, then {@code math}'s milliseconds per
 * 1,000 responses in both extraction modes on MATH-500 and the labelled agreement sets. Prints
 * medians of 5 rounds. Run (from the repository root):
 *
 * <pre>
 * ./mvnw -B -q -o -pl rewards test-compile exec:java -Dexec.classpathScope=test \
 *     -Dexec.mainClass=dev.javelin.rewards.bench.RewardsBench
 * </pre>
 */
public final class RewardsBench {

  private static final int ROUNDS = 5;

  private RewardsBench() {}

  public static void main(String[] args) throws IOException {
    Path data = Path.of(System.getProperty("javelin.root", ".")).resolve("../shared/datasets");
    List<RewardInput> gsm8k = new ArrayList<>();
    for (JsonNode row : rows(data.resolve("gsm8k/test.jsonl"))) {
      String sol = row.get("answer").asText();
      gsm8k.add(RewardInput.of("openai/gsm8k", sol, sol.substring(sol.lastIndexOf("#### ") + 5)));
    }
    List<RewardInput> math = new ArrayList<>();
    for (JsonNode row : rows(data.resolve("math500/test.jsonl"))) {
      math.add(RewardInput.of("math500", row.get("solution").asText(), row.get("answer").asText()));
    }
    RewardRegistry registry = RewardRegistry.load();
    int cores = Runtime.getRuntime().availableProcessors();
    System.out.printf("cores=%d rounds=%d (median responses/s)%n", cores, ROUNDS);
    report("gsm8k", registry.create("gsm8k", Map.of()), gsm8k, cores);
    report("math", registry.create("math", Map.of()), math, cores);
    perThousand(registry, "math500 references", math);
    for (String set : List.of("issue_shapes.jsonl", "math500_forms.jsonl")) {
      perThousand(registry, set, agreementSet(set));
    }
  }

  /** Single-thread milliseconds per 1,000 responses, in both extraction modes. */
  private static void perThousand(RewardRegistry registry, String name, List<RewardInput> in) {
    for (String mode : List.of("verl", "math_verify")) {
      RewardFunction f = registry.create("math", Map.of("extraction", mode));
      single(f, in); // warm-up
      double[] rates = new double[ROUNDS];
      for (int r = 0; r < ROUNDS; r++) {
        rates[r] = single(f, in);
      }
      System.out.printf(
          "math extraction=%s on %s (n=%d): %.2f ms per 1,000%n",
          mode, name, in.size(), 1e6 / median(rates));
    }
  }

  private static List<RewardInput> agreementSet(String name) throws IOException {
    List<RewardInput> out = new ArrayList<>();
    try (var in = RewardsBench.class.getResourceAsStream("/rewards/agreement/" + name)) {
      if (in == null) {
        throw new IOException("missing test resource rewards/agreement/" + name);
      }
      ObjectMapper json = new ObjectMapper();
      for (String line : new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n", -1)) {
        if (!line.isBlank()) {
          JsonNode row = json.readTree(line);
          out.add(
              RewardInput.of(
                  "math", row.get("response").asText(), row.get("ground_truth").asText()));
        }
      }
    }
    return out;
  }

  private static void report(String name, RewardFunction f, List<RewardInput> inputs, int cores) {
    single(f, inputs); // warm-up
    double[] single = new double[ROUNDS];
    for (int r = 0; r < ROUNDS; r++) {
      single[r] = single(f, inputs);
    }
    List<RewardInput> many = new ArrayList<>();
    while (many.size() < 20_000) {
      many.addAll(inputs);
    }
    double[] pooled = new double[ROUNDS];
    try (RewardScorer scorer =
        new RewardScorer(f, RewardScorerConfig.defaults().withParallelism(cores))) {
      scorer.scoreAll(many); // warm-up
      for (int r = 0; r < ROUNDS; r++) {
        long t0 = System.nanoTime();
        double mean = scorer.scoreAll(many).metrics().get("reward/mean");
        pooled[r] = many.size() / ((System.nanoTime() - t0) / 1e9);
        if (mean != 1.0 && name.equals("gsm8k")) {
          throw new IllegalStateException("reference solutions must all score 1, mean " + mean);
        }
      }
    }
    System.out.printf(
        "%-6s n=%d single=%.0f/s pooled(%d threads)=%.0f/s%n",
        name, inputs.size(), median(single), cores, median(pooled));
  }

  private static double single(RewardFunction f, List<RewardInput> inputs) {
    long t0 = System.nanoTime();
    int n = 0;
    double sum = 0;
    while (System.nanoTime() - t0 < 1_000_000_000L) {
      for (RewardInput in : inputs) {
        sum += f.score(in).score();
        n++;
      }
    }
    if (sum < 0) {
      throw new IllegalStateException("unreachable; keeps the loop from being optimised away");
    }
    return n / ((System.nanoTime() - t0) / 1e9);
  }

  private static double median(double[] xs) {
    double[] c = xs.clone();
    Arrays.sort(c);
    return c[c.length / 2];
  }

  private static List<JsonNode> rows(Path p) throws IOException {
    ObjectMapper json = new ObjectMapper();
    List<JsonNode> out = new ArrayList<>();
    for (String line : Files.readAllLines(p, StandardCharsets.UTF_8)) {
      if (!line.isBlank()) {
        out.add(json.readTree(line));
      }
    }
    return out;
  }
}
