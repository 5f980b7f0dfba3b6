package dev.javelin.recipes.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.javelin.recipes.config.RecipeConfig;
import dev.javelin.recipes.driver.Validator;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * What {@code javelin eval} reports besides the metrics: its time, generated tokens per second and
 * a few greedy generations with their scores; printed, and appended as one line to {@code
 * eval.jsonl} in the run directory (the generations also go to {@code eval_generations.jsonl}).
 */
record EvalReport(
    String target,
    String model,
    Map<String, Double> metrics,
    double seconds,
    long tokens,
    List<Validator.Sample> samples) {
  static final String FILE = "eval.jsonl";
  static final String GENERATIONS = "eval_generations.jsonl";
  private static final int PRINTED = 3;
  private static final int MAX_CHARS = 160;

  /**
   * The run directory an eval belongs to: a checkpoint's run (its parent), a run directory itself,
   * else (a recipe) the recipe's {@code trainer.default_local_dir}; created when missing.
   */
  static Path dirFor(String target, RecipeConfig recipe) {
    Path dir = runDirOf(target, recipe);
    try {
      return Files.createDirectories(dir);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot create " + dir, e);
    }
  }

  private static Path runDirOf(String target, RecipeConfig recipe) {
    Path p = Path.of(target);
    return Files.isDirectory(p) ? runDirOf(p) : recipe.trainer().defaultLocalDir();
  }

  /**
   * Where evaluating the directory {@code dir} writes: a run directory itself, else (a checkpoint
   * or model directory) the folder that holds it, never a place its recorded recipe names.
   */
  static Path runDirOf(Path dir) {
    if (!Files.isRegularFile(dir.resolve("config.json"))) {
      return dir;
    }
    Path parent = dir.toAbsolutePath().getParent();
    return parent == null ? dir : parent;
  }

  double tokensPerSecond() {
    return seconds > 0 ? tokens / seconds : 0;
  }

  /** The time and throughput line, then a few generations. */
  EvalReport print(PrintStream out) {
    out.printf(
        Locale.ROOT,
        "eval took %.1f s: %d response tokens, %.0f tok/s%n",
        seconds,
        tokens,
        tokensPerSecond());
    for (int i = 0; i < Math.min(PRINTED, samples.size()); i++) {
      Validator.Sample s = samples.get(i);
      out.printf(
          Locale.ROOT,
          "sample %d (score %.3f): %s -> %s%n",
          i + 1,
          s.score(),
          shorten(s.prompt()),
          shorten(s.response()));
    }
    return this;
  }

  /** Appends this report as one JSON line to {@code dir/eval.jsonl}; returns the file. */
  Path write(Path dir) {
    ObjectMapper json = new ObjectMapper();
    ObjectNode line = json.createObjectNode();
    line.put("time", Instant.now().toString());
    line.put("target", target);
    line.put("model", model);
    line.put("seconds", seconds);
    line.put("response_tokens", tokens);
    line.put("tokens_per_s", tokensPerSecond());
    ObjectNode m = line.putObject("metrics");
    metrics.forEach((k, v) -> m.put(k, Double.isFinite(v) ? v : null));
    ArrayNode arr = line.putArray("samples");
    for (Validator.Sample s : samples) {
      arr.addObject()
          .put("data_source", s.dataSource())
          .put("prompt", s.prompt())
          .put("response", s.response())
          .put("score", Double.isFinite(s.score()) ? s.score() : null);
    }
    Path file = dir.resolve(FILE);
    try {
      Files.createDirectories(dir);
      Files.writeString(
          file,
          json.writeValueAsString(line) + "\n",
          StandardCharsets.UTF_8,
          StandardOpenOption.CREATE,
          StandardOpenOption.APPEND);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot append " + file, e);
    }
    return file;
  }

  /** One line of at most {@link #MAX_CHARS} characters, quoted. */
  private static String shorten(String text) {
    String one = text.replace("\n", "\\n");
    return "\"" + (one.length() > MAX_CHARS ? one.substring(0, MAX_CHARS) + "..." : one) + "\"";
  }
}
