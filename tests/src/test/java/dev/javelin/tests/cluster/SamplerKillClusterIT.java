package dev.javelin.tests.cluster;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.fail;

import dev.javelin.recipes.cli.Commands;
import dev.javelin.recipes.config.RecipeConfig;
import dev.javelin.recipes.config.Recipes;
import dev.javelin.recipes.driver.ModelInit;
import dev.javelin.recipes.driver.RunSummary;
import dev.javelin.recipes.driver.SamplerPool;
import dev.javelin.recipes.ray.RaySamplerPool;
import dev.javelin.recipes.ray.Workers;
import dev.javelin.sampler.GenerationRequest;
import dev.javelin.sampler.GenerationResult;
import dev.javelin.sampler.Rollout;
import dev.javelin.sampler.SamplingParams;
import io.ray.api.Ray;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A sampler's worker process is killed with SIGKILL while it generates: its actor restarts, gets
 * the current weights again, and only its chunk is generated again.
 */
class SamplerKillClusterIT {
  /** Long enough generation (~1 s per chunk) to kill a sampler in the middle of it. */
  private static final int HIDDEN = 128;

  private static final int LAYERS = 2;
  private static final int RESPONSE = 48;
  private static final String ONE_SLOT = "actor_rollout_ref.rollout.max_num_seqs=1";

  @Test
  void theInterruptedChunkIsRegeneratedExactlyOnce(@TempDir Path dir) throws Exception {
    RecipeConfig recipe =
        Recipes.load(
            "recipes/arith-grpo.yaml", ClusterRuns.run(dir, 1, HIDDEN, LAYERS, RESPONSE, ONE_SLOT));
    int vocab = ModelInit.config(recipe).vocabSize();
    List<GenerationRequest> requests = new ArrayList<>();
    SplittableRandom rng = new SplittableRandom(5);
    for (int p = 0; p < 16; p++) {
      int[] prompt = rng.ints(5, 1, vocab).toArray();
      requests.addAll(
          GenerationRequest.group("p" + p, prompt, SamplingParams.sample(1.0, RESPONSE), 8, p));
    }
    try (Workers workers = Workers.start(recipe, 1)) {
      SamplerPool pool = workers.samplers();
      pool.loadWeights(workers.trainer().snapshot(1, recipe.rollout().weightDtype()));
      long t0 = System.nanoTime();
      GenerationResult baseline = pool.generate(requests);
      double normal = (System.nanoTime() - t0) / 1e9;
      List<Long> pids = ((RaySamplerPool) pool).pids();
      long victim = pids.get(1);

      long idle = ClusterRuns.cpuTicks(victim);
      CompletableFuture<GenerationResult> again =
          CompletableFuture.supplyAsync(() -> pool.generate(requests));
      awaitTrue(() -> ClusterRuns.cpuTicks(victim) >= idle + 10, "sampler 1 never started");
      assertFalse(again.isDone(), "generation finished before the kill; make it longer");
      long killed = System.nanoTime();
      kill(victim);
      GenerationResult result = again.get(180, TimeUnit.SECONDS);
      System.out.printf(
          Locale.ROOT,
          "sampler restart recovery: generate returned %.2f s after the kill (%.2f s unkilled)%n",
          (System.nanoTime() - killed) / 1e9,
          normal);

      assertEquals(1, pool.restarts(), "one restart");
      assertEquals(0, pool.rejectedResults());
      assertEquals(requests.size(), result.rollouts().size(), "one rollout per request");
      for (int i = 0; i < requests.size(); i++) {
        Rollout want = baseline.rollouts().get(i);
        Rollout got = result.rollouts().get(i);
        assertEquals(requests.get(i).requestId(), got.requestId(), "request order");
        // Each request's seed alone fixes its draws: the regenerated chunk matches the first run.
        assertArrayEquals(want.responseIds(), got.responseIds(), got.requestId());
        assertArrayEquals(want.logProbs(), got.logProbs(), 1e-5f, got.requestId());
        assertEquals(1, got.policyVersion());
      }
      List<Long> now = ((RaySamplerPool) pool).pids();
      assertEquals(pids.get(0), now.get(0), "sampler 0 untouched");
      assertNotEquals(victim, now.get(1), "sampler 1 runs in a new process");
    }
  }

  @Test
  void aRunSurvivesASamplerKilledMidStepAndReportsOneRestart(@TempDir Path dir) throws Exception {
    int steps = 3;
    List<String> overrides =
        ClusterRuns.run(
            dir, steps, HIDDEN, LAYERS, RESPONSE, ONE_SLOT, "actor_rollout_ref.rollout.n=16");
    ByteArrayOutputStream console = new ByteArrayOutputStream();
    CompletableFuture<RunSummary> run =
        CompletableFuture.supplyAsync(
            () ->
                new Commands(new PrintStream(console, true, StandardCharsets.UTF_8))
                    .run("recipes/arith-grpo.yaml", overrides));
    Path metrics = dir.resolve("metrics.jsonl");
    awaitTrue(() -> stepLogged(metrics, 1) || run.isDone(), "step 1 never ended");
    assertFalse(run.isDone(), "the run ended before the kill: " + console);
    long victim = aliveSamplerPids().get(0);
    long idle = ClusterRuns.cpuTicks(victim);
    // After step 1's line the sampler's next work is step 2's generation (weights came before).
    awaitTrue(() -> ClusterRuns.cpuTicks(victim) >= idle + 10, "step 2 generation never started");
    kill(victim);
    RunSummary summary = run.get(300, TimeUnit.SECONDS);

    String printed = console.toString(StandardCharsets.UTF_8);
    assertEquals(steps, summary.lastStep(), printed);
    Map<Integer, Double> restarts = ClusterRuns.series(dir, "rollout/sampler_restarts");
    assertEquals(Map.of(1, 0.0, 2, 1.0, 3, 1.0), restarts, "cumulative restarts per step");
    Map<Integer, Double> count = ClusterRuns.series(dir, "reward/count");
    for (int s = 1; s <= steps; s++) {
      assertEquals(8.0 * 16, count.get(s), "step " + s + ": one scored rollout per request");
    }
  }

  private static List<Long> aliveSamplerPids() throws Exception {
    String job = Ray.getRuntimeContext().getCurrentJobId().toString();
    List<Long> out = new ArrayList<>();
    for (ClusterRuns.Actor a : ClusterRuns.actors("dev.javelin.recipes.ray.SamplerHost")) {
      if (a.jobId().equals(job) && a.state().equals("ALIVE")) {
        out.add(a.pid());
      }
    }
    assertEquals(2, out.size(), "two live samplers of this job");
    return out;
  }

  /** Whether metrics.jsonl has the line of GRPO step {@code step} (step 0 is validation). */
  private static boolean stepLogged(Path metrics, int step) {
    try {
      return Files.exists(metrics)
          && ClusterRuns.series(metrics.getParent(), "timing_s/step").containsKey(step);
    } catch (IOException | RuntimeException e) {
      return false; // a line being written
    }
  }

  private static void kill(long pid) throws Exception {
    Process p = new ProcessBuilder("kill", "-9", Long.toString(pid)).inheritIO().start();
    assertEquals(0, p.waitFor(), "kill -9 " + pid);
  }

  private static void awaitTrue(BooleanSupplier condition, String what) throws Exception {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() > deadline) {
        fail(what + " within 120 s");
      }
      Thread.sleep(10);
    }
  }
}
