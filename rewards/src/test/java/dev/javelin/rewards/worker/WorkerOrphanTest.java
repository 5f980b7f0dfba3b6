package dev.javelin.rewards.worker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.javelin.rewards.ProcessScorer;
import dev.javelin.rewards.RewardInput;
import dev.javelin.rewards.RewardSpec;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * No reward worker outlives the JVM that started it: not on SIGTERM (what Ctrl-C and {@code kill}
 * do to a run: the shutdown hook kills them), not on SIGKILL (each worker sees its parent gone and
 * ends itself).
 */
class WorkerOrphanTest {

  /** A JVM that starts two workers on a hanging reward, prints their pids, and scores forever. */
  public static void main(String[] args) {
    WorkerConfig config =
        new WorkerConfig(2, "64m", Duration.ofMinutes(10), Duration.ofMinutes(10), 3, 256);
    ProcessScorer s =
        new ProcessScorer(
            new RewardSpec(HostileReward.class.getName(), null, Map.of("mode", "hang")), config);
    System.out.println("pids " + s.workerPids());
    System.out.flush();
    s.scoreAll(List.of(RewardInput.of("bad", "a", ""), RewardInput.of("bad", "b", "")));
  }

  private static List<ProcessHandle> startAndReadWorkers(Process[] holder) throws Exception {
    String java = ProcessHandle.current().info().command().orElseThrow();
    Process p =
        new ProcessBuilder(
                java,
                "-cp",
                System.getProperty("java.class.path"),
                WorkerOrphanTest.class.getName())
            .redirectError(ProcessBuilder.Redirect.DISCARD)
            .start();
    holder[0] = p;
    BufferedReader out =
        new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
    String line = out.readLine();
    assertTrue(line != null && line.startsWith("pids ["), "got " + line);
    List<ProcessHandle> workers = new ArrayList<>();
    for (String pid : line.substring(6, line.length() - 1).split(", ", -1)) {
      workers.add(ProcessHandle.of(Long.parseLong(pid)).orElseThrow());
    }
    assertEquals(2, workers.size());
    Thread.sleep(300); // the workers are now inside their hanging calls
    return workers;
  }

  private static void assertAllEnd(List<ProcessHandle> workers) throws InterruptedException {
    long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (workers.stream().anyMatch(ProcessHandle::isAlive)) {
      assertTrue(System.nanoTime() < until, "reward workers outlived their parent");
      Thread.sleep(50);
    }
  }

  @Test
  void sigtermKillsTheWorkers() throws Exception {
    Process[] p = new Process[1];
    List<ProcessHandle> workers = startAndReadWorkers(p);
    p[0].destroy(); // SIGTERM
    assertTrue(p[0].waitFor(20, TimeUnit.SECONDS));
    assertAllEnd(workers);
  }

  @Test
  void workersOfAKilledParentEndThemselves() throws Exception {
    Process[] p = new Process[1];
    List<ProcessHandle> workers = startAndReadWorkers(p);
    p[0].destroyForcibly(); // SIGKILL: no shutdown hook runs
    assertTrue(p[0].waitFor(20, TimeUnit.SECONDS));
    assertAllEnd(workers);
  }
}
