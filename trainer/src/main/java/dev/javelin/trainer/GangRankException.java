package dev.javelin.trainer;

import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A rank of a data-parallel trainer gang failed, and with it the gang: the other ranks were stopped
 * and the trainer holds no usable state until {@link Trainer#restart}. The rank's own failure is
 * kept as a suppressed exception rather than the cause, so that code unwrapping to the innermost
 * cause (Ray's exception wrappers) still sees this one; the message names the rank either way.
 */
public final class GangRankException extends RuntimeException {
  private static final String PREFIX = "trainer rank ";
  private static final Pattern MESSAGE = Pattern.compile(PREFIX + "(\\d+) failed: ");

  private final int rank;

  /** Rank {@code rank} failed with {@code failure}. */
  public GangRankException(int rank, Throwable failure) {
    super(PREFIX + rank + " failed: " + failure);
    this.rank = rank;
    addSuppressed(failure);
  }

  /** The rank that failed. */
  public int rank() {
    return rank;
  }

  /**
   * A failed rank and what it failed with.
   *
   * @param reason the rank's own failure, as its exception's {@code toString}
   */
  public record Failure(int rank, String reason) {}

  /**
   * The rank failure that {@code t} reports, itself or through its causes; recognised by its
   * message, as it reads the same after crossing a process boundary as another exception type.
   */
  public static Optional<Failure> in(Throwable t) {
    for (Throwable c = t; c != null; c = c.getCause() == c ? null : c.getCause()) {
      String message = String.valueOf(c.getMessage());
      Matcher m = MESSAGE.matcher(message);
      if (m.find()) {
        return Optional.of(
            new Failure(Integer.parseInt(m.group(1)), message.substring(m.end()).strip()));
      }
    }
    return Optional.empty();
  }
}
