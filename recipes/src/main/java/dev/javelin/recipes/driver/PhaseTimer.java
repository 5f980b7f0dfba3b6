package dev.javelin.recipes.driver;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Supplier;

/** Times the phases of one step into VeRL's {@code timing_s/<phase>} metrics. */
final class PhaseTimer {
  private final Map<String, Double> seconds = new LinkedHashMap<>();

  <T> T time(String phase, Supplier<T> work) {
    long start = System.nanoTime();
    try {
      return work.get();
    } finally {
      seconds.merge("timing_s/" + phase, (System.nanoTime() - start) / 1e9, Double::sum);
    }
  }

  void time(String phase, Runnable work) {
    time(
        phase,
        () -> {
          work.run();
          return null;
        });
  }

  /** Moves {@code seconds} of an already timed {@code outer} phase to its own {@code inner} one. */
  void split(String outer, String inner, double moved) {
    seconds.merge("timing_s/" + outer, -moved, Double::sum);
    seconds.merge("timing_s/" + inner, moved, Double::sum);
  }

  Map<String, Double> metrics() {
    return seconds;
  }
}
