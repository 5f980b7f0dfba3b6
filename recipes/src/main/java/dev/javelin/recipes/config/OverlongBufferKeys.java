package dev.javelin.recipes.config;

import dev.javelin.grpo.OverlongBufferConfig;
import dev.javelin.grpo.dapo.OverlongPenalty;

/**
 * {@code reward_model.overlong_buffer.*} (DAPO's keys): the soft overlong punishment added to each
 * response's score before the advantages, see {@link OverlongPenalty}. DAPO's newer spelling,
 * {@code reward_model.reward_kwargs.overlong_buffer_cfg.*} with {@code reward_model.reward_kwargs
 * .max_resp_len}, means the same and is read as these keys.
 */
public final class OverlongBufferKeys {
  static final String P = "reward_model.overlong_buffer.";
  static final KeySet KEYS = new KeySet();
  static final KeySpec ENABLE =
      KEYS.of(P + "enable", KeyType.BOOL, false, "DAPO soft overlong punishment");
  static final KeySpec LEN =
      KEYS.of(P + "len", KeyType.INT, 0, "L_buffer: tokens before max_response_length");
  static final KeySpec PENALTY_FACTOR =
      KEYS.of(P + "penalty_factor", KeyType.DOUBLE, 0.0, "penalty at the hard limit");
  static final KeySpec LOG =
      KEYS.of(P + "log", KeyType.BOOL, false, "log the penalty and overlong fraction");
  static final KeySpec MAX_RESP_LEN =
      KEYS.optional(
          "reward_model.reward_kwargs.max_resp_len",
          KeyType.INT,
          "L_max of the overlong penalty; default data.max_response_length");

  /** DAPO's reward-manager spelling of the buffer keys. */
  private static final String NEW_SPELLING = "reward_model.reward_kwargs.overlong_buffer_cfg.";

  static {
    for (KeySpec k : new KeySpec[] {ENABLE, LEN, PENALTY_FACTOR, LOG}) {
      KEYS.alias(NEW_SPELLING + k.name().substring(P.length()), k);
    }
  }

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

  /** The recipe's shaping; {@code maxResponseLength} is {@code data.max_response_length}. */
  static Shaping from(Settings s, int maxResponseLength) {
    boolean log = s.getBool(LOG);
    if (!s.getBool(ENABLE)) {
      return new Shaping(null, log);
    }
    int len = s.getInt(LEN);
    Checks.require(len > 0, LEN.name(), "must be > 0 when overlong_buffer.enable=true, got " + len);
    int limit = s.isSet(MAX_RESP_LEN) ? s.getInt(MAX_RESP_LEN) : maxResponseLength;
    String limitName =
        s.isSet(MAX_RESP_LEN) ? MAX_RESP_LEN.name() : DataConfig.MAX_RESPONSE_LENGTH.name();
    Checks.require(len <= limit, LEN.name(), len + " must be <= " + limitName + " (" + limit + ")");
    double factor = s.nonNegativeDouble(PENALTY_FACTOR);
    return new Shaping(
        new OverlongPenalty(new OverlongBufferConfig(true, len, factor), limit), log);
  }
}
