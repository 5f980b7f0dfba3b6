package dev.javelin.recipes.config;

import dev.javelin.grpo.OverlongBufferConfig;
import dev.javelin.grpo.dapo.OverlongPenalty;

/**
 * {@code reward_model.overlong_buffer.*} (DAPO's keys): the soft overlong punishment added to each
 * response's score before the advantages, see {@link OverlongPenalty}.
 */
public final class OverlongBufferKeys {
  static final String P = "reward_model.overlong_buffer.";

  private OverlongBufferKeys() {}

  /**
   * The shaping a recipe asks for.
   *
   * @param penalty the penalty, null when {@code enable=false}
   * @param log report {@code reward/overlong_reward/mean} and {@code reward/overlong/fraction}
   */
  public record Shaping(OverlongPenalty penalty, boolean log) {
    /** Whether the penalty applies. */
    public boolean enabled() {
      return penalty != null;
    }
  }

  /** Declares the keys. */
  static void declare(Schema.Builder b) {
    b.add(KeySpec.of(P + "enable", KeyType.BOOL, false, "DAPO soft overlong punishment"));
    b.add(KeySpec.of(P + "len", KeyType.INT, 0, "L_buffer: tokens before max_response_length"));
    b.add(KeySpec.of(P + "penalty_factor", KeyType.DOUBLE, 0.0, "penalty at the hard limit"));
    b.add(KeySpec.of(P + "log", KeyType.BOOL, false, "log the penalty and overlong fraction"));
  }

  /** The recipe's shaping; {@code maxResponseLength} is {@code data.max_response_length}. */
  static Shaping from(Settings s, int maxResponseLength) {
    boolean log = s.getBool(P + "log");
    if (!s.getBool(P + "enable")) {
      return new Shaping(null, log);
    }
    int len = s.getInt(P + "len");
    Checks.require(len > 0, P + "len", "must be > 0 when overlong_buffer.enable=true, got " + len);
    Checks.require(
        len <= maxResponseLength,
        P + "len",
        len + " must be <= data.max_response_length (" + maxResponseLength + ")");
    double factor = Checks.nonNegative(P + "penalty_factor", s.getDouble(P + "penalty_factor"));
    return new Shaping(
        new OverlongPenalty(new OverlongBufferConfig(true, len, factor), maxResponseLength), log);
  }
}
