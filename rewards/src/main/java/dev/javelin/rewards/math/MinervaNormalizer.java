package dev.javelin.rewards.math;

import java.util.List;

/**
 * The final-answer normalisation of Minerva (Lewkowycz et al. 2022) as used by VeRL's {@code
 * math_dapo}, re-implemented with linear scans instead of regular expressions: keep the part after
 * the last {@code =}, apply fixed substitutions, delete unit words and spacing macros, keep the
 * first {@code $...$} span, unwrap {@code \text{}}, {@code \textbf{}}, {@code \overline{}} and
 * {@code \boxed{}}, expand {@code \fracab}/{@code \sqrta} shorthand, drop {@code $}, and remove
 * thousands commas from integers.
 */
public final class MinervaNormalizer {

  private static final String[][] SUBSTITUTIONS = {
    {"an ", ""},
    {"a ", ""},
    {".$", "$"},
    {"\\$", ""},
    {"\\ ", ""},
    {" ", ""},
    {"mbox", "text"},
    {",\\text{and}", ","},
    {"\\text{and}", ","},
    {"\\text{m}", "\\text{}"}
  };
  private static final List<String> REMOVED =
      List.of(
          "square",
          "ways",
          "integers",
          "dollars",
          "mph",
          "inches",
          "hours",
          "km",
          "units",
          "\\ldots",
          "sue",
          "points",
          "feet",
          "minutes",
          "digits",
          "cents",
          "degrees",
          "cm",
          "gm",
          "pounds",
          "meters",
          "meals",
          "edges",
          "students",
          "childrentickets",
          "multiples",
          "\\text{s}",
          "\\text{.}",
          "\\text{\ns}",
          "\\text{}^2",
          "\\text{}^3",
          "\\text{\n}",
          "\\text{}",
          "\\mathrm{th}",
          "^\\circ",
          "^{\\circ}",
          "\\;",
          ",\\!",
          "{,}",
          "\"",
          "\\dots");

  private MinervaNormalizer() {}

  /** The normalised answer. */
  public static String normalize(String answer) {
    String s = answer.substring(answer.lastIndexOf('=') + 1);
    for (String[] sub : SUBSTITUTIONS) {
      s = s.replace(sub[0], sub[1]);
    }
    for (String r : REMOVED) {
      s = s.replace(r, "");
    }
    s = firstDollarSpan(s);
    s = unwrapLazy(s, "\\text{");
    s = unwrapLazy(s, "\\textbf{");
    s = unwrapLazy(s, "\\overline{");
    s = unwrapBoxedGreedy(s);
    s = shorthand(s, "frac", 2);
    s = shorthand(s, "sqrt", 1);
    s = s.replace("$", "");
    String noCommas = s.replace(",", "");
    if (!noCommas.isEmpty() && noCommas.chars().allMatch(Character::isDigit)) {
      s = noCommas;
    }
    return s.strip();
  }

  /** {@code a$b$c} → {@code $b$}. */
  private static String firstDollarSpan(String s) {
    int a = s.indexOf('$');
    int b = a < 0 ? -1 : s.indexOf('$', a + 1);
    return b < 0 ? s : "$" + s.substring(a + 1, b) + "$";
  }

  /** Each {@code prefix X}} → {@code X}, X up to the first closing brace (like a lazy regex). */
  private static String unwrapLazy(String s, String prefix) {
    StringBuilder sb = new StringBuilder(s.length());
    int from = 0;
    int i = s.indexOf(prefix);
    while (i >= 0) {
      int close = s.indexOf('}', i + prefix.length());
      if (close < 0) {
        break;
      }
      sb.append(s, from, i).append(s, i + prefix.length(), close);
      from = close + 1;
      i = s.indexOf(prefix, from);
    }
    return sb.append(s, from, s.length()).toString();
  }

  /** From the first "\\boxed{" to the last closing brace (like a greedy regex). */
  private static String unwrapBoxedGreedy(String s) {
    int i = s.indexOf("\\boxed{");
    int close = s.lastIndexOf('}');
    if (i < 0 || close < i + 7) {
      return s;
    }
    return s.substring(0, i) + s.substring(i + 7, close) + s.substring(close + 1);
  }

  /** {@code fracab → frac{a}{b}}, {@code sqrta → sqrt{a}}; non-overlapping, left to right. */
  private static String shorthand(String s, String cmd, int args) {
    StringBuilder sb = new StringBuilder(s.length() + 8);
    int from = 0;
    int i = s.indexOf(cmd);
    while (i >= 0) {
      int j = i + cmd.length();
      boolean fits = j + args - 1 < s.length() && s.charAt(j) != '{';
      if (!fits) {
        i = s.indexOf(cmd, i + 1);
        continue;
      }
      sb.append(s, from, i).append(cmd).append('{').append(s.charAt(j)).append('}');
      if (args == 2) {
        sb.append('{').append(s.charAt(j + 1)).append('}');
      }
      from = j + args;
      i = s.indexOf(cmd, from);
    }
    return sb.append(s, from, s.length()).toString();
  }
}
