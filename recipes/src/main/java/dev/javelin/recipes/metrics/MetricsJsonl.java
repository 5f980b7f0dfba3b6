package dev.javelin.recipes.metrics;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Appends one JSON object per step to {@code metrics.jsonl}: {@code {"step": 3, "actor/pg_loss":
 * ..., ...}}. Non-finite values are written as {@code null} (JSON has no NaN). Each line is
 * appended whole ({@link RunFile}), so a killed run keeps every finished step.
 */
public final class MetricsJsonl implements AutoCloseable {
  private static final Pattern STEP = Pattern.compile("^\\{\"step\":(\\d+)[,}]");
  // A key without escapes and its finite value (null values never match).
  private static final Pattern VALUE = Pattern.compile("\"([^\"\\\\]+)\":(-?[0-9][0-9.eE+-]*)");
  private final Path file;

  /** Opens {@code file} (lines are appended), creating its directory. */
  public MetricsJsonl(Path file) {
    this.file = file;
    try {
      Path parent = file.toAbsolutePath().getParent();
      if (parent != null) {
        Files.createDirectories(parent);
      }
    } catch (IOException e) {
      throw new RunWriteException("cannot create the folder of " + file + ": " + e, e);
    }
  }

  /**
   * A run resuming from the checkpoint of {@code lastStep} (-1: starting fresh): drops the lines of
   * later steps (they ran but were never checkpointed and will run again), atomically, so each step
   * has one line. Lines without a step number are kept.
   */
  public RunFile.Dropped resumeAt(long lastStep) {
    return RunFile.keepThrough(file, lastStep);
  }

  /** Values as last recorded: the step they were measured at, and each key's value. */
  public record Recorded(long step, Map<String, Double> values) {
    public Recorded {
      values = Map.copyOf(values);
    }
  }

  /**
   * The last line holding any key that {@code keys} accepts, read back from the file, with all of
   * that line's accepted values: what a resumed or rerun run last measured, and at which step.
   */
  public Optional<Recorded> last(Predicate<String> keys) {
    List<String> lines;
    try {
      lines = Files.readAllLines(file, StandardCharsets.UTF_8);
    } catch (IOException e) {
      return Optional.empty(); // an unreadable history only loses the summary's look-back
    }
    for (int i = lines.size() - 1; i >= 0; i--) {
      Matcher step = STEP.matcher(lines.get(i));
      if (!step.find()) {
        continue;
      }
      Map<String, Double> found = new LinkedHashMap<>();
      Matcher v = VALUE.matcher(lines.get(i));
      while (v.find()) {
        if (keys.test(v.group(1))) {
          found.put(v.group(1), Double.parseDouble(v.group(2)));
        }
      }
      if (!found.isEmpty()) {
        return Optional.of(new Recorded(Long.parseLong(step.group(1)), found));
      }
    }
    return Optional.empty();
  }

  /** Writes one line, whole or not at all ({@link RunFile}). */
  public void write(long step, Map<String, Double> metrics) {
    RunFile.append(file, line(step, metrics) + "\n");
  }

  /** The JSON line for a step (without the newline). */
  static String line(long step, Map<String, Double> metrics) {
    StringBuilder sb = new StringBuilder(64 + 48 * metrics.size());
    sb.append("{\"step\":").append(step);
    for (var e : metrics.entrySet()) {
      sb.append(',');
      JsonText.quote(sb, e.getKey());
      sb.append(':');
      double v = e.getValue() == null ? Double.NaN : e.getValue();
      if (!Double.isFinite(v)) {
        sb.append("null");
      } else if (v == Math.rint(v) && Math.abs(v) < 1e15) {
        sb.append((long) v);
      } else {
        sb.append(String.format(Locale.ROOT, "%.6g", v));
      }
    }
    return sb.append('}').toString();
  }

  @Override
  public void close() {
    // every line is written and closed as it is appended
  }
}
