package dev.javelin.backend.optim;

/**
 * Learning rate as a function of the optimizer step (0-based), evaluated on the host and passed to
 * the update program as a scalar input, so a schedule change never recompiles anything. The
 * variants mirror VeRL's {@code optim.warmup_style} ({@code constant}, {@code cosine}).
 */
public sealed interface LrSchedule {

  /** The learning rate for optimizer step {@code step} (0-based). */
  double lr(long step);

  /** A fixed rate. */
  record Constant(double lr) implements LrSchedule {
    public Constant {
      requireRate("lr", lr);
    }

    @Override
    public double lr(long step) {
      return lr;
    }
  }

  /** Linear warmup from 0 to {@code peak} over {@code warmupSteps}, then constant. */
  record LinearWarmup(double peak, long warmupSteps) implements LrSchedule {
    public LinearWarmup {
      requireRate("peak", peak);
      if (warmupSteps < 0) {
        throw new IllegalArgumentException("warmupSteps must be >= 0, got " + warmupSteps);
      }
    }

    @Override
    public double lr(long step) {
      return peak * warmupFactor(step, warmupSteps);
    }
  }

  /**
   * Linear warmup, then cosine decay from {@code peak} to {@code minRatio · peak} at {@code
   * totalSteps}: {@code lr = peak (r + (1 - r) (1 + cos(π p)) / 2)} with progress p in [0, 1].
   */
  record Cosine(double peak, long warmupSteps, long totalSteps, double minRatio)
      implements LrSchedule {
    public Cosine {
      requireRate("peak", peak);
      if (warmupSteps < 0 || totalSteps <= warmupSteps) {
        throw new IllegalArgumentException(
            "need 0 <= warmupSteps < totalSteps, got " + warmupSteps + ", " + totalSteps);
      }
      if (!(minRatio >= 0 && minRatio <= 1)) {
        throw new IllegalArgumentException("minRatio must be in [0, 1], got " + minRatio);
      }
    }

    @Override
    public double lr(long step) {
      if (step < warmupSteps) {
        return peak * warmupFactor(step, warmupSteps);
      }
      double progress = Math.min(1.0, (double) (step - warmupSteps) / (totalSteps - warmupSteps));
      return peak * (minRatio + (1 - minRatio) * 0.5 * (1 + Math.cos(Math.PI * progress)));
    }
  }

  /** Step s of a warmup of w steps runs at (s + 1) / w of the peak, as torch's LambdaLR does. */
  private static double warmupFactor(long step, long warmupSteps) {
    return step >= warmupSteps ? 1.0 : (double) (step + 1) / warmupSteps;
  }

  private static void requireRate(String field, double v) {
    if (!(v >= 0) || Double.isInfinite(v)) {
      throw new IllegalArgumentException(field + " must be a finite rate >= 0, got " + v);
    }
  }
}
