package dev.javelin.recipes.driver;

import dev.javelin.recipes.metrics.JsonText;
import dev.javelin.recipes.metrics.RunFile;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Random;

/**
 * {@code val_generations.jsonl}: {@code trainer.log_val_generations} greedy generations of each
 * validation, one JSON object a line ({@code step, data_source, prompt, response, score}), for the
 * run report. As in VeRL the samples are sorted by prompt and shuffled with a fixed seed, so every
 * validation logs the same prompts and their answers can be compared across steps.
 */
final class ValidationLog {
  private static final long SEED = 42;
  private final Path file;
  private final int count;

  ValidationLog(Path file, int count) {
    if (count <= 0) {
      throw new IllegalArgumentException("count must be > 0, got " + count);
    }
    this.file = file;
    this.count = count;
  }

  /** The samples one validation logs: {@code count} of them, the same prompts every time. */
  List<Validator.Sample> choose(List<Validator.Sample> all) {
    List<Validator.Sample> sorted = new ArrayList<>(all);
    sorted.sort(Comparator.comparing(Validator.Sample::prompt));
    Collections.shuffle(sorted, new Random(SEED));
    return sorted.subList(0, Math.min(count, sorted.size()));
  }

  /** Appends one validation's chosen samples. */
  void write(long step, List<Validator.Sample> all) {
    StringBuilder sb = new StringBuilder();
    for (Validator.Sample s : choose(all)) {
      sb.append("{\"step\":").append(step).append(",\"data_source\":");
      JsonText.quote(sb, s.dataSource());
      sb.append(",\"prompt\":");
      JsonText.quote(sb, s.prompt());
      sb.append(",\"response\":");
      JsonText.quote(sb, s.response());
      sb.append(",\"score\":")
          .append(
              Double.isFinite(s.score()) ? String.format(Locale.ROOT, "%.6g", s.score()) : "null")
          .append("}\n");
    }
    RunFile.append(file, sb.toString());
  }
}
