package dev.javelin.recipes.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.javelin.recipes.metrics.TfRecords;
import dev.javelin.trainer.FaultPoint;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A full disk at each file a run writes, on a real file system (a size-limited tmpfs, so the error
 * is the kernel's own "No space left on device"): the run stops with exit 2 and one line naming the
 * file, leaves no partial line and no temporary file, keeps its last good checkpoint, and the same
 * command resumes from it once there is room, with every step's row once. An appended record
 * (metrics.jsonl, batches.jsonl, val_generations.jsonl) lives on a one-page file system of its own
 * that it outgrows mid-line; for recipe.yaml, report.html and a checkpoint the run directory's file
 * system is filled just before the write ({@link FaultPoint}'s {@code fill}).
 */
class DiskFullTest {
  // Checkpoints at steps 4, 8 and 10; each record outgrows one 4 KiB page within the 10 steps.
  private static final int STEPS = 10;
  private static final String[] EXTRA = {
    "trainer.save_freq=4",
    "trainer.test_freq=1",
    "data.synthetic.val_size=16",
    "data.synthetic.train_size=64",
    "data.train_batch_size=16"
  };
  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir static Path tmp;
  private static final List<Path> MOUNTS = new ArrayList<>();

  /** A file the run writes, and how its disk fills. */
  enum Writer {
    METRICS("metrics.jsonl", null),
    BATCHES("batches.jsonl", null),
    VALIDATION_GENERATIONS("val_generations.jsonl", null),
    RECIPE("recipe.yaml", "write:recipe.yaml@1"),
    REPORT("report.html", "write:report.html@1"),
    CHECKPOINT("global_step_8", "checkpoint-partial@2");

    final String file;
    final String fillAt; // null: the file outgrows a file system of its own

    Writer(String file, String fillAt) {
      this.file = file;
      this.fillAt = fillAt;
    }
  }

  @BeforeAll
  static void mountable() throws Exception {
    Path probe = Files.createDirectory(tmp.resolve("probe"));
    Assumptions.assumeTrue(
        mount(probe, "4k"), "a full-disk test needs to mount a tmpfs (root, as in CI)");
  }

  @AfterAll
  static void unmount() throws Exception {
    for (Path m : MOUNTS) {
      new ProcessBuilder("umount", m.toString()).inheritIO().start().waitFor();
    }
  }

  @ParameterizedTest
  @EnumSource(Writer.class)
  void aFullDiskStopsWithOneLineAndTheSameCommandResumes(Writer w) throws Exception {
    Path disk = Files.createDirectory(tmp.resolve(w.name()));
    assertTrue(mount(disk, "8m"), "mount a tmpfs on " + disk);
    Path dir = Files.createDirectory(disk.resolve("run"));
    Path own = null;
    List<String> jvm = new ArrayList<>();
    if (w.fillAt == null) {
      own = Files.createDirectory(tmp.resolve(w.name() + "-own"));
      assertTrue(mount(own, "4k"), "mount a one-page tmpfs on " + own);
      Files.createSymbolicLink(dir.resolve(w.file), own.resolve(w.file));
    } else {
      jvm.add("-D" + FaultPoint.PROPERTY + "=" + w.fillAt + ":fill");
    }
    if (w == Writer.RECIPE) { // a run that made a checkpoint, rerun with more steps
      assertEquals(0, launch(dir, 4, List.of(), w + "-first").exit(), log(w + "-first"));
    }
    String oldRecipe = w == Writer.RECIPE ? Files.readString(dir.resolve("recipe.yaml")) : "";
    Launch full = launch(dir, STEPS, jvm, w.name());
    assertEquals(2, full.exit(), log(w.name()));
    List<String> said = full.errors();
    assertEquals(1, said.size(), String.join("\n", said));
    assertTrue(said.get(0).startsWith("javelin: cannot write "), said.get(0));
    assertTrue(said.get(0).contains(dir.resolve(w.file).toString()), said.get(0));
    assertTrue(said.get(0).contains("No space left on device"), said.get(0));
    assertTrue(listing(dir).stream().noneMatch(n -> n.contains(".tmp")), listing(dir).toString());
    for (String f : List.of("metrics.jsonl", "batches.jsonl", "val_generations.jsonl")) {
      wholeLines(dir.resolve(f));
    }
    if (w == Writer.RECIPE) {
      assertEquals(oldRecipe, Files.readString(dir.resolve("recipe.yaml")), "the old recipe.yaml");
    }
    int kept = marker(dir);
    if (kept > 0) {
      assertTrue(Files.isDirectory(dir.resolve("global_step_" + kept)), listing(dir).toString());
    }

    // Room again: the same command resumes from the checkpoint it kept.
    Files.deleteIfExists(dir.resolve(".javelin-test-fill"));
    if (own != null) {
      remount(own, "1m");
    }
    Launch again = launch(dir, STEPS, List.of(), w + "-again");
    assertEquals(0, again.exit(), log(w + "-again"));
    if (kept > 0) {
      String resumed = "global_step_" + kept + " at step " + kept;
      assertTrue(log(w + "-again").contains(resumed), log(w + "-again"));
    }
    List<Integer> steps = new ArrayList<>();
    for (String line : Files.readAllLines(dir.resolve("metrics.jsonl"))) {
      steps.add(JSON.readTree(line).get("step").asInt());
    }
    List<Integer> expected = new ArrayList<>();
    for (int s = 0; s <= STEPS; s++) {
      expected.add(s);
    }
    assertEquals(expected, steps, "metrics.jsonl: each step once, in order");
    assertTrue(Files.isRegularFile(dir.resolve("report.html")));
  }

  /**
   * A full disk under the TensorBoard event files is that logger's failure, not the run's: it is
   * said once and counted, the run finishes with every metrics row, and each event file holds whole
   * records (the last one may be cut where the disk filled, which TensorBoard reads past).
   */
  @Test
  void aFullTensorBoardDiskIsCountedAndTheRunGoesOn() throws Exception {
    Path disk = Files.createDirectory(tmp.resolve("TENSORBOARD"));
    assertTrue(mount(disk, "8m"), "mount a tmpfs on " + disk);
    Path dir = Files.createDirectory(disk.resolve("run"));
    Path own = Files.createDirectory(tmp.resolve("TENSORBOARD-own"));
    assertTrue(mount(own, "4k"), "mount a one-page tmpfs on " + own);
    Files.createSymbolicLink(dir.resolve("tensorboard"), own);

    Launch run =
        launch(dir, STEPS, List.of(), "TENSORBOARD", "trainer.logger=[console,tensorboard]");
    String log = log("TENSORBOARD");
    assertEquals(0, run.exit(), log);
    assertEquals(1, log.split("metrics logger tensorboard failed \\(", -1).length - 1, log);
    assertTrue(log.contains("No space left on device"), log);
    assertTrue(log.matches("(?s).*logger/tensorboard/errors = [1-9].*"), log);
    assertEquals(STEPS + 1, Files.readAllLines(dir.resolve("metrics.jsonl")).size());
    long scalars = 0;
    try (Stream<Path> files = Files.list(own)) {
      for (Path f : files.toList()) {
        scalars +=
            Math.max(0, TfRecords.whole(Files.readAllBytes(f)) - 1); // less the version record
      }
    }
    assertTrue(scalars >= 1 && scalars <= STEPS + 1, "whole scalar records: " + scalars);
  }

  /** A finished launch: its exit status and its error output's own lines. */
  private record Launch(int exit, List<String> errors) {}

  private static Launch launch(Path dir, int steps, List<String> jvm, String name, String... more)
      throws Exception {
    Path log = tmp.resolve(name + ".log");
    Path err = tmp.resolve(name + ".err");
    List<String> extra = new ArrayList<>(List.of(EXTRA));
    extra.addAll(List.of(more));
    String[] args = TinyRecipe.runArgs(dir, steps, extra.toArray(String[]::new));
    Process p = LaunchedMain.start(jvm, args, false, log, err);
    assertTrue(p.waitFor(300, TimeUnit.SECONDS), name + " did not end in 300 s");
    Files.writeString(
        log, Files.readString(err), StandardCharsets.UTF_8, StandardOpenOption.APPEND);
    // java.util.logging's two-line records (a date line, then LEVEL: message) are not the run's.
    List<String> own = new ArrayList<>();
    List<String> lines = Files.readAllLines(err);
    for (int i = 0; i < lines.size(); i++) {
      if (lines.get(i).matches("^[A-Z][a-z]{2} \\d{2}, \\d{4} .*")) {
        i++;
      } else {
        own.add(lines.get(i));
      }
    }
    return new Launch(p.exitValue(), own);
  }

  private static String log(String name) throws IOException {
    return Files.readString(tmp.resolve(name + ".log"));
  }

  /** Every line of {@code file} (when it exists) is whole: JSON, and the file ends in a newline. */
  private static void wholeLines(Path file) throws IOException {
    if (!Files.exists(file)) {
      return;
    }
    String text = Files.readString(file);
    assertTrue(text.isEmpty() || text.endsWith("\n"), file + " ends mid-line");
    for (String line : text.lines().toList()) {
      JSON.readTree(line); // throws on a cut line
    }
  }

  private static int marker(Path dir) throws IOException {
    Path m = dir.resolve("latest_checkpointed_iteration.txt");
    return Files.exists(m) ? Integer.parseInt(Files.readString(m).strip()) : 0;
  }

  private static List<String> listing(Path dir) throws IOException {
    try (Stream<Path> s = Files.list(dir)) {
      return s.map(p -> p.getFileName().toString()).sorted().toList();
    }
  }

  private static boolean mount(Path at, String size) throws Exception {
    Process p =
        new ProcessBuilder("mount", "-t", "tmpfs", "-o", "size=" + size, "tmpfs", at.toString())
            .redirectErrorStream(true)
            .start();
    boolean ok = p.waitFor(30, TimeUnit.SECONDS) && p.exitValue() == 0;
    if (ok) {
      MOUNTS.add(at);
    }
    return ok;
  }

  private static void remount(Path at, String size) throws Exception {
    Process p =
        new ProcessBuilder("mount", "-o", "remount,size=" + size, at.toString())
            .redirectErrorStream(true)
            .start();
    assertTrue(p.waitFor(30, TimeUnit.SECONDS) && p.exitValue() == 0, "remount " + at);
  }
}
