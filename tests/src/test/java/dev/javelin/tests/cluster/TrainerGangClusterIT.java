package dev.javelin.tests.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.javelin.recipes.cli.Commands;
import dev.javelin.recipes.driver.RunSummary;
import dev.javelin.tests.TinyRuns;
import io.ray.api.Ray;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A trainer gang of separate processes on the loopback head ({@code trainer.nnodes=2}, {@code
 * trainer.ray=cluster}): two rank actors in worker JVMs of their own, in a placement group of their
 * own ({@code trainer.gang_placement=PACK}, as the head is one node), train as the gang of two
 * threads of one JVM does; a rank whose process is killed restarts the gang from the last
 * checkpoint; a group that cannot be placed is one line naming the key.
 */
class TrainerGangClusterIT {
  private static final String RANK_CLASS = "dev.javelin.recipes.ray.TrainerRank";
  private static final String[] GANG = {
    "trainer.nnodes=2",
    // 64 samples a step in micro-batches of 16: four micro-batches, two per rank
    "actor_rollout_ref.actor.ppo_micro_batch_size_per_gpu=16",
  };
  private static final Pattern FAILED =
      Pattern.compile("^trainer rank 1 failed at step (\\d+): its Ray actor died \\(");
  private static final Commands QUIET =
      new Commands(new PrintStream(OutputStream.nullOutputStream()));

  @Test
  void twoRankProcessesTrainAsTwoRankThreads(@TempDir Path dir) throws Exception {
    int steps = 3;
    Path threads = dir.resolve("threads");
    Path processes = dir.resolve("processes");
    long t0 = System.nanoTime();
    QUIET.run("recipes/arith-grpo.yaml", threadRun(threads, steps, 32, 1, 3));
    long t1 = System.nanoTime();
    List<Long> before = pids(ClusterRuns.actors(RANK_CLASS)); // earlier runs of this JVM's job
    RunSummary summary = QUIET.run("recipes/arith-grpo.yaml", gangRun(processes, steps, 32, 1, 3));
    long t2 = System.nanoTime();
    System.out.printf(
        Locale.ROOT,
        "trainer gang of 2, %d steps: threads %.1f s, Ray worker processes %.1f s%n",
        steps,
        (t1 - t0) / 1e9,
        (t2 - t1) / 1e9);
    assertEquals(steps, summary.lastStep());
    for (String key :
        new String[] {
          "actor/pg_loss", "actor/grad_norm", "actor/entropy", "critic/score/mean", "actor/lr"
        }) {
      Map<Integer, Double> a = ClusterRuns.series(threads, key);
      assertEquals(steps, a.size(), key + " once per step");
      Map<Integer, Double> b = ClusterRuns.series(processes, key);
      assertEquals(a.keySet(), b.keySet(), key);
      TinyRuns.assertSeriesClose(a, b, key);
    }
    // the same shares summed in the same order: the processes' weights are the threads', bit for
    // bit
    TinyRuns.assertSameWeightFiles(
        threads.resolve("global_step_3"),
        processes.resolve("global_step_3"),
        "weights and moments after step 3");

    String job = Ray.getRuntimeContext().getCurrentJobId().toString();
    List<ClusterRuns.Actor> ranks =
        ofJob(ClusterRuns.actors(RANK_CLASS), job).stream()
            .filter(a -> !before.contains(a.pid()))
            .toList();
    List<ClusterRuns.Actor> samplers =
        ofJob(ClusterRuns.actors("dev.javelin.recipes.ray.SamplerHost"), job);
    assertEquals(2, ranks.size(), "two trainer rank actors: " + ranks);
    assertNotEquals(ranks.get(0).pid(), ranks.get(1).pid(), "one worker process per rank");
    for (ClusterRuns.Actor r : ranks) {
      assertNotEquals(ProcessHandle.current().pid(), r.pid(), "a rank in the driver: " + r);
      assertFalse(r.placementGroup().isBlank(), "a rank outside a placement group: " + r);
      assertEquals(ranks.get(0).placementGroup(), r.placementGroup(), "one group for the gang");
      assertNotEquals(samplers.get(0).placementGroup(), r.placementGroup(), "the gang's own");
    }
    copyForTransformers(processes.resolve("global_step_3"));
  }

  @Test
  void aRankProcessKilledOnceRestartsTheGangFromTheLastCheckpoint(@TempDir Path dir)
      throws Exception {
    int steps = 6;
    Path straight = dir.resolve("straight");
    Path killed = dir.resolve("killed");
    QUIET.run(
        "recipes/arith-grpo.yaml", gangRun(straight, steps, 64, 2, 12, "trainer.save_freq=2"));

    ByteArrayOutputStream console = new ByteArrayOutputStream();
    List<String> overrides = gangRun(killed, steps, 64, 2, 12, "trainer.save_freq=2");
    CompletableFuture<RunSummary> run =
        CompletableFuture.supplyAsync(
            () ->
                new Commands(new PrintStream(console, true, StandardCharsets.UTF_8))
                    .run("recipes/arith-grpo.yaml", overrides));
    long victim = rankOnePid(run);
    awaitTrue(
        () -> Files.isDirectory(killed.resolve("global_step_2")) || run.isDone(),
        "the step-2 checkpoint never appeared");
    assertFalse(run.isDone(), "the run ended before the kill: " + console);
    kill(victim);
    long killedAt = System.nanoTime();
    RunSummary summary = run.get(300, TimeUnit.SECONDS);
    System.out.printf(
        Locale.ROOT,
        "trainer gang restart: the run ended %.1f s after rank 1's kill%n",
        (System.nanoTime() - killedAt) / 1e9);

    String printed = console.toString(StandardCharsets.UTF_8);
    assertEquals(steps, summary.lastStep(), printed);
    assertFalse(summary.stopped(), printed);
    List<String> said = printed.lines().filter(l -> l.startsWith("trainer rank ")).toList();
    assertEquals(1, said.size(), printed);
    String line = said.get(0);
    System.out.println(line);
    Matcher m = FAILED.matcher(line);
    assertTrue(m.find(), line);
    // killed as the step-2 checkpoint appeared: the failure shows at the gang's next call, in
    // step 3 or, if that step's trainer calls were done, step 4; the last checkpoint is step 2's
    int step = Integer.parseInt(m.group(1));
    assertTrue(step == 3 || step == 4, line);
    assertTrue(
        line.endsWith(
            "; restarting the trainer gang from "
                + killed.resolve("global_step_2")
                + " (restart 1 of trainer.max_restarts=3)"),
        line);
    TinyRuns.assertSameWeightFiles(
        straight.resolve("global_step_6"),
        killed.resolve("global_step_6"),
        "weights and moments after step 6");
    for (String key : new String[] {"actor/pg_loss", "actor/grad_norm", "critic/score/mean"}) {
      Map<Integer, Double> a = ClusterRuns.series(straight, key);
      assertEquals(steps, a.size(), key + " once per step");
      assertEquals(a, ClusterRuns.series(killed, key), key);
    }
  }

  @Test
  void aStrictSpreadGangOnOneNodeIsOneLineNamingTheKey(@TempDir Path dir) {
    List<String> o = ClusterRuns.run(dir, 1, 32, 1, 3, GANG);
    System.setProperty("javelin.ray.reserve-timeout-s", "5"); // the head is one node: never placed
    RuntimeException e;
    try {
      e = assertThrows(RuntimeException.class, () -> QUIET.run("recipes/arith-grpo.yaml", o));
    } finally {
      System.clearProperty("javelin.ray.reserve-timeout-s");
    }
    String m = e.getMessage();
    assertTrue(m.contains("trainer.gang_placement=STRICT_SPREAD within 5 s"), m);
    assertTrue(m.contains("set trainer.gang_placement=PACK"), m);
    assertEquals(1, m.lines().count(), m);
  }

  /** A run of the gang as threads of this JVM, without Ray. */
  private static List<String> threadRun(
      Path dir, int steps, int hidden, int layers, int response, String... extra) {
    List<String> o = new ArrayList<>(ClusterRuns.shape(dir, steps, hidden, layers, response));
    o.add("trainer.ray=off");
    o.addAll(List.of(GANG));
    o.addAll(List.of(extra));
    return o;
  }

  /** The same run with its ranks as Ray worker processes of the loopback head. */
  private static List<String> gangRun(
      Path dir, int steps, int hidden, int layers, int response, String... extra) {
    List<String> o = new ArrayList<>(ClusterRuns.run(dir, steps, hidden, layers, response));
    o.addAll(List.of(GANG));
    o.add("trainer.gang_placement=PACK");
    o.addAll(List.of(extra));
    return o;
  }

  /**
   * The live rank 1 of this job: of the two rank processes, the one that does not serve the gang's
   * store (rank 0's store runs a thread named javelin-store-accept; Linux keeps 15 characters).
   */
  private static long rankOnePid(CompletableFuture<?> run) throws Exception {
    String job = Ray.getRuntimeContext().getCurrentJobId().toString();
    List<Long> alive = new ArrayList<>();
    awaitTrue(
        () -> {
          alive.clear();
          try {
            for (ClusterRuns.Actor a : ofJob(ClusterRuns.actors(RANK_CLASS), job)) {
              if (a.state().equals("ALIVE") && a.pid() > 0) {
                alive.add(a.pid());
              }
            }
          } catch (IOException | InterruptedException e) {
            return false;
          }
          return alive.size() == 2 || run.isDone();
        },
        "two live ranks");
    assertEquals(2, alive.size(), "two live ranks: " + alive);
    List<Long> notServing = new ArrayList<>();
    for (long pid : alive) {
      if (!threadNames(pid).contains("javelin-store-a")) {
        notServing.add(pid);
      }
    }
    assertEquals(1, notServing.size(), "one rank without the store: " + alive);
    return notServing.get(0);
  }

  private static List<String> threadNames(long pid) throws IOException {
    List<String> out = new ArrayList<>();
    try (Stream<Path> tasks = Files.list(Path.of("/proc/" + pid + "/task"))) {
      for (Path t : tasks.toList()) {
        try {
          out.add(Files.readString(t.resolve("comm")).strip());
        } catch (IOException e) {
          // a thread that ended meanwhile
        }
      }
    }
    return out;
  }

  /**
   * Keeps the two-rank checkpoint in tests/target/hf-writeback/gang-2-ranks for
   * tools/hf_load_check.py (transformers loads it as it is).
   */
  private static void copyForTransformers(Path checkpoint) throws IOException {
    Path to = Path.of("target/hf-writeback/gang-2-ranks").toAbsolutePath();
    Files.createDirectories(to);
    try (Stream<Path> files = Files.list(checkpoint)) {
      for (Path f : files.filter(Files::isRegularFile).toList()) {
        Files.copy(
            f, to.resolve(f.getFileName()), java.nio.file.StandardCopyOption.REPLACE_EXISTING);
      }
    }
  }

  private static List<Long> pids(List<ClusterRuns.Actor> actors) {
    return actors.stream().map(ClusterRuns.Actor::pid).toList();
  }

  private static List<ClusterRuns.Actor> ofJob(List<ClusterRuns.Actor> actors, String job) {
    return actors.stream().filter(a -> a.jobId().equals(job)).toList();
  }

  private static void kill(long pid) throws Exception {
    Process p = new ProcessBuilder("kill", "-9", Long.toString(pid)).inheritIO().start();
    assertEquals(0, p.waitFor(), "kill -9 " + pid);
  }

  private static void awaitTrue(BooleanSupplier condition, String what) throws Exception {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(300);
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() > deadline) {
        fail(what + " within 300 s");
      }
      Thread.sleep(10);
    }
  }
}
