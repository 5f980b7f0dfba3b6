package dev.javelin.trainer;

import java.util.Arrays;
import java.util.Objects;

/**
 * One supervised example for the cross-entropy warm-up: the loss is −log π(response | prompt),
 * averaged over every response token of the step's batch.
 *
 * @param promptIds prompt token ids, at least one
 * @param responseIds the reference answer's token ids (with its stop token), at least one
 */
// Read-only token arrays shared with the engine (see TrainSample).
@SuppressWarnings("ArrayRecordComponent")
public record SftExample(int[] promptIds, int[] responseIds) {

  /** Validates that both parts are non-empty. */
  public SftExample {
    Objects.requireNonNull(promptIds, "promptIds");
    Objects.requireNonNull(responseIds, "responseIds");
    if (promptIds.length == 0 || responseIds.length == 0) {
      throw new IllegalArgumentException(
          "an SFT example needs a non-empty prompt and response, got "
              + promptIds.length
              + " and "
              + responseIds.length
              + " tokens");
    }
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof SftExample e
        && Arrays.equals(promptIds, e.promptIds)
        && Arrays.equals(responseIds, e.responseIds);
  }

  @Override
  public int hashCode() {
    return 31 * Arrays.hashCode(promptIds) + Arrays.hashCode(responseIds);
  }

  @Override
  public String toString() {
    return "SftExample[prompt=" + promptIds.length + ", response=" + responseIds.length + "]";
  }
}
