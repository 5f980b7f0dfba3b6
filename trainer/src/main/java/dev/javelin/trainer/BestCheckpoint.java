package dev.javelin.trainer;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The step whose validation scored best so far, recorded beside VeRL's latest marker as {@code
 * best_checkpointed_iteration.txt} ("step score" on one line), so that {@link Checkpointer} never
 * prunes that step's directory and a resumed run keeps comparing against it.
 *
 * @param step the {@code global_step_N} it names
 * @param score the held-out value measured there (higher is better)
 */
public record BestCheckpoint(long step, double score) {
  /** The marker's file name under the checkpoint root. */
  public static final String MARKER = "best_checkpointed_iteration.txt";

  private static final Pattern LINE = Pattern.compile("(\\d{1,18}) (\\S{1,40})");

  /** Validates the step and the score. */
  public BestCheckpoint {
    if (step < 0 || !Double.isFinite(score)) {
      throw new IllegalArgumentException("best checkpoint: step " + step + ", score " + score);
    }
  }

  /** The marker under {@code root}; empty when absent or not in this format (never thrown). */
  public static Optional<BestCheckpoint> read(Path root) {
    Path marker = root.resolve(MARKER);
    try {
      if (!Files.isRegularFile(marker) || Files.size(marker) > 128) {
        return Optional.empty();
      }
      Matcher m = LINE.matcher(Files.readString(marker, StandardCharsets.UTF_8).strip());
      if (!m.matches()) {
        return Optional.empty();
      }
      double score = Double.parseDouble(m.group(2));
      return Double.isFinite(score)
          ? Optional.of(new BestCheckpoint(Long.parseLong(m.group(1)), score))
          : Optional.empty();
    } catch (IOException | NumberFormatException e) {
      return Optional.empty();
    }
  }

  /** Replaces the marker under {@code root} atomically. */
  void write(Path root) throws IOException {
    Path tmp = root.resolve(MARKER + ".tmp");
    Files.writeString(tmp, String.format(Locale.ROOT, "%d %s%n", step, score));
    Files.move(
        tmp,
        root.resolve(MARKER),
        StandardCopyOption.ATOMIC_MOVE,
        StandardCopyOption.REPLACE_EXISTING);
  }
}
