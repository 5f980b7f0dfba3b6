package dev.javelin.datasets.synthetic;

import dev.javelin.datasets.Example;
import java.util.List;
import java.util.Objects;

/**
 * A train set and a held-out set with no problem in common.
 *
 * @param train training examples, {@code extraInfo.split = "train"}
 * @param heldOut evaluation examples never seen in training, {@code extraInfo.split = "test"}
 */
public record SyntheticSplit(List<Example> train, List<Example> heldOut) {
  public SyntheticSplit {
    train = List.copyOf(Objects.requireNonNull(train, "train"));
    heldOut = List.copyOf(Objects.requireNonNull(heldOut, "heldOut"));
  }
}
