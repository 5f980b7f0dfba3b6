package dev.javelin.rewards;

import dev.javelin.rewards.worker.BatchOutcome;
import dev.javelin.rewards.worker.WorkerConfig;
import dev.javelin.rewards.worker.WorkerPool;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Scores with user reward code in reward worker processes ({@link WorkerPool}): a reward that calls
 * {@code System.exit}, runs out of memory, hangs or leaves threads behind costs counted errors or
 * timeouts and a replaced worker, never this JVM. Adds {@code reward/worker_restarts} and {@code
 * reward/worker_threads} to the batch metrics. The one failure it throws is a {@link
 * RewardConfigException} when the reward's workers keep dying at start-up.
 */
public final class ProcessScorer implements BatchScorer {
  private static final System.Logger LOG = System.getLogger(ProcessScorer.class.getName());
  private static final int MAX_LOGGED = 5;

  private final WorkerPool pool;
  private final AtomicReference<String> firstError = new AtomicReference<>();
  private long calls;
  private long errors;
  private long timeouts;
  private int logged;

  /** Starts the workers for {@code spec}; a bad reward fails here, naming the key. */
  public ProcessScorer(RewardSpec spec, WorkerConfig config) {
    this.pool = WorkerPool.start(spec, config);
  }

  /**
   * Whether {@code spec} names user code (a {@code path}, a {@code class}, or a name that is no
   * registered reward), which runs in workers; registered rewards run in this JVM.
   */
  public static boolean runsUserCode(RewardSpec spec) {
    return spec.path() != null
        || spec.className() != null
        || (spec.name() != null && !RewardRegistry.load().names().contains(spec.name()));
  }

  @Override
  public synchronized ScoredBatch scoreAll(List<RewardInput> inputs) {
    long t0 = System.nanoTime();
    List<RewardInput> in = inputs == null ? List.of() : inputs;
    BatchOutcome o = pool.score(in);
    int[] counts = count(o);
    calls += in.size();
    errors += counts[0];
    timeouts += counts[1];
    List<RewardResult> results = Arrays.asList(o.results());
    Map<String, Double> metrics =
        new TreeMap<>(
            RewardMetrics.summarize(results, counts[0], counts[1], (System.nanoTime() - t0) / 1e9));
    metrics.put("reward/worker_restarts", (double) o.restarts());
    metrics.put("reward/worker_threads", (double) o.maxWorkerThreads());
    return new ScoredBatch(results, metrics);
  }

  /** [errors, timeouts] of a batch, logging the first few. */
  private int[] count(BatchOutcome o) {
    int[] counts = new int[2];
    for (int i = 0; i < o.results().length; i++) {
      if (o.timedOut()[i]) {
        counts[1]++;
        note("timed out (the call or the batch ran past its time limit)");
      } else if (o.errors()[i] != null) {
        counts[0]++;
        note(o.errors()[i]);
      }
    }
    return counts;
  }

  private void note(String what) {
    firstError.compareAndSet(null, what);
    if (logged++ < MAX_LOGGED) {
      LOG.log(
          System.Logger.Level.WARNING,
          "reward function '" + functionName() + "': " + what + "; scored 0");
    }
  }

  @Override
  public synchronized long totalCalls() {
    return calls;
  }

  @Override
  public synchronized long totalErrors() {
    return errors;
  }

  @Override
  public synchronized long totalTimeouts() {
    return timeouts;
  }

  @Override
  public String functionName() {
    return pool.functionName();
  }

  @Override
  public Optional<String> firstError() {
    return Optional.ofNullable(firstError.get());
  }

  /** The worker processes' ids. */
  public List<Long> workerPids() {
    return pool.pids();
  }

  @Override
  public void close() {
    pool.close();
  }
}
