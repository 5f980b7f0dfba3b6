package dev.javelin.recipes.driver;

import dev.javelin.recipes.metrics.JsonText;
import dev.javelin.recipes.metrics.RunFile;
import dev.javelin.recipes.metrics.RunWriteException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * {@code batches.jsonl}: one line per completed step, {@code {"step":k,"epoch":e,"ids":[...]}} with
 * the step's example uids in batch order, so anyone can audit that no prompt was seen twice in an
 * epoch, across kills and resumes. A step's line is appended (whole, {@link RunFile}) just BEFORE
 * its checkpoint is written, and on resume from step K the lines after K (steps that ran but were
 * never checkpointed, and will run again) are dropped, atomically; so after any kill and resume
 * each step has exactly one line.
 */
final class BatchLog implements AutoCloseable {
  private final Path file;
  private boolean ready;

  BatchLog(Path file) {
    this.file = file;
  }

  /** Keeps only the lines of steps {@code <= lastStep} (-1: none); returns what was dropped. */
  RunFile.Dropped resumeAt(int lastStep) {
    try {
      Files.createDirectories(file.toAbsolutePath().getParent());
    } catch (IOException e) {
      throw new RunWriteException("cannot create the folder of " + file + ": " + e, e);
    }
    ready = true;
    return RunFile.keepThrough(file, lastStep);
  }

  /** Appends {@code batch}'s line, whole or not at all. */
  void write(DrawnBatch batch) {
    if (!ready) {
      throw new IllegalStateException("call resumeAt before write");
    }
    RunFile.append(
        file,
        line(batch.step(), batch.epoch(), batch.examples().stream().map(e -> e.uid())) + "\n");
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
    // each line is written and closed as it is appended
  }
}
