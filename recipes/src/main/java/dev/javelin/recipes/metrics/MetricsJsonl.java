package dev.javelin.recipes.metrics;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
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
 * flushed, so a killed run keeps every finished step.
 */
public final class MetricsJsonl implements AutoCloseable {
  private static final Pattern STEP = Pattern.compile("^\\{\"step\":(\\d+)[,}]");
  // A key without escapes and its finite value (null values never match).
  private static final Pattern VALUE = Pattern.compile("\"([^\"\\\\]+)\":(-?[0-9][0-9.eE+-]*)");
  private final Path file;
  private BufferedWriter out;

  /** Opens (appending) {@code file}, creating its directory. */
  public MetricsJsonl(Path file) {
    this.file = file;
    try {
      Path parent = file.toAbsolutePath().getParent();
      if (parent != null) {
        Files.createDirectories(parent);
      }
      out = open(file);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot open " + file, e);
    }
  }

  private static BufferedWriter open(Path file) throws IOException {
    return Files.newBufferedWriter(
        file, StandardCharsets.UTF_8, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
  }

  /**
   * A run resuming from the checkpoint of {@code lastStep}: drops the lines of later steps (they
   * ran but were never checkpointed and will run again), atomically, so each step has one line.
   * Lines without a step number are kept.
   */
  public void resumeAt(long lastStep) {
    try {
      out.close();
      List<String> kept = new ArrayList<>();
      for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
        Matcher m = STEP.matcher(line);
        if (!m.find() || Long.parseLong(m.group(1)) <= lastStep) {
          kept.add(line);
        }
      }
      Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
      Files.write(tmp, kept, StandardCharsets.UTF_8);
      Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
      out = open(file);
    } catch (IOException | NumberFormatException e) {
      throw new UncheckedIOException("cannot truncate " + file, new IOException(e));
    }
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
      out.flush();
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

  /** Writes one line. */
  public void write(long step, Map<String, Double> metrics) {
    try {
      out.write(line(step, metrics));
      out.newLine();
      out.flush();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot append metrics", e);
    }
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
    try {
      out.close();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot close metrics file", e);
    }
  }
}
