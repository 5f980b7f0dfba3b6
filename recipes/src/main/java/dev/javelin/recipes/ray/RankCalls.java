package dev.javelin.recipes.ray;

import dev.javelin.backend.distributed.CoordinationException;
import dev.javelin.trainer.GangRankException;
import io.ray.api.ObjectRef;
import io.ray.api.Ray;
import io.ray.api.exception.RayActorException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Waits for one call per rank of a trainer gang (the call to rank r at index r) and tells which
 * rank failed: a rank whose process died, or whose own work failed, is named at once; a rank that
 * only saw a peer go (its store connection closed) is a bystander, named only if no culprit reports
 * within {@link #GRACE_NANOS}. Ranks still waiting on the culprit would wait in vain, so the first
 * failure ends the wait and {@code onFailure} runs (the gang kills its ranks) before the {@link
 * GangRankException} is thrown.
 */
final class RankCalls {
  /** How long a bystander's failure waits for the culprit's own to arrive. */
  static final long GRACE_NANOS = 10_000_000_000L;

  private static final int POLL_MS = 200;

  private RankCalls() {}

  /** Every rank's result, in rank order; frees the results. */
  static <T> List<T> collect(List<ObjectRef<T>> refs, Runnable onFailure) {
    try {
      return await(refs, onFailure);
    } finally {
      RayCalls.free(refs);
    }
  }

  private static <T> List<T> await(List<ObjectRef<T>> refs, Runnable onFailure) {
    List<T> out = new ArrayList<>();
    Set<Integer> pending = new LinkedHashSet<>();
    for (int r = 0; r < refs.size(); r++) {
      out.add(null);
      pending.add(r);
    }
    RuntimeException bystander = null;
    long graceEnd = Long.MAX_VALUE;
    while (!pending.isEmpty() && System.nanoTime() < graceEnd) {
      List<ObjectRef<T>> waiting = new ArrayList<>();
      pending.forEach(r -> waiting.add(refs.get(r)));
      Ray.wait(waiting, 1, POLL_MS); // until one is ready, or the poll interval
      for (Iterator<Integer> it = pending.iterator(); it.hasNext(); ) {
        int r = it.next();
        if (Ray.wait(List.of(refs.get(r)), 1, 0).getReady().isEmpty()) {
          continue;
        }
        it.remove();
        try {
          out.set(r, Ray.get(refs.get(r)));
        } catch (RuntimeException e) {
          Failure f = classify(r, e);
          if (!f.bystander()) {
            onFailure.run();
            throw f.error();
          }
          if (bystander == null) {
            bystander = f.error();
            graceEnd = System.nanoTime() + GRACE_NANOS;
          }
        }
      }
    }
    if (bystander != null) {
      onFailure.run();
      throw bystander;
    }
    return out;
  }

  /** A rank's failure as the gang reports it. */
  private record Failure(GangRankException error, boolean bystander) {}

  private static Failure classify(int rank, RuntimeException e) {
    Optional<RayActorException> death = deathIn(e);
    if (death.isPresent()) {
      String detail = String.valueOf(death.get().getMessage()).lines().findFirst().orElse("");
      return new Failure(
          new GangRankException(
              rank, new Reported("its Ray actor died (" + detail.strip() + ")", e)),
          false);
    }
    RuntimeException inner = RayCalls.unwrap(e);
    if (inner instanceof GangRankException g) {
      return new Failure(g, false);
    }
    Optional<GangRankException.Failure> named = GangRankException.in(e);
    if (named.isPresent()) { // the rank's own report, read from Ray's wrapper
      return new Failure(
          new GangRankException(named.get().rank(), new Reported(named.get().reason(), e)), false);
    }
    boolean peer =
        inner instanceof CoordinationException
            || String.valueOf(e.getMessage()).contains(CoordinationException.class.getName());
    return new Failure(new GangRankException(rank, inner), peer);
  }

  private static Optional<RayActorException> deathIn(Throwable t) {
    for (Throwable c = t; c != null; c = c.getCause() == c ? null : c.getCause()) {
      if (c instanceof RayActorException a) {
        return Optional.of(a);
      }
    }
    return Optional.empty();
  }

  /**
   * A failure reported across the process boundary: it prints as its message alone, so the line
   * naming the rank reads the rank's own words.
   */
  static final class Reported extends RuntimeException {
    Reported(String message, Throwable cause) {
      super(message, cause);
    }

    @Override
    @SuppressWarnings("OverrideThrowableToString") // GangRankException's line prints toString
    public String toString() {
      return getMessage();
    }
  }
}
