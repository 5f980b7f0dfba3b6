package dev.javelin.backend.checkpoint;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * Opening a checkpoint file (safetensors, GGUF) for reading: the channel stays open with the parsed
 * file on success and is closed on every failure, so a malformed file leaks nothing.
 */
public final class CheckpointChannels {
  private CheckpointChannels() {}

  /** Parses a file from its open channel; the result owns the channel. */
  @FunctionalInterface
  public interface Parser<T> {
    T parse(FileChannel channel, long size) throws IOException;
  }

  /** The exception for an I/O failure; {@code verb} is {@code open} or {@code read}. */
  @FunctionalInterface
  public interface Failure {
    RuntimeException of(String verb, IOException cause);
  }

  /** Opens {@code path} read-only and hands it to {@code parser}; failures close the channel. */
  public static <T> T open(Path path, Parser<T> parser, Failure failure) {
    FileChannel ch;
    try {
      ch = FileChannel.open(path, StandardOpenOption.READ);
    } catch (IOException e) {
      throw failure.of("open", e);
    }
    try {
      return parser.parse(ch, ch.size());
    } catch (IOException e) {
      closeQuietly(ch);
      throw failure.of("read", e);
    } catch (RuntimeException e) {
      closeQuietly(ch);
      throw e;
    }
  }

  /** Closes {@code ch}, ignoring a failure: the caller is already failing with a better error. */
  public static void closeQuietly(FileChannel ch) {
    try {
      ch.close();
    } catch (IOException ignored) {
      // already failing with a more useful error
    }
  }
}
