package dev.javelin.trainer.engine;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.SplittableRandom;

/**
 * The sample order of one PPO epoch. With shuffling on, the permutation is a pure function of
 * (seed, optimizer step at the start of the update, epoch), so a resumed run replays it without
 * saving any RNG state.
 */
final class EpochOrder {
  private EpochOrder() {}

  static <T> List<T> of(List<T> samples, boolean shuffle, long seed, long step, int epoch) {
    if (!shuffle) {
      return samples;
    }
    List<T> out = new ArrayList<>(samples);
    // SplittableRandom's mixing makes nearby (step, epoch) pairs give unrelated permutations.
    long key = seed ^ (step * 0x9E3779B97F4A7C15L) ^ ((long) epoch * 0xC2B2AE3D27D4EB4FL);
    Collections.shuffle(out, new java.util.Random(new SplittableRandom(key).nextLong()));
    return out;
  }
}
