package dev.javelin.trainer;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.logging.Logger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Step checkpoints under {@code trainer.default_local_dir}, in VeRL's layout: one {@code
 * global_step_N/} per save and a {@code latest_checkpointed_iteration.txt} marker holding N.
 *
 * <p>Nothing is lost on a crash: a step is written into a hidden temporary directory and renamed
 * into place in one atomic move, and the marker is replaced atomically after that, so the marker
 * always names a complete checkpoint. Only the newest {@code keep} checkpoints are kept.
 */
public final class Checkpointer {
  /** VeRL's marker file name. */
  public static final String MARKER = "latest_checkpointed_iteration.txt";

  private static final Logger LOG = Logger.getLogger(Checkpointer.class.getName());
  private static final Pattern STEP_DIR = Pattern.compile("global_step_(\\d{1,18})");
  private static final String TMP_PREFIX = ".tmp-global_step_";

  private final Path root;
  private final int keep;

  /**
   * @param root {@code trainer.default_local_dir}
   * @param keep {@code trainer.max_ckpt_to_keep}: how many step directories survive; 0 keeps all
   */
  public Checkpointer(Path root, int keep) {
    if (keep < 0) {
      throw new IllegalArgumentException(
          "trainer.max_ckpt_to_keep must be >= 0 (0 keeps all), got " + keep);
    }
    this.root = root;
    this.keep = keep;
  }

  /** Writes the contents of a checkpoint into an empty directory. */
  @FunctionalInterface
  public interface Writer {
    void write(Path dir) throws IOException;
  }

  public Path root() {
    return root;
  }

  /** The directory of step {@code step}. */
  public Path stepDir(long step) {
    return root.resolve("global_step_" + step);
  }

  /**
   * Writes step {@code step} atomically, points the marker at it and prunes old steps.
   *
   * @return the step directory
   */
  public Path save(long step, Writer writer) {
    if (step < 0) {
      throw new IllegalArgumentException("checkpoint step must be >= 0, got " + step);
    }
    Path target = stepDir(step);
    Path tmp = root.resolve(TMP_PREFIX + step + "-" + System.nanoTime());
    try {
      Files.createDirectories(root);
      deleteLeftovers();
      Files.createDirectory(tmp);
      writer.write(tmp);
      if (Files.exists(target)) {
        // Re-saving a step: move the old copy aside first, so the target name never holds a mix.
        Path old = root.resolve(TMP_PREFIX + step + "-old-" + System.nanoTime());
        Files.move(target, old, StandardCopyOption.ATOMIC_MOVE);
        Files.move(tmp, target, StandardCopyOption.ATOMIC_MOVE);
        deleteTree(old);
      } else {
        Files.move(tmp, target, StandardCopyOption.ATOMIC_MOVE);
      }
      writeMarker(step);
    } catch (IOException e) {
      deleteQuietly(tmp);
      throw new UncheckedIOException("cannot write checkpoint " + target, e);
    }
    prune(step);
    return target;
  }

  /** The checkpoint the marker names, if there is a marker and it names an existing step. */
  public Optional<Path> latest() {
    Path marker = root.resolve(MARKER);
    if (!Files.isRegularFile(marker)) {
      return Optional.empty();
    }
    String text;
    try {
      if (Files.size(marker) > 64) {
        throw new IllegalStateException(marker + " is not a step number");
      }
      text = Files.readString(marker, StandardCharsets.UTF_8).strip();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + marker, e);
    }
    if (!text.matches("\\d{1,18}")) {
      throw new IllegalStateException(marker + " should hold a step number, found '" + text + "'");
    }
    Path dir = stepDir(Long.parseLong(text));
    if (!Files.isDirectory(dir)) {
      throw new IllegalStateException(marker + " names step " + text + " but " + dir + " is gone");
    }
    return Optional.of(dir);
  }

  /** Where to resume from under {@code mode}; empty means start from scratch. */
  public Optional<Path> resolve(ResumeMode mode) {
    if (mode instanceof ResumeMode.Disable) {
      return Optional.empty();
    }
    if (mode instanceof ResumeMode.FromPath p) {
      if (!Files.isDirectory(p.dir())) {
        throw new IllegalArgumentException(
            "trainer.resume_mode names " + p.dir() + ", which is not a checkpoint directory");
      }
      stepOf(p.dir());
      return Optional.of(p.dir());
    }
    return latest();
  }

  /** N of a {@code global_step_N} directory. */
  public static long stepOf(Path dir) {
    Path name = dir.getFileName();
    Matcher m = STEP_DIR.matcher(name == null ? "" : name.toString());
    if (!m.matches()) {
      throw new IllegalArgumentException(
          dir + " is not a checkpoint directory (expected a name like global_step_100)");
    }
    return Long.parseLong(m.group(1));
  }

  /** Existing step directories, oldest first. */
  public List<Path> steps() {
    List<Path> out = new ArrayList<>();
    if (!Files.isDirectory(root)) {
      return out;
    }
    try (DirectoryStream<Path> ds = Files.newDirectoryStream(root, "global_step_*")) {
      for (Path p : ds) {
        Path name = p.getFileName();
        if (Files.isDirectory(p) && name != null && STEP_DIR.matcher(name.toString()).matches()) {
          out.add(p);
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot list " + root, e);
    }
    out.sort(Comparator.comparingLong(Checkpointer::stepOf));
    return out;
  }

  /** Removes temporary directories a crashed save left behind; they never hold a checkpoint. */
  private void deleteLeftovers() throws IOException {
    try (DirectoryStream<Path> ds = Files.newDirectoryStream(root, TMP_PREFIX + "*")) {
      for (Path p : ds) {
        LOG.info("removing the leftover of an interrupted checkpoint: " + p);
        deleteTree(p);
      }
    }
  }

  private void writeMarker(long step) throws IOException {
    Path tmp = root.resolve(MARKER + ".tmp");
    Files.writeString(tmp, Long.toString(step), StandardCharsets.UTF_8);
    Files.move(
        tmp,
        root.resolve(MARKER),
        StandardCopyOption.ATOMIC_MOVE,
        StandardCopyOption.REPLACE_EXISTING);
  }

  private void prune(long justSaved) {
    if (keep == 0) {
      return;
    }
    List<Path> all = steps();
    for (int i = 0; i < all.size() - keep; i++) {
      Path p = all.get(i);
      if (stepOf(p) != justSaved) {
        try {
          deleteTree(p);
        } catch (IOException e) {
          LOG.warning("could not delete old checkpoint " + p + ": " + e.getMessage());
        }
      }
    }
  }

  private static void deleteTree(Path dir) throws IOException {
    if (!Files.exists(dir)) {
      return;
    }
    try (Stream<Path> walk = Files.walk(dir)) {
      List<Path> paths = walk.sorted(Comparator.reverseOrder()).toList();
      for (Path p : paths) {
        Files.delete(p);
      }
    }
  }

  private static void deleteQuietly(Path dir) {
    try {
      deleteTree(dir);
    } catch (IOException e) {
      LOG.warning("could not delete temporary checkpoint " + dir + ": " + e.getMessage());
    }
  }
}
