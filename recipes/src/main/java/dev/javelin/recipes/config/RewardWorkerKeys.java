package dev.javelin.recipes.config;

import dev.javelin.rewards.worker.WorkerConfig;
import java.time.Duration;
import java.util.Optional;

/**
 * {@code reward.workers.*} and {@code reward.batch_timeout_s}: user reward code (a {@code
 * custom_reward_function.path} or {@code .class}) runs in this many worker processes, each with its
 * own heap limit, so that a reward that exits, runs out of memory, hangs or leaks threads costs
 * counted errors and a replaced worker, never the run. {@code reward.timeout_s} is the limit of one
 * call, {@code reward.batch_timeout_s} that of one batch's calls together.
 */
public final class RewardWorkerKeys {
  static final KeySet KEYS = new KeySet("reward.");
  static final KeySpec ENABLE =
      KEYS.of(
          "workers.enable",
          KeyType.BOOL,
          true,
          "run custom reward code in worker processes (false: in the training JVM)");
  static final KeySpec NUM =
      KEYS.optional(
          "workers.num", KeyType.INT, "reward worker processes (default: cores, at most 4)");
  static final KeySpec HEAP =
      KEYS.of("workers.heap", KeyType.STRING, "512m", "each reward worker's heap (-Xmx)");
  static final KeySpec BATCH_TIMEOUT_S =
      KEYS.of(
          "batch_timeout_s",
          KeyType.DOUBLE,
          120.0,
          "time limit of one batch's reward calls, seconds; unfinished rows are timeouts");

  private RewardWorkerKeys() {}

  /** The worker settings, or empty when {@code reward.workers.enable} is false. */
  public static Optional<WorkerConfig> from(Settings s, Duration callTimeout) {
    if (!s.getBool(ENABLE)) {
      return Optional.empty();
    }
    int num = s.isSet(NUM) ? s.getInt(NUM) : WorkerConfig.defaultWorkers();
    Checks.require(num >= 1 && num <= 64, NUM.name(), "must be in [1, 64], got " + num);
    String heap = s.getString(HEAP).trim();
    Checks.require(
        heap.matches("[1-9][0-9]{0,6}[kKmMgG]?"),
        HEAP.name(),
        "must be a heap size such as 512m or 2g, got '" + heap + "'");
    double batch = s.getDouble(BATCH_TIMEOUT_S);
    double call = callTimeout.toMillis() / 1000.0;
    Checks.require(
        batch >= call,
        BATCH_TIMEOUT_S.name(),
        "must be at least "
            + RecipeConfig.REWARD_TIMEOUT_S.name()
            + " ("
            + call
            + "), got "
            + batch);
    WorkerConfig d = WorkerConfig.defaults();
    return Optional.of(
        new WorkerConfig(
            num,
            heap,
            callTimeout,
            Duration.ofMillis((long) (batch * 1000)),
            d.maxStartFailures(),
            d.maxWorkerThreads()));
  }
}
