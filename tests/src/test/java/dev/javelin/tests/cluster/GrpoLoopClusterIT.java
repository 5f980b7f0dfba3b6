package dev.javelin.tests.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.javelin.recipes.cli.Commands;
import dev.javelin.recipes.driver.RunSummary;
import io.ray.api.Ray;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The GRPO loop on a real Ray cluster: this JVM is the driver, the trainer and two samplers are
 * worker JVMs the head started, reserved together in one placement group.
 */
class GrpoLoopClusterIT {

  @Test
  void rewardRisesWithTrainerAndTwoSamplersInWorkerProcesses(@TempDir Path dir) throws Exception {
    int steps = 14;
    ByteArrayOutputStream console = new ByteArrayOutputStream();
    RunSummary summary =
        new Commands(new PrintStream(console, true, StandardCharsets.UTF_8))
            .run("recipes/arith-grpo.yaml", ClusterRuns.run(dir, steps, 32, 1, 3));
    String printed = console.toString(StandardCharsets.UTF_8);
    assertEquals(steps, summary.lastStep(), printed);
    assertFalse(summary.stopped());
    assertFalse(Ray.getRuntimeContext().isLocalMode(), "the driver must be in cluster mode");

    // The policy only improves if every new version reaches the samplers (the pool also checks
    // each rollout's version against the version it loaded).
    Map<Integer, Double> reward = ClusterRuns.series(dir, "critic/score/mean");
    assertEquals(steps, reward.size(), "one metrics line per step");
    List<Double> r = new ArrayList<>(reward.values());
    double first = (r.get(0) + r.get(1) + r.get(2)) / 3;
    double last = (r.get(steps - 1) + r.get(steps - 2) + r.get(steps - 3)) / 3;
    assertTrue(last > first + 0.25, "reward should rise: first steps " + first + ", last " + last);
    for (String key :
        List.of(
            "reward/mean",
            "reward/count",
            "rollout/sampler_restarts",
            "rollout/sampler_rejected")) {
      assertEquals(steps, ClusterRuns.series(dir, key).size(), "metrics.jsonl lacks " + key);
    }
    assertEquals(Map.of(), nonZero(ClusterRuns.series(dir, "rollout/sampler_restarts")));
    assertEquals(Map.of(), nonZero(ClusterRuns.series(dir, "rollout/sampler_rejected")));

    String job = Ray.getRuntimeContext().getCurrentJobId().toString();
    List<ClusterRuns.Actor> trainers =
        ofJob(ClusterRuns.actors("dev.javelin.trainer.TrainerActor"), job);
    List<ClusterRuns.Actor> samplers =
        ofJob(ClusterRuns.actors("dev.javelin.recipes.ray.SamplerHost"), job);
    assertEquals(1, trainers.size(), "one trainer actor of this job: " + trainers);
    assertEquals(2, samplers.size(), "two sampler actors of this job: " + samplers);
    Set<Long> pids = new HashSet<>();
    List<ClusterRuns.Actor> all = new ArrayList<>(trainers);
    all.addAll(samplers);
    for (ClusterRuns.Actor a : all) {
      assertNotEquals(ProcessHandle.current().pid(), a.pid(), "actor in the driver's JVM: " + a);
      assertTrue(pids.add(a.pid()), "two actors share a worker process: " + all);
      assertEquals(trainers.get(0).placementGroup(), a.placementGroup(), "one placement group");
    }
    assertFalse(trainers.get(0).placementGroup().isBlank(), "actors in a placement group");
  }

  private static List<ClusterRuns.Actor> ofJob(List<ClusterRuns.Actor> actors, String job) {
    return actors.stream().filter(a -> a.jobId().equals(job)).toList();
  }

  private static Map<Integer, Double> nonZero(Map<Integer, Double> series) {
    Map<Integer, Double> out = new TreeMap<>();
    series.forEach(
        (k, v) -> {
          if (v != 0) {
            out.put(k, v);
          }
        });
    return out;
  }
}
