package dev.javelin.rewards.math;

/**
 * The string normalisation VeRL's {@code math_reward.strip_string} applies (after the Hendrycks
 * MATH harness), re-implemented: newline/{@code \!}/{@code \left}/{@code \right}/degree/dollar/
 * percent removal, {@code \text{ units}} cut, leading-zero fixes, a short {@code k =} prefix drop,
 * {@code \sqrt3 → \sqrt{3}}, {@code \frac12 → \frac{1}{2}}, {@code 0.5 → \frac{1}{2}} and {@code
 * a/b → \frac{a}{b}}. Two answers equal after this are equal for VeRL, so Javelin accepts every
 * answer VeRL accepts.
 */
public final class VerlNormalizer {

  private VerlNormalizer() {}

  /** The normalised form. */
  public static String strip(String in) {
    String s = in.replace("\n", "").replace("\\!", "").replace("\\\\", "\\");
    s = s.replace("tfrac", "frac").replace("dfrac", "frac");
    s = s.replace("\\left", "").replace("\\right", "");
    s = s.replace("^{\\circ}", "").replace("^\\circ", "").replace("\\$", "");
    int unit = s.indexOf("\\text{ ");
    if (unit >= 0) {
      s = s.substring(0, unit);
    }
    s = s.replace("\\\\%", "").replace("\\%", "");
    s = s.replace(" .", " 0.").replace("{.", "{0.");
    if (s.isEmpty()) {
      return s;
    }
    if (s.charAt(0) == '.') {
      s = "0" + s;
    }
    int eq = s.indexOf('=');
    if (eq >= 0 && eq <= 2 && s.indexOf('=', eq + 1) < 0) {
      s = s.substring(eq + 1);
    }
    s = fixShorthand(s, "\\sqrt", 1);
    s = s.replace(" ", "");
    s = fixShorthand(s, "\\frac", 2);
    if (s.equals("0.5")) {
      s = "\\frac{1}{2}";
    }
    return fixSlash(s);
  }

  /** {@code \sqrt3 → \sqrt{3}} (one argument) and {@code \frac12 → \frac{1}{2}} (two). */
  private static String fixShorthand(String s, String cmd, int args) {
    if (!s.contains(cmd)) {
      return s;
    }
    StringBuilder sb = new StringBuilder(s.length() + 8);
    int from = 0;
    int i = s.indexOf(cmd);
    while (i >= 0) {
      int j = i + cmd.length();
      sb.append(s, from, j);
      if (j < s.length() && s.charAt(j) != '{') {
        sb.append('{').append(s.charAt(j)).append('}');
        j++;
        if (args == 2 && j < s.length() && s.charAt(j) != '{') {
          sb.append('{').append(s.charAt(j)).append('}');
          j++;
        }
      }
      from = j;
      i = s.indexOf(cmd, from);
    }
    return sb.append(s, from, s.length()).toString();
  }

  /** {@code a/b} with plain integers becomes {@code \frac{a}{b}}. */
  private static String fixSlash(String s) {
    int slash = s.indexOf('/');
    if (slash <= 0 || s.indexOf('/', slash + 1) >= 0) {
      return s;
    }
    String a = s.substring(0, slash);
    String b = s.substring(slash + 1);
    if (isPlainInt(a) && isPlainInt(b)) {
      return "\\frac{" + a + "}{" + b + "}";
    }
    return s;
  }

  private static boolean isPlainInt(String t) {
    int start = t.startsWith("-") ? 1 : 0;
    if (t.length() == start || t.length() > 18) {
      return false;
    }
    if (t.length() - start > 1 && t.charAt(start) == '0') {
      return false;
    }
    for (int i = start; i < t.length(); i++) {
      if (t.charAt(i) < '0' || t.charAt(i) > '9') {
        return false;
      }
    }
    return true;
  }
}
