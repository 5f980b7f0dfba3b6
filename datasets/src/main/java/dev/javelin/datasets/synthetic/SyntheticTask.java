package dev.javelin.datasets.synthetic;

import java.util.SplittableRandom;

/** A generator of task instances with known answers, for models small enough to train on CPU. */
public sealed interface SyntheticTask permits ArithmeticTask, CountdownTask {

  /** The reward dispatcher key, e.g. {@code synthetic/arith}. */
  String dataSource();

  /** One instance drawn from {@code rng}; the same rng state always gives the same instance. */
  Problem draw(SplittableRandom rng);
}
