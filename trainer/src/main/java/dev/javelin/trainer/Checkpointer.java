package dev.javelin.trainer;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Collections;
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
 * <p>Nothing is lost on a crash: a step is written into a hidden temporary directory, its files are
 * checksummed into a {@link CheckpointManifest} and flushed to disk, the directory is renamed into
 * place in one atomic move, and the marker is replaced atomically after that, so the marker always
 * names a complete checkpoint. A checkpoint damaged on disk later is found by its checksums and
 * skipped on resume. Only the newest {@code keep} checkpoints are kept, and the one a {@link
 * BestCheckpoint} marker names.
 */
public final class Checkpointer {
  /** VeRL's marker file name. */
  public static final String MARKER = "latest_checkpointed_iteration.txt";

  private static final Logger LOG = Logger.getLogger(Checkpointer.class.getName());
  private static final Pattern STEP_DIR = Pattern.compile("global_step_(\\d{1,18})");
  private static final String TMP_PREFIX = ".tmp-global_step_";

  private final Path root;
  private final int keep;
  private final SettingNames names;

  /**
   * How the caller names this checkpointer's settings in the advice of its messages ("set X to
   * another directory"): a recipe names its keys, code its own variables.
   *
   * @param root the setting that chose {@code root}
   * @param resumeFrom the setting that chooses the checkpoint to resume from
   */
  public record SettingNames(String root, String resumeFrom) {
    /** The names for code that builds a checkpointer itself. */
    public static final SettingNames PLAIN =
        new SettingNames("the checkpoint directory", "the resume mode");
  }

  /**
   * @param root the directory holding the step directories
   * @param keep how many step directories survive; 0 keeps all
   */
  public Checkpointer(Path root, int keep) {
    this(root, keep, SettingNames.PLAIN);
  }

  /** A checkpointer whose messages name its settings as {@code names} does. */
  public Checkpointer(Path root, int keep, SettingNames names) {
    if (keep < 0) {
      throw new IllegalArgumentException("keep must be >= 0 (0 keeps all), got " + keep);
    }
    this.root = root;
    this.keep = keep;
    this.names = names;
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
   * Writes step {@code step} atomically with a checksum manifest, points the marker at it and
   * prunes old steps. On failure nothing the run had is changed and the exception says what to do.
   *
   * @return the step directory
   * @throws CheckpointStorageException when the checkpoint cannot be written (unwritable directory,
   *     full disk); step {@code step} is then not saved
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
      CheckpointManifest.write(tmp);
      publish(tmp, target, step);
      FaultPoint.reach("checkpoint-renamed", root);
      writeMarker(step);
    } catch (IOException | UncheckedIOException e) {
      deleteQuietly(tmp);
      throw cannotWrite(target, e);
    } catch (RuntimeException e) {
      deleteQuietly(tmp);
      // a write error that reached us wrapped (by a remote trainer's actor call, say)
      throw ioCause(e) != null ? cannotWrite(target, ioCause(e)) : e;
    }
    prune(step);
    return target;
  }

  /** Moves the finished {@code tmp} to {@code target}; an older copy is restored if that fails. */
  private void publish(Path tmp, Path target, long step) throws IOException {
    if (!Files.exists(target)) {
      Files.move(tmp, target, StandardCopyOption.ATOMIC_MOVE);
      return;
    }
    // Re-saving a step: move the old copy aside first, so the target name never holds a mix.
    Path old = root.resolve(TMP_PREFIX + step + "-old-" + System.nanoTime());
    Files.move(target, old, StandardCopyOption.ATOMIC_MOVE);
    try {
      Files.move(tmp, target, StandardCopyOption.ATOMIC_MOVE);
    } catch (IOException e) {
      Files.move(old, target, StandardCopyOption.ATOMIC_MOVE);
      throw e;
    }
    deleteTree(old);
  }

  private static IOException ioCause(Throwable t) {
    Throwable c = t;
    for (int depth = 0; c != null && depth < 16; depth++, c = c.getCause()) {
      if (c instanceof IOException io) {
        return io;
      }
    }
    return null;
  }

  private CheckpointStorageException cannotWrite(Path target, Exception e) {
    String previous = markedStep().map(n -> stepDir(n).getFileName().toString()).orElse("none");
    String reason = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
    if (e.getCause() != null && e.getCause().getMessage() != null) {
      reason = reason + " (" + e.getCause().getMessage() + ")";
    }
    return new CheckpointStorageException(
        "cannot write checkpoint "
            + target
            + ": "
            + reason.lines().findFirst().orElse(reason)
            + "; it was not saved and the latest checkpoint is still "
            + previous
            + ". Free space in (or make writable) "
            + root
            + ", or set "
            + names.root()
            + " to another directory, then rerun the same"
            + " command to resume",
        e);
  }

  /**
   * The checkpoint to resume from: the one the marker names or, when that one is missing or damaged
   * (see {@link CheckpointManifest#problem}), the newest complete one before it, with a warning
   * naming both. Empty when there is no marker.
   *
   * @throws CheckpointStorageException when the marker names steps but none of them is complete
   */
  public Optional<Path> latest() {
    Path marker = root.resolve(MARKER);
    if (!Files.isRegularFile(marker)) {
      return Optional.empty();
    }
    Optional<Long> marked = markedStep();
    List<String> problems = new ArrayList<>();
    if (marked.isEmpty()) {
      problems.add(marker.getFileName() + " does not hold a step number");
    } else if (!Files.isDirectory(stepDir(marked.get()))) {
      problems.add(
          marker.getFileName()
              + " names step "
              + marked.get()
              + " but "
              + stepDir(marked.get()).getFileName()
              + " is gone");
    }
    List<Path> candidates = new ArrayList<>(steps());
    Collections.reverse(candidates);
    for (Path dir : candidates) {
      if (marked.isPresent() && stepOf(dir) > marked.get()) {
        continue; // written after the marker's step but never marked: not a finished save
      }
      Optional<String> problem = CheckpointManifest.problem(dir);
      if (problem.isEmpty()) {
        if (!problems.isEmpty()) {
          LOG.warning(
              String.join("; ", problems)
                  + "; resuming from the previous complete checkpoint "
                  + dir);
        }
        return Optional.of(dir);
      }
      problems.add(dir.getFileName() + " is damaged (" + problem.get() + ")");
    }
    throw new CheckpointStorageException(
        "no complete checkpoint left in "
            + root
            + ": "
            + String.join("; ", problems)
            + ". To start over, move "
            + root
            + " away (or set "
            + names.root()
            + " to a new directory); to resume from a copy, set "
            + names.resumeFrom()
            + " to its global_step_N directory");
  }

  /**
   * Checks, before a run spends time training, that checkpoints can be written under the root.
   *
   * @throws CheckpointStorageException naming the directory and what to do when they cannot
   */
  public void requireWritable() {
    Path probe = root.resolve(".write-probe-" + System.nanoTime());
    try {
      Files.createDirectories(root);
      Files.write(probe, new byte[] {0});
      Files.delete(probe);
    } catch (IOException | UncheckedIOException e) {
      throw new CheckpointStorageException(
          "cannot write checkpoints to "
              + root
              + " ("
              + e.getMessage()
              + "); make it writable or set "
              + names.root()
              + " to another directory",
          e);
    }
  }

  /** True when the directory holds a marker or a step directory (complete or not). */
  public boolean hasCheckpoints() {
    return Files.exists(root.resolve(MARKER)) || !steps().isEmpty();
  }

  /** The step the marker names, if it holds a step number. */
  private Optional<Long> markedStep() {
    Path marker = root.resolve(MARKER);
    try {
      if (!Files.isRegularFile(marker) || Files.size(marker) > 64) {
        return Optional.empty();
      }
      String text = Files.readString(marker, StandardCharsets.UTF_8).strip();
      return text.matches("\\d{1,18}") ? Optional.of(Long.parseLong(text)) : Optional.empty();
    } catch (IOException e) {
      return Optional.empty();
    }
  }

  /** Where to resume from under {@code mode}; empty means start from scratch. */
  public Optional<Path> resolve(ResumeMode mode) {
    if (mode instanceof ResumeMode.Disable) {
      return Optional.empty();
    }
    if (mode instanceof ResumeMode.FromPath p) {
      if (!Files.isDirectory(p.dir())) {
        throw new IllegalArgumentException(p.dir() + " is not a checkpoint directory");
      }
      stepOf(p.dir());
      Optional<String> problem = CheckpointManifest.problem(p.dir());
      if (problem.isPresent()) {
        throw new IllegalArgumentException(
            p.dir()
                + ", which is damaged ("
                + problem.get()
                + "); name another global_step_N directory, or auto");
      }
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

  /**
   * Records {@code best} (a step saved before) as the best validated one: it survives pruning from
   * now on, and the previous best, unless among the newest {@code keep}, is removed.
   */
  public void markBest(BestCheckpoint best) {
    try {
      best.write(root);
    } catch (IOException e) {
      throw cannotWrite(root.resolve(BestCheckpoint.MARKER), e);
    }
    prune(best.step());
  }

  private void prune(long justSaved) {
    if (keep == 0) {
      return;
    }
    long best = BestCheckpoint.read(root).map(BestCheckpoint::step).orElse(-1L);
    List<Path> all = steps();
    for (int i = 0; i < all.size() - keep; i++) {
      Path p = all.get(i);
      if (stepOf(p) != justSaved && stepOf(p) != best) {
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
