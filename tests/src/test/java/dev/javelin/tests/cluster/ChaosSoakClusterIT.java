package dev.javelin.tests.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.javelin.grpo.MetricNames;
import dev.javelin.trainer.FaultPoint;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The chaos soak: an arith-grpo run in cluster mode while a seeded scheduler kills, at random
 * moments, a sampler's worker ({@code kill -9}: the run carries on), the trainer's worker (the run
 * stops with exit 1) or the driver (SIGKILL: exit 137). Instead of a kill, the first run and a
 * third of the reruns (drawn) halt the driver at a named window around a checkpoint ({@link
 * FaultPoint}, exit 137): the first after step 1's records, before any checkpoint exists; the
 * others after a step's records with its checkpoint not begun, with the checkpoint half-written,
 * between its rename and the marker naming it, or right after the marker. After every stop the same
 * command is run again, until the run ends. Nothing may be lost or done twice: the final checkpoint
 * equals an uninterrupted run's with the same seed file for file (its CRC32C manifest),
 * batches.jsonl and the per-step scores are the same, and metrics.jsonl has every step exactly
 * once.
 *
 * <p>Short form in CI: {@code javelin.chaos.faults} (default 5) faults over {@code 2 faults + 2}
 * steps; long form: {@code bench/chaos-soak.sh} (50 faults). {@code javelin.chaos.seed} picks the
 * plan; the first three faults are one of each kind in a seeded order, so every kind happens, and
 * the windows of the reruns' halts likewise come each once before any comes again.
 */
class ChaosSoakClusterIT {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String TRAINER = "dev.javelin.trainer.TrainerActor";
  private static final String SAMPLER = "dev.javelin.recipes.ray.SamplerHost";

  /** The windows a rerun may halt in: each is past the rerun's first new checkpoint. */
  private static final List<String> WINDOWS =
      List.of(
          "records-written@2",
          "checkpoint-partial@2",
          "checkpoint-renamed@2",
          "checkpoint-saved@1");

  /** What the scheduler kills. */
  enum Fault {
    SAMPLER,
    TRAINER,
    DRIVER
  }

  @Test
  void killsAtRandomMomentsLoseNothing(@TempDir Path tmp) throws Exception {
    int faults = Integer.getInteger("javelin.chaos.faults", 5);
    long seed = Long.getLong("javelin.chaos.seed", 20261202L);
    int steps = Integer.getInteger("javelin.chaos.steps", 2 * faults + 2);
    Path root = Path.of(System.getProperty("javelin.root"));

    Path clean = tmp.resolve("uninterrupted");
    long t0 = System.nanoTime();
    Process p =
        LaunchedRun.start(LaunchedRun.command(root, clean, steps), root, tmp.resolve("clean.log"));
    assertTrue(p.waitFor(600, TimeUnit.SECONDS), "the uninterrupted run did not end in 600 s");
    assertEquals(0, p.exitValue(), Files.readString(tmp.resolve("clean.log")));
    double cleanS = (System.nanoTime() - t0) / 1e9;
    long stepMs = Math.round(1000 * median(ClusterRuns.series(clean, MetricNames.STEP_SECONDS)));

    Path chaos = tmp.resolve("chaos");
    t0 = System.nanoTime();
    Soak soak = new Soak(root, chaos, LaunchedRun.command(root, chaos, steps), plan(seed, faults));
    soak.run(new SplittableRandom(seed * 31 + 7), Math.max(200, stepMs));
    System.out.printf(
        Locale.ROOT,
        "chaos soak: %d faults (%s) and %d halts at windows, %d runs, %.1f s; the uninterrupted"
            + " run %.1f s (%d steps, median step %d ms)%n%s%n",
        faults,
        soak.counts(),
        soak.halts,
        soak.runs,
        (System.nanoTime() - t0) / 1e9,
        cleanS,
        steps,
        stepMs,
        String.join("\n", soak.events));

    assertEquals(steps, LaunchedRun.lastCheckpoint(chaos), "the run reached its last step");
    assertEquals(
        state(clean, steps), state(chaos, steps), "the driver's state in the final checkpoint");
    assertEquals(
        manifest(clean, steps), manifest(chaos, steps), "final checkpoint equals the clean run's");
    assertEquals(recipe(clean, steps), recipe(chaos, steps), "the same recipe, but for the dir");
    assertEquals(
        Files.readAllLines(clean.resolve("batches.jsonl")),
        Files.readAllLines(chaos.resolve("batches.jsonl")),
        "the same batches in the same order");
    LaunchedRun.auditBatches(chaos, steps);
    assertEquals(stepsOnce(steps), stepCounts(chaos), "metrics.jsonl: every step exactly once");
    assertEquals(
        ClusterRuns.series(clean, MetricNames.SCORE_MEAN),
        ClusterRuns.series(chaos, MetricNames.SCORE_MEAN),
        "the same scores per step");
  }

  /** {@code faults} faults: one of each kind first (seeded order), then seeded draws. */
  static List<Fault> plan(long seed, int faults) {
    SplittableRandom rng = new SplittableRandom(seed);
    List<Fault> kinds = new ArrayList<>(List.of(Fault.values()));
    List<Fault> plan = new ArrayList<>();
    while (!kinds.isEmpty() && plan.size() < faults) {
      plan.add(kinds.remove(rng.nextInt(kinds.size())));
    }
    Fault[] all = Fault.values();
    while (plan.size() < faults) {
      plan.add(all[rng.nextInt(all.length)]);
    }
    return plan;
  }

  /** Runs the command again after every stop until it ends, injecting the plan's faults. */
  private static final class Soak {
    private final Path root;
    private final Path dir;
    private final List<String> command;
    private final List<Fault> plan;
    private SplittableRandom rng = new SplittableRandom(0);
    final List<String> events = new ArrayList<>();
    int runs;
    int halts;
    private int next;
    private final List<String> windowsLeft = new ArrayList<>();

    Soak(Path root, Path dir, List<String> command, List<Fault> plan) {
      this.root = root;
      this.dir = dir;
      this.command = command;
      this.plan = plan;
    }

    void run(SplittableRandom moments, long maxDelayMs) throws Exception {
      rng = moments;
      while (true) {
        runs++;
        Path log = dir.resolveSibling("chaos-run" + runs + ".log");
        Files.createDirectories(dir);
        int resumeFrom = LaunchedRun.lastCheckpoint(dir);
        String window = null;
        if (runs == 1) {
          window = "records-written@1"; // before the first checkpoint
        } else if (moments.nextInt(3) == 0) {
          window = nextWindow(moments);
        }
        Process p = LaunchedRun.start(command, root, log, window);
        Fault last = null;
        // A run with a window gets no kill besides it: a kill would mostly come first.
        while (window == null && p.isAlive() && next < plan.size()) {
          // A fault at a random moment after the run's next checkpoint: anywhere in a step.
          int from = LaunchedRun.lastCheckpoint(dir);
          if (!LaunchedRun.awaitCheckpoint(dir, from + 1, p, 300, log)) {
            break;
          }
          Thread.sleep(moments.nextLong(maxDelayMs));
          if (p.isAlive() && inject(plan.get(next), p)) {
            last = plan.get(next++);
          }
        }
        assertTrue(p.waitFor(600, TimeUnit.SECONDS), "run " + runs + " did not end in 600 s");
        String out = Files.readString(log, StandardCharsets.UTF_8);
        for (int done = 1; done <= resumeFrom; done++) {
          assertFalse(out.contains("step " + done + "/"), "run " + runs + " redid step " + done);
        }
        if (p.exitValue() == 0) {
          if (next < plan.size()) {
            fail(
                "the run ended after "
                    + next
                    + " of "
                    + plan.size()
                    + " faults; raise javelin.chaos.steps:\n"
                    + String.join("\n", events));
          }
          return;
        }
        if (window != null && p.exitValue() == FaultPoint.HALT_STATUS && last != Fault.DRIVER) {
          halts++;
          events.add(
              String.format(
                  Locale.ROOT,
                  "  run %d, after checkpoint %d: halted at %s, at checkpoint %d",
                  runs,
                  resumeFrom,
                  window,
                  LaunchedRun.lastCheckpoint(dir)));
        } else {
          expectStop(last, p.exitValue(), out);
        }
        awaitNoActors();
      }
    }

    /** Every window once (in a seeded order) before any is drawn again, as with the faults. */
    private String nextWindow(SplittableRandom moments) {
      if (windowsLeft.isEmpty()) {
        windowsLeft.addAll(WINDOWS);
      }
      return windowsLeft.remove(moments.nextInt(windowsLeft.size()));
    }

    /** Applies {@code fault}; false when there was nothing to kill right now (retried later). */
    private boolean inject(Fault fault, Process driver) throws Exception {
      int at = LaunchedRun.lastCheckpoint(dir);
      long pid =
          switch (fault) {
            case SAMPLER -> pick(LaunchedRun.alivePids(SAMPLER));
            case TRAINER -> pick(LaunchedRun.alivePids(TRAINER));
            case DRIVER -> driver.pid();
          };
      if (pid < 0) {
        return false;
      }
      ProcessHandle.of(pid).ifPresent(ProcessHandle::destroyForcibly); // SIGKILL
      events.add(
          String.format(
              Locale.ROOT,
              "  run %d, after checkpoint %d: kill -9 %s (pid %d)",
              runs,
              at,
              fault,
              pid));
      return true;
    }

    private long pick(List<Long> pids) {
      return pids.isEmpty() ? -1 : pids.get(rng.nextInt(pids.size()));
    }

    /** A stop is only ever the fault just injected: SIGKILL of the driver, or its dead trainer. */
    private void expectStop(Fault last, int exit, String out) {
      if (last == Fault.DRIVER) {
        assertEquals(137, exit, "driver killed by SIGKILL:\n" + out);
      } else if (last == Fault.TRAINER) {
        assertEquals(1, exit, out);
        assertTrue(out.contains("trainer actor's worker process died"), out);
      } else {
        fail("run " + runs + " stopped (exit " + exit + ") after a " + last + " fault:\n" + out);
      }
    }

    /** Waits until the stopped run's actors are gone, so the next kill finds the new run's. */
    private static void awaitNoActors() throws Exception {
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(90);
      while (!LaunchedRun.alivePids(SAMPLER).isEmpty()
          || !LaunchedRun.alivePids(TRAINER).isEmpty()) {
        if (System.nanoTime() > deadline) {
          fail("a stopped run's actors were still alive after 90 s");
        }
        Thread.sleep(200);
      }
    }

    String counts() {
      Map<Fault, Integer> n = new TreeMap<>();
      plan.subList(0, next).forEach(f -> n.merge(f, 1, Integer::sum));
      return n.toString();
    }
  }

  /**
   * The final checkpoint's manifest, every file's length and CRC32C, but recipe.yaml's: it names
   * the run directory, which differs ({@link #recipe} compares it without).
   */
  private static JsonNode manifest(Path dir, int step) throws IOException {
    Path m = dir.resolve("global_step_" + step).resolve("checkpoint_manifest.json");
    ObjectNode files = (ObjectNode) JSON.readTree(m.toFile()).get("files");
    assertTrue(files.has("recipe.yaml"), files.toString());
    files.remove("recipe.yaml");
    return files;
  }

  private static String state(Path dir, int step) throws IOException {
    return Files.readString(dir.resolve("global_step_" + step).resolve("trainer_state.json"));
  }

  private static String recipe(Path dir, int step) throws IOException {
    return Files.readString(dir.resolve("global_step_" + step).resolve("recipe.yaml"))
        .replace(dir.toString(), "<run dir>");
  }

  private static Map<Integer, Integer> stepCounts(Path dir) throws IOException {
    Map<Integer, Integer> n = new TreeMap<>();
    for (String line : Files.readAllLines(dir.resolve("metrics.jsonl"))) {
      JsonNode r = JSON.readTree(line);
      if (r.has(MetricNames.STEP_SECONDS)) {
        n.merge(r.get("step").asInt(), 1, Integer::sum);
      }
    }
    return n;
  }

  private static Map<Integer, Integer> stepsOnce(int steps) {
    Map<Integer, Integer> n = new TreeMap<>();
    for (int s = 1; s <= steps; s++) {
      n.put(s, 1);
    }
    return n;
  }

  private static double median(Map<Integer, Double> values) {
    List<Double> v = new ArrayList<>(values.values());
    v.sort(null);
    return v.isEmpty() ? 1.0 : v.get(v.size() / 2);
  }
}
