package dev.javelin.recipes.api;

import dev.javelin.recipes.driver.RunSummary;
import dev.javelin.recipes.driver.StopSignal;
import dev.javelin.recipes.ray.RayRuntime;
import dev.javelin.trainer.Checkpointer;
import dev.javelin.trainer.ResumeMode;
import java.nio.file.Path;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.atomic.AtomicReference;

/**
 * A GRPO run in progress: {@link #start} runs a {@link RunSpec} on a thread of its own and returns
 * at once; {@link #await} waits for its {@link RunResult}; {@link #stop} ends it after the current
 * step with a checkpoint; {@link #close} stops it and waits. {@link #run} is the same run in the
 * calling thread, stopped by Ctrl-C, as {@code javelin run} does.
 *
 * <pre>{@code
 * try (GrpoRun run = GrpoRun.start(spec)) {
 *   RunResult result = run.await();
 *   System.out.println(result.finalCheckpoint().orElseThrow());
 * } finally {
 *   GrpoRun.shutdown(); // lets the JVM exit
 * }
 * }</pre>
 */
public final class GrpoRun implements AutoCloseable {
  private final StopSignal stop;
  private final AtomicReference<RunEvent> last = new AtomicReference<>();
  private final CompletableFuture<RunResult> result = new CompletableFuture<>();

  private GrpoRun(StopSignal stop) {
    this.stop = stop;
  }

  /**
   * Starts {@code spec} on a new thread ({@code javelin-run}); failures come from {@link #await}.
   */
  public static GrpoRun start(RunSpec spec) {
    Objects.requireNonNull(spec, "spec");
    GrpoRun run = new GrpoRun(new StopSignal());
    Thread t = new Thread(() -> run.execute(spec), "javelin-run");
    t.start();
    return run;
  }

  /**
   * Runs {@code spec} in this thread to its end; Ctrl-C (SIGINT) or SIGTERM ends it after the
   * current step with a checkpoint. A bad spec or failed run throws as {@link #await} does.
   */
  public static RunResult run(RunSpec spec) {
    GrpoRun run = new GrpoRun(StopSignal.onInterrupt());
    run.execute(Objects.requireNonNull(spec, "spec"));
    return run.await();
  }

  private void execute(RunSpec spec) {
    try {
      RunSummary summary =
          GrpoLauncher.run(
              spec,
              stop,
              (step, total, metrics) -> {
                RunEvent e = new RunEvent(step, total, metrics);
                last.set(e);
                spec.listeners().forEach(l -> l.onStep(e));
              });
      Map<String, Double> metrics = lastEvent().map(RunEvent::metrics).orElse(Map.of());
      result.complete(new RunResult(summary, newestCheckpoint(summary.runDir()), metrics));
    } catch (RuntimeException | Error e) {
      result.completeExceptionally(e);
    } finally {
      stop.finished(); // also when the run failed before its loop began
    }
  }

  private static Path newestCheckpoint(Path runDir) {
    return new Checkpointer(runDir, 0).resolve(new ResumeMode.Auto()).orElse(null);
  }

  /**
   * Ends Ray in this JVM once the program is done with every run: Ray keeps threads alive that
   * would otherwise stop the JVM from exiting after {@code main} returns. A later run starts it
   * again.
   */
  public static void shutdown() {
    RayRuntime.shutdown();
  }

  /** The last logged step, once there is one. */
  public Optional<RunEvent> lastEvent() {
    return Optional.ofNullable(last.get());
  }

  /** The last logged step's metrics (empty before the first). */
  public Map<String, Double> metrics() {
    return lastEvent().map(RunEvent::metrics).orElse(Map.of());
  }

  /** Whether the run has ended (finished, stopped or failed). */
  public boolean isDone() {
    return result.isDone();
  }

  /** Asks the run to end after the current step, saving a checkpoint; returns at once. */
  public void stop() {
    stop.request();
  }

  /**
   * Waits for the run's end. A bad spec throws {@code ConfigException} (one line naming the key or
   * file); any other failure is rethrown as the run threw it.
   */
  public RunResult await() {
    try {
      return result.get();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new CancellationException("interrupted while waiting for the run");
    } catch (ExecutionException e) {
      if (e.getCause() instanceof RuntimeException r) {
        throw r;
      }
      if (e.getCause() instanceof Error err) {
        throw err;
      }
      throw new IllegalStateException(e.getCause());
    }
  }

  /** Stops the run after its current step and waits for it to end; its failure is not thrown. */
  @Override
  public void close() {
    stop();
    result.exceptionally(e -> null).join();
  }
}
