package dev.javelin.rewards.bench;

import dev.javelin.rewards.BatchScorer;
import dev.javelin.rewards.ProcessScorer;
import dev.javelin.rewards.RewardInput;
import dev.javelin.rewards.RewardRegistry;
import dev.javelin.rewards.RewardScorer;
import dev.javelin.rewards.RewardScorerConfig;
import dev.javelin.rewards.RewardSpec;
import dev.javelin.rewards.ScoredBatch;
import dev.javelin.rewards.worker.WorkerConfig;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * Throughput of a simple user reward (a {@code .java} file, as {@code custom_reward_function.path}
 * names one) scoring 10,000 responses: in this JVM through the pooled {@link RewardScorer}, then in
 * reward worker processes through {@link ProcessScorer}. Prints the median of 7 rounds after a
 * warm-up round, and the pool's start-up time. Run (from the repository root):
 *
 * <pre>
 * ./mvnw -B -q -o -pl rewards test-compile exec:java -Dexec.classpathScope=test \
 *     -Dexec.mainClass=dev.javelin.rewards.bench.RewardWorkerBench
 * </pre>
 */
public final class RewardWorkerBench {
  private static final int N = 10_000;
  private static final int ROUNDS = 7;
  private static final String REWARD =
      """
      package bench;

      public final class ContainsAnswer implements dev.javelin.rewards.RewardFunction {
        @Override public String name() { return "contains_answer"; }
        @Override public dev.javelin.rewards.RewardResult score(dev.javelin.rewards.RewardInput in) {
          int at = in.response().lastIndexOf("#### ");
          String said = at < 0 ? "" : in.response().substring(at + 5).trim();
          return dev.javelin.rewards.RewardResult.of(said.equals(in.groundTruth()) ? 1.0 : 0.0)
              .with("length", in.response().length());
        }
      }
      """;

  private RewardWorkerBench() {}

  public static void main(String[] args) throws IOException {
    Path src = Files.createTempDirectory("reward-bench").resolve("ContainsAnswer.java");
    Files.writeString(src, REWARD);
    RewardSpec spec = new RewardSpec(src.toString(), "bench.ContainsAnswer", null, Map.of());
    List<RewardInput> in = inputs();
    int cores = Runtime.getRuntime().availableProcessors();
    System.out.printf("cores=%d responses=%d rounds=%d (median)%n", cores, N, ROUNDS);
    try (BatchScorer local =
        new RewardScorer(
            RewardRegistry.forSpec(spec).resolve(spec), RewardScorerConfig.defaults())) {
      report("in process (" + cores + " threads)", local, in);
    }
    WorkerConfig config = WorkerConfig.defaults();
    long t0 = System.nanoTime();
    try (BatchScorer workers = new ProcessScorer(spec, config)) {
      System.out.printf("worker pool start-up: %.0f ms%n", (System.nanoTime() - t0) / 1e6);
      report("reward workers (" + config.workers() + " processes)", workers, in);
    }
  }

  private static List<RewardInput> inputs() {
    Random rnd = new Random(7);
    List<RewardInput> in = new ArrayList<>(N);
    for (int i = 0; i < N; i++) {
      int answer = rnd.nextInt(1000);
      String said = Integer.toString(rnd.nextBoolean() ? answer : answer + 1);
      String work = "Step by step: " + "we add the numbers and carry the ones. ".repeat(8);
      in.add(
          new RewardInput(
              "bench", "Question " + i + "?", work + "#### " + said, "" + answer, Map.of("i", i)));
    }
    return in;
  }

  private static void report(String what, BatchScorer scorer, List<RewardInput> in) {
    double[] rates = new double[ROUNDS];
    scorer.scoreAll(in); // warm-up
    for (int r = 0; r < ROUNDS; r++) {
      long t0 = System.nanoTime();
      ScoredBatch b = scorer.scoreAll(in);
      rates[r] = N / ((System.nanoTime() - t0) / 1e9);
      if (b.metrics().get("reward/errors") + b.metrics().get("reward/timeouts") > 0) {
        throw new IllegalStateException(what + ": failures " + b.metrics());
      }
    }
    Arrays.sort(rates);
    System.out.printf(
        "%-32s %,10.0f responses/s (min %,.0f, max %,.0f)%n",
        what, rates[ROUNDS / 2], rates[0], rates[ROUNDS - 1]);
  }
}
