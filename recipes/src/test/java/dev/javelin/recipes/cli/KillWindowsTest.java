package dev.javelin.recipes.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.javelin.trainer.FaultPoint;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A run killed (the process halted as by {@code kill -9}) in each window around a checkpoint, then
 * run again with the same command, ends exactly as an uninterrupted run: metrics.jsonl has steps
 * 0..N once each with the same values (timings aside), batches.jsonl and val_generations.jsonl are
 * the same line for line, and the final checkpoint's weights, optimizer moments and state are the
 * same bytes. The kill lands at a named {@link FaultPoint}, so each window is hit every time.
 */
class KillWindowsTest {
  private static final int STEPS = 4; // checkpoints at steps 2 and 4, validations at 0, 2, 4
  private static final String[] EXTRA = {"trainer.save_freq=2", "trainer.test_freq=2"};
  private static final Pattern TIMING =
      Pattern.compile("^(timing_s|perf)/.*|.*(seconds|_per_s|idle_ratio)$");
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final List<String> CHECKPOINT_FILES =
      List.of("model.safetensors", "optimizer.safetensors", "trainer_state.json", "config.json");

  @TempDir static Path tmp;
  private static Path clean;

  /** Where the kill lands. */
  enum Window {
    /** Step 1's lines are written; no checkpoint exists yet. */
    BEFORE_THE_FIRST_CHECKPOINT("records-written@1"),
    /** Step 2's lines are written; its checkpoint is not begun. */
    BETWEEN_RECORDS_AND_RENAME("records-written@2"),
    /** Step 2's checkpoint is half-written in its temporary directory. */
    MID_CHECKPOINT_WRITE("checkpoint-partial@1"),
    /** Step 2's checkpoint is in place, the marker not yet moved to it (there is none yet). */
    BETWEEN_RENAME_AND_MARKER("checkpoint-renamed@1"),
    /** Step 2's checkpoint is renamed into place; step 3 is not begun. */
    RIGHT_AFTER_THE_RENAME("checkpoint-saved@1");

    final String point;

    Window(String point) {
      this.point = point;
    }
  }

  /** What the run directory shows right after a kill in {@code w}. */
  private static boolean landedIn(Window w, Path d) {
    return switch (w) {
      case BEFORE_THE_FIRST_CHECKPOINT -> lastStep(d) == 1 && !has(d, "global_");
      case BETWEEN_RECORDS_AND_RENAME -> lastStep(d) == 2 && !has(d, "global_");
      case MID_CHECKPOINT_WRITE -> lastStep(d) == 2 && has(d, ".tmp-global_step_2-");
      case BETWEEN_RENAME_AND_MARKER ->
          lastStep(d) == 2 && has(d, "global_step_2") && marker(d) != 2;
      case RIGHT_AFTER_THE_RENAME -> lastStep(d) == 2 && has(d, "global_step_2") && marker(d) == 2;
    };
  }

  @BeforeAll
  static void uninterrupted() throws Exception {
    clean = tmp.resolve("clean");
    assertEquals(0, launch(clean, List.of(), "clean"), log("clean"));
  }

  @ParameterizedTest
  @EnumSource(Window.class)
  void aKillInTheWindowLosesAndDoublesNothing(Window w) throws Exception {
    Path dir = tmp.resolve(w.name());
    String fault = "-D" + FaultPoint.PROPERTY + "=" + w.point + ":halt";
    String killed = w.name() + "-killed";
    assertEquals(FaultPoint.HALT_STATUS, launch(dir, List.of(fault), killed), log(killed));
    assertTrue(landedIn(w, dir), "the kill did not land in its window: " + listing(dir));

    String rerun = w.name() + "-rerun";
    assertEquals(0, launch(dir, List.of(), rerun), log(rerun));
    assertEquals(List.of(0, 1, 2, 3, 4), steps(dir), "metrics.jsonl: each step once, in order");
    assertEquals(rows(clean), rows(dir), "metrics.jsonl: the values of an uninterrupted run");
    for (String f : List.of("batches.jsonl", "val_generations.jsonl")) {
      assertEquals(lines(clean, f), lines(dir, f), f);
    }
    for (String f : CHECKPOINT_FILES) {
      assertArrayEquals(bytes(clean, f), bytes(dir, f), "global_step_" + STEPS + "/" + f);
    }
    assertTrue(!has(dir, ".tmp"), "a temporary file or directory was left: " + listing(dir));
  }

  private static int launch(Path dir, List<String> jvmArgs, String name) throws Exception {
    String[] args = TinyRecipe.runArgs(dir, STEPS, EXTRA);
    Process p = LaunchedMain.start(jvmArgs, args, false, tmp.resolve(name + ".log"), null);
    assertTrue(p.waitFor(120, TimeUnit.SECONDS), name + " did not end in 120 s");
    return p.exitValue();
  }

  private static String log(String name) throws IOException {
    return Files.readString(tmp.resolve(name + ".log"));
  }

  private static List<Integer> steps(Path dir) throws IOException {
    List<Integer> steps = new ArrayList<>();
    for (String line : lines(dir, "metrics.jsonl")) {
      steps.add(JSON.readTree(line).get("step").asInt());
    }
    return steps;
  }

  private static int lastStep(Path dir) {
    try {
      List<Integer> s = steps(dir);
      return s.isEmpty() ? -1 : s.get(s.size() - 1);
    } catch (IOException e) {
      return -1;
    }
  }

  /** metrics.jsonl without the timings, which no two runs share. */
  private static List<JsonNode> rows(Path dir) throws IOException {
    List<JsonNode> rows = new ArrayList<>();
    for (String line : lines(dir, "metrics.jsonl")) {
      ObjectNode row = (ObjectNode) JSON.readTree(line);
      List<String> timings = new ArrayList<>();
      row.fieldNames().forEachRemaining(timings::add);
      timings.removeIf(k -> !TIMING.matcher(k).matches());
      row.remove(timings);
      rows.add(row);
    }
    return rows;
  }

  private static List<String> lines(Path dir, String file) throws IOException {
    return Files.readAllLines(dir.resolve(file));
  }

  private static byte[] bytes(Path dir, String file) throws IOException {
    return Files.readAllBytes(dir.resolve("global_step_" + STEPS).resolve(file));
  }

  private static int marker(Path dir) {
    try {
      return Integer.parseInt(
          Files.readString(dir.resolve("latest_checkpointed_iteration.txt")).strip());
    } catch (IOException | NumberFormatException e) {
      return -1;
    }
  }

  private static boolean has(Path dir, String prefix) {
    return listing(dir).stream().anyMatch(n -> n.startsWith(prefix) || n.endsWith(prefix));
  }

  private static List<String> listing(Path dir) {
    try (Stream<Path> s = Files.list(dir)) {
      return s.map(p -> p.getFileName().toString()).sorted().toList();
    } catch (IOException e) {
      return List.of();
    }
  }
}
