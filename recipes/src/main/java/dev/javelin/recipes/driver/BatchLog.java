package dev.javelin.recipes.driver;

import dev.javelin.recipes.metrics.JsonText;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@code batches.jsonl}: one line per completed step, {@code {"step":k,"epoch":e,"ids":[...]}} with
 * the step's example uids in batch order, so anyone can audit that no prompt was seen twice in an
 * epoch, across kills and resumes. A step's line is appended (and flushed) just BEFORE its
 * checkpoint is written, and on resume from step K the lines after K (steps that ran but were never
 * checkpointed, and will run again) are dropped, atomically; so after any kill and resume each step
 * has exactly one line.
 */
final class BatchLog implements AutoCloseable {
  private static final Pattern STEP = Pattern.compile("^\\{\"step\":(\\d+),");
  private final Path file;
  private BufferedWriter out;

  BatchLog(Path file) {
    this.file = file;
  }

  /** Keeps only the lines of steps {@code <= lastStep} (0: none), then opens for appending. */
  void resumeAt(int lastStep) {
    try {
      Files.createDirectories(file.toAbsolutePath().getParent());
      if (Files.exists(file)) {
        List<String> kept = new ArrayList<>();
        for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
          Matcher m = STEP.matcher(line);
          if (m.find() && Integer.parseInt(m.group(1)) <= lastStep) {
            kept.add(line);
          }
        }
        Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
        Files.write(tmp, kept, StandardCharsets.UTF_8);
        Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
      }
      out =
          Files.newBufferedWriter(
              file, StandardCharsets.UTF_8, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot prepare " + file, e);
    }
  }

  /** Appends {@code batch}'s line and flushes it. */
  void write(DrawnBatch batch) {
    if (out == null) {
      throw new IllegalStateException("call resumeAt before write");
    }
    try {
      out.write(line(batch.step(), batch.epoch(), batch.examples().stream().map(e -> e.uid())));
      out.newLine();
      out.flush();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot append to " + file, e);
    }
  }

  static String line(int step, int epoch, java.util.stream.Stream<String> ids) {
    StringBuilder sb = new StringBuilder(64);
    sb.append("{\"step\":").append(step).append(",\"epoch\":").append(epoch).append(",\"ids\":[");
    ids.forEach(
        id -> {
          if (sb.charAt(sb.length() - 1) != '[') {
            sb.append(',');
          }
          JsonText.quote(sb, id);
        });
    return sb.append("]}").toString();
  }

  @Override
  public void close() {
    try {
      if (out != null) {
        out.close();
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot close " + file, e);
    }
  }
}
