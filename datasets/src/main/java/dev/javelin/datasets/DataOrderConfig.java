package dev.javelin.datasets;

/**
 * How prompts are ordered into steps, with VeRL's key names.
 *
 * @param trainBatchSize prompts per step ({@code data.train_batch_size})
 * @param dropLast drop an epoch's last, smaller batch instead of yielding it
 * @param shuffle reshuffle every epoch ({@code data.shuffle}); false keeps file order
 * @param seed the shuffle seed ({@code data.seed})
 */
public record DataOrderConfig(int trainBatchSize, boolean dropLast, boolean shuffle, long seed) {
  public DataOrderConfig {
    if (trainBatchSize <= 0) {
      throw new IllegalArgumentException(
          "data order: trainBatchSize must be > 0, got " + trainBatchSize);
    }
  }
}
