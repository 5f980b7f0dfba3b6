package dev.javelin.recipes.driver;

import dev.javelin.datasets.ChatMessage;
import dev.javelin.recipes.metrics.JsonText;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.Locale;

/**
 * {@code val_generations.jsonl}: the first {@link #SAMPLES} greedy validation generations of each
 * validation, one JSON object a line ({@code step, data_source, prompt, response, score}), for the
 * run report.
 */
final class ValidationLog {
  static final int SAMPLES = 8;
  private final Path file;

  ValidationLog(Path file) {
    this.file = file;
  }

  /** Appends one validation's samples. */
  void write(
      long step,
      List<String> sources,
      List<List<ChatMessage>> prompts,
      List<String> responses,
      double[] scores) {
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < Math.min(SAMPLES, responses.size()); i++) {
      List<ChatMessage> p = prompts.get(i);
      sb.append("{\"step\":").append(step).append(",\"data_source\":");
      JsonText.quote(sb, sources.get(i));
      sb.append(",\"prompt\":");
      JsonText.quote(sb, p.isEmpty() ? "" : p.get(p.size() - 1).content());
      sb.append(",\"response\":");
      JsonText.quote(sb, responses.get(i));
      sb.append(",\"score\":")
          .append(
              Double.isFinite(scores[i]) ? String.format(Locale.ROOT, "%.6g", scores[i]) : "null")
          .append("}\n");
    }
    try {
      Files.writeString(
          file, sb, StandardCharsets.UTF_8, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot append " + file, e);
    }
  }
}
