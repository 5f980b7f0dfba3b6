package dev.javelin.rewards.worker;

import dev.javelin.rewards.RewardCode;
import dev.javelin.rewards.RewardConfigException;
import dev.javelin.rewards.RewardInput;
import dev.javelin.rewards.RewardSpec;
import dev.javelin.rewards.worker.WorkerProcess.Ended;
import dev.javelin.rewards.worker.WorkerProcess.Event;
import dev.javelin.rewards.worker.WorkerProcess.Message;
import dev.javelin.rewards.worker.WorkerProcess.State;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * A small pool of reward worker JVMs scoring one recipe's reward ({@link WorkerMain}): each runs
 * with its own heap limit and {@code -XX:+ExitOnOutOfMemoryError}, on a class path of the rewards
 * code plus the reward's own. A worker that dies or overruns its time limit is replaced; workers
 * that die at start-up {@link WorkerConfig#maxStartFailures} times in a row stop the run with one
 * line naming the reward. Not thread-safe: {@link #score} runs one batch at a time.
 */
public final class WorkerPool implements AutoCloseable {
  private static final long START_LIMIT_NANOS = TimeUnit.SECONDS.toNanos(60);

  final WorkerConfig config;
  final BlockingQueue<Event> events = new LinkedBlockingQueue<>();
  final WorkerProcess[] slots;
  private final List<String> command;
  private final Map<String, Object> init;
  private final String described;
  private final StderrLog log = new StderrLog(System.err);
  private int serial;
  private int startFailures;
  private long restarts;
  private String name;
  boolean prefersBatch;
  private boolean warnedThreads;

  private WorkerPool(RewardSpec spec, WorkerConfig config) {
    this.config = config;
    this.slots = new WorkerProcess[config.workers()];
    String root = spec.path() == null ? null : RewardCode.open(spec.path()).root().toString();
    this.init = Wire.init(spec, root);
    this.command = command(config, spec.path() == null);
    this.described = describe(spec);
  }

  /**
   * Starts the workers and waits until one has built the reward, so that a bad reward (a class not
   * found, a bad keyword argument) fails here as a {@link RewardConfigException}.
   */
  public static WorkerPool start(RewardSpec spec, WorkerConfig config) {
    WorkerPool pool = new WorkerPool(spec, config);
    try {
      for (int i = 0; i < pool.slots.length; i++) {
        pool.spawn(i);
      }
      pool.awaitFirstReady();
      return pool;
    } catch (RuntimeException e) {
      pool.close();
      throw e;
    }
  }

  private void awaitFirstReady() {
    long until = System.nanoTime() + START_LIMIT_NANOS;
    while (name == null) {
      Event e = poll(until - System.nanoTime());
      if (e == null) {
        throw new RewardConfigException(
            "no reward worker for " + described + " started within 60 s");
      }
      handle(e, null);
    }
  }

  /** Scores {@code inputs} on the workers; see {@link BatchOutcome}. */
  public BatchOutcome score(List<RewardInput> inputs) {
    return new Dispatch(this, inputs).run();
  }

  /** The reward's name, as its worker reported it. */
  public String functionName() {
    return name;
  }

  /** Workers replaced since the pool started (deaths, time limits, too many threads). */
  public long restarts() {
    return restarts;
  }

  /** The worker processes' ids (for tests and diagnostics). */
  public List<Long> pids() {
    List<Long> out = new ArrayList<>();
    for (WorkerProcess w : slots) {
      if (w != null && w.state != State.GONE) {
        out.add(w.pid());
      }
    }
    return out;
  }

  Event poll(long nanos) {
    try {
      return events.poll(Math.max(0, nanos), TimeUnit.NANOSECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return null;
    }
  }

  /** Applies one event; {@code batch} (null at start-up) is told of results and deaths. */
  void handle(Event e, Dispatch batch) {
    WorkerProcess w = e.worker();
    if (w.state == State.GONE || slots[w.id % slots.length] != w) {
      return; // from a worker already killed and replaced
    }
    if (e instanceof Ended end) {
      ended(w, end, batch);
      return;
    }
    Map<String, Object> body = ((Message) e).body();
    switch (Wire.type(body)) {
      case "ready" -> ready(w, body);
      case "fail" -> failed(w, Wire.failure(body));
      case "done" -> {
        if (batch != null && w.state == State.BUSY) {
          batch.results(w, body);
        }
      }
      default -> ended(w, new Ended(w, -1, "unknown message"), batch);
    }
  }

  private void ready(WorkerProcess w, Map<String, Object> body) {
    w.state = State.IDLE;
    startFailures = 0;
    name = Wire.str(body, "name");
    prefersBatch = Boolean.TRUE.equals(body.get("batch"));
  }

  private void failed(WorkerProcess w, RewardConfigException failure) {
    retire(w, false);
    if (name == null) {
      throw failure;
    }
    startFailure(w, failure.getMessage(), -1);
  }

  private void ended(WorkerProcess w, Ended end, Dispatch batch) {
    State was = w.state;
    retire(w, false);
    if (was == State.STARTING) {
      startFailure(w, end.detail(), end.exitCode());
      return;
    }
    if (was == State.BUSY && batch != null) {
      // A garbled frame gets the worker killed, so its exit code would only say "signal 9".
      String why =
          end.detail().isEmpty()
              ? ExitCodes.describe(end.exitCode(), config.heap())
              : "reward worker sent a malformed frame (" + end.detail() + ")";
      batch.died(w, why);
    }
    replace(w);
  }

  private void startFailure(WorkerProcess w, String detail, int exitCode) {
    if (++startFailures >= config.maxStartFailures()) {
      String output = w.lastOutput();
      String last = output.isBlank() ? "" : "; its last output: " + output;
      throw new RewardConfigException(
          "the reward worker for "
              + described
              + " exited at start-up "
              + startFailures
              + " times in a row ("
              + (exitCode >= 0 ? ExitCodes.describe(exitCode, config.heap()) : detail)
              + last
              + ")");
    }
    replace(w);
  }

  /** Kills {@code w}; with {@code replace}, starts its successor. */
  void retire(WorkerProcess w, boolean replace) {
    w.state = State.GONE;
    w.kill();
    if (replace) {
      replace(w);
    }
  }

  private void replace(WorkerProcess w) {
    restarts++;
    spawn(w.id % slots.length);
  }

  /** A worker that has not built the reward within the start-up limit counts as a start failure. */
  void checkStarting(long now) {
    for (WorkerProcess w : slots) {
      if (w.state == State.STARTING && now - w.lastProgress > START_LIMIT_NANOS) {
        retire(w, false);
        startFailure(w, "it did not start within 60 s", -1);
      }
    }
  }

  /** Says once that the reward leaves threads behind (its worker is then replaced). */
  void warnThreads(WorkerProcess w) {
    if (!warnedThreads) {
      warnedThreads = true;
      System.err.println(
          "reward '"
              + name
              + "' leaves "
              + w.threads
              + " threads running in its worker (limit "
              + config.maxWorkerThreads()
              + "); the worker is replaced after such frames");
    }
  }

  private void spawn(int slot) {
    int id = slot + slots.length * serial++;
    try {
      slots[slot] = WorkerProcess.start(id, command, init, events, log);
    } catch (IOException e) {
      throw new RewardConfigException(
          "cannot start a reward worker (" + command.get(0) + ": " + e + ")");
    }
  }

  @Override
  public void close() {
    for (WorkerProcess w : slots) {
      if (w != null && w.state != State.GONE) {
        w.state = State.GONE;
        w.close();
      }
    }
  }

  private static String describe(RewardSpec spec) {
    String what = spec.className() != null ? spec.className() : spec.name();
    return "'"
        + (what == null ? "dispatcher" : what)
        + "'"
        + (spec.path() == null ? "" : " (" + spec.path() + ")");
  }

  /** The worker's command line: this JVM's java, the heap flags, the class path, the main. */
  private static List<String> command(WorkerConfig config, boolean withOwnClassPath) {
    String java =
        ProcessHandle.current()
            .info()
            .command()
            .orElse(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    return List.of(
        java,
        "-Xmx" + config.heap(),
        "-Xss1m",
        "-XX:+ExitOnOutOfMemoryError",
        "-XX:+UseSerialGC",
        "-Djava.awt.headless=true",
        "-cp",
        RewardCode.classPath(withOwnClassPath),
        WorkerMain.class.getName());
  }
}
