package dev.javelin.recipes.cli;

import dev.javelin.backend.checkpoint.safetensors.SafetensorsException;
import dev.javelin.datasets.DatasetException;
import dev.javelin.recipes.config.ConfigException;
import dev.javelin.recipes.config.RecipeConfig;
import dev.javelin.recipes.metrics.RunWriteException;
import dev.javelin.rewards.RewardConfigException;
import dev.javelin.trainer.CheckpointStorageException;
import java.util.Optional;

/**
 * Finds the user's mistake inside a failure: a bad recipe, reward, dataset or weights file, also
 * when it reached the driver wrapped by an actor call (Ray's actor and task exceptions carry the
 * worker's exception as a cause). Its message already names the file or key.
 */
final class BadInput {
  private static final int MAX_DEPTH = 16;

  private BadInput() {}

  /** The first bad-input exception in {@code t}'s cause chain. */
  static Optional<RuntimeException> in(Throwable t) {
    Throwable c = t;
    for (int depth = 0; c != null && depth < MAX_DEPTH; depth++, c = c.getCause()) {
      if (c instanceof ConfigException
          || c instanceof RewardConfigException
          || c instanceof DatasetException
          || c instanceof SafetensorsException
          || c instanceof CheckpointStorageException
          || c instanceof RunWriteException) {
        return Optional.of((RuntimeException) c);
      }
    }
    return Optional.empty();
  }

  /** Its message on one line (a wrapped message may carry the worker's own trace). */
  static String message(RuntimeException e) {
    RuntimeException named =
        e instanceof RewardConfigException r ? RecipeConfig.rewardProblem(r) : e;
    String m = named.getMessage() == null ? e.getClass().getSimpleName() : named.getMessage();
    return m.lines().filter(l -> !l.matches("^\\s+at .*")).reduce((a, b) -> a + "\n" + b).orElse(m);
  }
}
