package dev.javelin.rewards.builtin;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The standard extras of an answer-checking reward: {@code acc}, {@code pred}, {@code format_ok}.
 */
final class Extras {

  /** Longest {@code pred} kept in extras; a 10 MB answer should not live on in metrics. */
  static final int MAX_PRED_CHARS = 200;

  private Extras() {}

  static Map<String, Object> of(boolean acc, String pred, boolean formatOk) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("acc", acc);
    String p = pred == null ? "" : pred;
    m.put("pred", p.length() > MAX_PRED_CHARS ? p.substring(0, MAX_PRED_CHARS) + "..." : p);
    m.put("format_ok", formatOk);
    return m;
  }
}
