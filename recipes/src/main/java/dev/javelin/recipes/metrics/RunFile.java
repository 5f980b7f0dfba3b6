package dev.javelin.recipes.metrics;

import dev.javelin.trainer.FaultPoint;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
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
 * The one way a run writes its files outside checkpoints: its JSONL records (metrics.jsonl,
 * batches.jsonl, val_generations.jsonl) whole lines or nothing, and whole files (recipe.yaml,
 * report.html) through a temp file renamed into place. A failed append (a full disk) is cut back to
 * the file's previous length, a failed replace removes its temp file and leaves the old file, and
 * either becomes a {@link RunWriteException}; resuming keeps only the lines of steps a checkpoint
 * covers, atomically through a temp file that is removed when that fails.
 */
public final class RunFile {
  private static final Pattern STEP = Pattern.compile("^\\{\"step\":(-?\\d+)[,}]");

  /** Where bytes go: a file, or in tests a device that fills up. */
  interface Sink extends AutoCloseable {
    long size() throws IOException;

    void write(ByteBuffer bytes) throws IOException;

    void truncate(long size) throws IOException;

    @Override
    void close() throws IOException;
  }

  /** Lines of steps after a resumed checkpoint that were dropped: how many, and the last step. */
  public record Dropped(int lines, long lastStep) {
    /** The one line a run prints when it dropped lines of {@code file} on resuming at a step. */
    public String describe(String file, long resumedStep) {
      return file
          + " had "
          + lines
          + " line(s) up to step "
          + lastStep
          + " that no checkpoint covers; dropped them, "
          + (resumedStep > 0
              ? "resuming from the checkpoint of step " + resumedStep
              : "starting from step 0 (no checkpoint)");
    }
  }

  private RunFile() {}

  /** Appends {@code text} (whole lines, each ending in a newline) to {@code file}. */
  public static void append(Path file, String text) {
    FaultPoint.reach("write:" + file.getFileName(), file.toAbsolutePath().getParent());
    try (Sink sink = open(file)) {
      append(sink, file, text);
    } catch (IOException e) {
      throw failed(file, e);
    }
  }

  static void append(Sink sink, Path file, String text) {
    ByteBuffer bytes = ByteBuffer.wrap(text.getBytes(StandardCharsets.UTF_8));
    long before;
    try {
      before = sink.size();
    } catch (IOException e) {
      throw failed(file, e);
    }
    try {
      while (bytes.hasRemaining()) {
        sink.write(bytes);
      }
    } catch (IOException e) {
      try {
        sink.truncate(before); // no partial line survives
      } catch (IOException ignored) {
        // the write's own error is the one to report
      }
      throw failed(file, e);
    }
  }

  /** Replaces {@code file} with {@code text} atomically: the old file or the new, never a part. */
  public static void replace(Path file, String text) {
    FaultPoint.reach("write:" + file.getFileName(), file.toAbsolutePath().getParent());
    Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
    try {
      Files.writeString(tmp, text, StandardCharsets.UTF_8);
      Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    } catch (IOException e) {
      try {
        Files.deleteIfExists(tmp); // a full disk leaves no half-written file behind
      } catch (IOException ignored) {
        // the write's own error is the one to report
      }
      throw failed(file, e);
    }
  }

  private static Sink open(Path file) throws IOException {
    FileChannel ch = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
    ch.position(ch.size());
    return new Sink() {
      @Override
      public long size() throws IOException {
        return ch.size();
      }

      @Override
      public void write(ByteBuffer bytes) throws IOException {
        ch.write(bytes);
      }

      @Override
      public void truncate(long size) throws IOException {
        ch.truncate(size);
      }

      @Override
      public void close() throws IOException {
        ch.close();
      }
    };
  }

  /**
   * Keeps only the lines of steps {@code <= lastStep} (and lines without a step) of {@code file}; a
   * missing or non-regular file is left alone.
   */
  public static Dropped keepThrough(Path file, long lastStep) {
    if (!Files.isRegularFile(file)) {
      return new Dropped(0, lastStep);
    }
    Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
    try {
      List<String> kept = new ArrayList<>();
      int dropped = 0;
      long last = lastStep;
      for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
        Matcher m = STEP.matcher(line);
        long step = m.find() ? Long.parseLong(m.group(1)) : Long.MIN_VALUE;
        if (step <= lastStep) {
          kept.add(line);
        } else {
          dropped++;
          last = Math.max(last, step);
        }
      }
      if (dropped > 0) {
        Files.write(tmp, kept, StandardCharsets.UTF_8);
        Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
      }
      return new Dropped(dropped, last);
    } catch (IOException | NumberFormatException e) {
      try {
        Files.deleteIfExists(tmp);
      } catch (IOException ignored) {
        // reported below
      }
      throw failed(file, e instanceof IOException io ? io : new IOException(e));
    }
  }

  private static RunWriteException failed(Path file, IOException e) {
    String why = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
    return new RunWriteException(
        "cannot write "
            + file
            + ": "
            + why
            + "; the last checkpoint is kept, free space and run the same command to resume",
        e);
  }
}
