package dev.javelin.datasets;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.Locale;
import java.util.function.Supplier;

/**
 * Load-time benchmark for docs/perf/datasets.md: median wall time and rows per second of loading
 * GSM8K train (JSONL) and the VeRL GSM8K test parquet, each in a fresh load (new DuckDB connection
 * for parquet) after warm-up runs.
 *
 * <p>Run: {@code ./mvnw -B -q -pl datasets -DskipTests test-compile exec:java
 * -Dexec.classpathScope=test -Dexec.mainClass=dev.javelin.datasets.LoadBenchmark}
 */
public final class LoadBenchmark {
  private static final int WARMUP = 3;
  private static final int RUNS = 9;

  private LoadBenchmark() {}

  public static void main(String[] args) {
    Path shared = Path.of(System.getProperty("javelin.root", ".")).resolve("../shared/datasets");
    measure(
        "gsm8k/train.jsonl",
        () -> Datasets.load(DatasetSpec.gsm8k(shared.resolve("gsm8k/train.jsonl"))));
    measure(
        "verl-gsm8k/test.parquet",
        () -> Datasets.load(DatasetSpec.verlParquet(shared.resolve("verl-gsm8k/test.parquet"))));
  }

  private static void measure(String name, Supplier<LoadResult> load) {
    int rows = 0;
    for (int i = 0; i < WARMUP; i++) {
      rows = load.get().examples().size();
    }
    double[] millis = new double[RUNS];
    for (int i = 0; i < RUNS; i++) {
      long start = System.nanoTime();
      rows = load.get().examples().size();
      millis[i] = (System.nanoTime() - start) / 1e6;
    }
    Arrays.sort(millis);
    double median = millis[RUNS / 2];
    System.out.printf(
        Locale.ROOT,
        "%-24s rows=%d median=%.1f ms (min %.1f, max %.1f) -> %.0f rows/s%n",
        name,
        rows,
        median,
        millis[0],
        millis[RUNS - 1],
        rows / (median / 1000.0));
  }
}
