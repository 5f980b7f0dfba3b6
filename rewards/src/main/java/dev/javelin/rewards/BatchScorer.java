package dev.javelin.rewards;

import java.util.List;
import java.util.Optional;

/**
 * Scores batches of rollouts and never throws a reward's failure into the caller: {@link
 * RewardScorer} runs the function in this JVM (built-in rewards), {@link ProcessScorer} in reward
 * worker processes (user code). Both count errors and timeouts the same way.
 */
public sealed interface BatchScorer extends AutoCloseable permits RewardScorer, ProcessScorer {

  /** Scores every input; one result per input, in order. */
  ScoredBatch scoreAll(List<RewardInput> inputs);

  /** Inputs scored so far, failed ones included. */
  long totalCalls();

  /** Errors counted since this scorer was created. */
  long totalErrors();

  /** Timeouts counted since this scorer was created. */
  long totalTimeouts();

  /** The function's name, for messages. */
  String functionName();

  /** The first failure seen (its exception and message, or the time limit), if any. */
  Optional<String> firstError();

  @Override
  void close();
}
