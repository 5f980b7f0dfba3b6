package dev.javelin.rewards.worker;

import dev.javelin.rewards.RewardResult;

/**
 * What the workers made of one batch, row by row: a result, an error (the reward threw, or its
 * worker died on that row), or a timeout (its call or the batch ran out of time). Arrays are (B,).
 *
 * @param results each row's result; {@link RewardResult#zero()} for errors and timeouts
 * @param errors the error of each failed row, else null
 * @param timedOut whether each row ran out of time
 * @param restarts workers replaced while scoring this batch
 * @param maxWorkerThreads the most live threads a worker reported after a frame
 */
public record BatchOutcome(
    RewardResult[] results,
    String[] errors,
    boolean[] timedOut,
    long restarts,
    int maxWorkerThreads) {}
