package dev.javelin.rewards.math;

import java.util.Locale;
import java.util.Set;

/**
 * Brings an answer string to a canonical surface form before parsing: drops sizing and spacing
 * commands, dollar and degree signs, trailing units (bare or in {@code \text{}}), unwraps {@code
 * \text{}}-like commands, maps Unicode math symbols to LaTeX, {@code \dfrac}/{@code \tfrac} to
 * {@code \frac} and "and" to a comma. Every step is a linear pass.
 */
public final class LatexCleaner {

  private static final String[] SIZING = {
    "\\left", "\\right", "\\bigl", "\\bigr", "\\Bigl", "\\Bigr", "\\biggl", "\\biggr", "\\big",
    "\\Big", "\\bigg"
  };
  private static final String[] WRAPPERS = {
    "text",
    "textbf",
    "textit",
    "textrm",
    "textnormal",
    "mathrm",
    "mathbf",
    "mathit",
    "mbox",
    "operatorname",
    "boxed",
    "fbox",
    "hbox",
    "emph",
    "mathsf",
    "textsf"
  };
  private static final String[] TEXT_UNIT_CMDS = {"\\text", "\\mbox", "\\mathrm", "\\textnormal"};
  private static final Set<String> UNITS =
      Set.of(
          "cm",
          "mm",
          "km",
          "meter",
          "meters",
          "metre",
          "metres",
          "inch",
          "inches",
          "foot",
          "feet",
          "ft",
          "yard",
          "yards",
          "mile",
          "miles",
          "mph",
          "kg",
          "gram",
          "grams",
          "pound",
          "pounds",
          "lb",
          "lbs",
          "ounce",
          "ounces",
          "oz",
          "liter",
          "liters",
          "litre",
          "ml",
          "second",
          "seconds",
          "sec",
          "minute",
          "minutes",
          "min",
          "hour",
          "hours",
          "hr",
          "hrs",
          "day",
          "days",
          "week",
          "weeks",
          "month",
          "months",
          "year",
          "years",
          "dollar",
          "dollars",
          "cent",
          "cents",
          "degree",
          "degrees",
          "unit",
          "units",
          "sq",
          "square",
          "cubic",
          "ways",
          "way",
          "people",
          "students",
          "points",
          "point",
          "percent",
          "times",
          "coins",
          "marbles",
          "cups",
          "apples",
          "eggs",
          "pages",
          "books",
          "tickets",
          "balls",
          "boxes",
          "items");

  private LatexCleaner() {}

  /** The cleaned form of {@code raw}. */
  public static String clean(String raw) {
    String s = symbols(raw.strip());
    s = dropCommands(s, SIZING);
    s = spacing(s);
    s = s.replace("\\dfrac", "\\frac").replace("\\tfrac", "\\frac");
    s = s.replace("^{\\circ}", "").replace("^\\circ", "").replace("\\circ", "");
    s = s.replace("\\degree", "").replace("\\$", "").replace("$", "").replace("\\%", "%");
    s = s.replace("{,}", ",");
    s = dropTrailingTextUnits(s);
    for (int i = 0; i < 3 && s.indexOf('\\') >= 0; i++) {
      s = Latex.unwrap(s, WRAPPERS);
    }
    s = s.replace(" and ", ",").replace(",and ", ",").replace(" or ", ",");
    s = dropTrailingUnitWords(s);
    return trimPunctuation(s);
  }

  private static String symbols(String s) {
    StringBuilder sb = new StringBuilder(s.length());
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      switch (c) {
        case '\u2212', '\u2013' -> sb.append('-');
        case '\u00d7' -> sb.append("\\times ");
        case '\u22c5', '\u00b7' -> sb.append("\\cdot ");
        case '\u00f7' -> sb.append("\\div ");
        case '\u03c0' -> sb.append("\\pi ");
        case '\u221e' -> sb.append("\\infty ");
        case '\u221a' -> sb.append("\\sqrt");
        case '\u222a' -> sb.append("\\cup ");
        case '\u00b0' -> {}
        case '\u00b1' -> sb.append("\\pm ");
        case '\u2264' -> sb.append("\\le ");
        case '\u2265' -> sb.append("\\ge ");
        case '\n', '\r', '\t' -> sb.append(' ');
        default -> sb.append(c);
      }
    }
    return undoubleBackslashes(sb.toString())
        .replace("\\leq", "\\le")
        .replace("\\geq", "\\ge")
        .replace("\\neq", "\\ne")
        .replace("\\mp", "\\pm");
  }

  /** {@code \\frac} (a doubly escaped command) becomes {@code \frac}; matrix row breaks stay. */
  private static String undoubleBackslashes(String s) {
    if (!s.contains("\\\\")) {
      return s;
    }
    StringBuilder sb = new StringBuilder(s.length());
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      boolean doubled = c == '\\' && i + 2 < s.length() && s.charAt(i + 1) == '\\';
      if (doubled && Latex.isLetter(s.charAt(i + 2))) {
        continue; // drop the first of the two backslashes
      }
      sb.append(c);
      if (doubled) {
        sb.append(s.charAt(++i));
      }
    }
    return sb.toString();
  }

  /** Removes sizing commands; {@code \left.} and {@code \right.} lose their dot too. */
  private static String dropCommands(String s, String[] cmds) {
    if (s.indexOf('\\') < 0) {
      return s;
    }
    StringBuilder sb = new StringBuilder(s.length());
    int i = 0;
    outer:
    while (i < s.length()) {
      if (s.charAt(i) == '\\') {
        for (String cmd : cmds) {
          int end = i + cmd.length();
          if (s.startsWith(cmd, i) && (end >= s.length() || !Latex.isLetter(s.charAt(end)))) {
            i = end < s.length() && s.charAt(end) == '.' ? end + 1 : end;
            continue outer;
          }
        }
      }
      sb.append(s.charAt(i++));
    }
    return sb.toString();
  }

  /** Drops spacing macros ({@code \, \; \! \: \quad ~ \displaystyle}); {@code \\} is kept. */
  private static String spacing(String s) {
    String t = s.replace("\\displaystyle", "").replace("\\qquad", " ").replace("\\quad", " ");
    StringBuilder sb = new StringBuilder(t.length());
    for (int i = 0; i < t.length(); i++) {
      char c = t.charAt(i);
      char next = i + 1 < t.length() ? t.charAt(i + 1) : 0;
      if (c == '\\' && next == '\\') {
        sb.append(c).append(next);
        i++;
      } else if (c == '\\' && (next == '!' || next == ',' || next == ';' || next == ':')) {
        i++;
      } else if (c == '\\' && next == ' ') {
        sb.append(' ');
        i++;
      } else {
        sb.append(c == '~' ? ' ' : c);
      }
    }
    return sb.toString();
  }

  /** Drops {@code \text{ cm}}-style groups (optionally squared) that follow a value. */
  private static String dropTrailingTextUnits(String s) {
    for (int guard = 0; guard < 4; guard++) {
      String t = stripPowerSuffix(s.stripTrailing());
      if (!t.endsWith("}")) {
        return s;
      }
      int open = matchOpenBackward(t, t.length() - 1);
      if (open < 0) {
        return s;
      }
      String before = t.substring(0, open).stripTrailing();
      String cmd = null;
      for (String c : TEXT_UNIT_CMDS) {
        if (before.endsWith(c)) {
          cmd = c;
        }
      }
      String content = t.substring(open + 1, t.length() - 1);
      String prefix = cmd == null ? "" : before.substring(0, before.length() - cmd.length());
      if (cmd == null || prefix.isBlank() || !isUnitText(content)) {
        return s;
      }
      s = prefix.stripTrailing();
    }
    return s;
  }

  private static boolean isUnitText(String content) {
    String c = content.strip();
    if (c.isEmpty()) {
      return true;
    }
    for (int i = 0; i < c.length(); i++) {
      char ch = c.charAt(i);
      if (!Latex.isLetter(ch) && ch != ' ' && ch != '.' && ch != '/' && ch != '^' && ch != '2') {
        return false;
      }
    }
    return !c.equalsIgnoreCase("and") && !c.equalsIgnoreCase("or");
  }

  private static String stripPowerSuffix(String t) {
    for (String p : new String[] {"^2", "^3", "^{2}", "^{3}"}) {
      if (t.endsWith(p)) {
        return t.substring(0, t.length() - p.length());
      }
    }
    return t;
  }

  private static int matchOpenBackward(String s, int close) {
    int depth = 0;
    for (int i = close; i >= 0; i--) {
      char c = s.charAt(i);
      boolean escaped = i > 0 && s.charAt(i - 1) == '\\';
      if (c == '}' && !escaped) {
        depth++;
      } else if (c == '{' && !escaped && --depth == 0) {
        return i;
      }
    }
    return -1;
  }

  /** Drops trailing unit words after a value ("5 cm", "12 square units", "3 cm^2"). */
  private static String dropTrailingUnitWords(String s) {
    for (int guard = 0; guard < 4; guard++) {
      String t = stripPowerSuffix(s.stripTrailing());
      int end = t.length();
      int start = end;
      while (start > 0 && Latex.isLetter(t.charAt(start - 1))) {
        start--;
      }
      if (start == end || start == 0 || t.charAt(start - 1) == '\\') {
        return s;
      }
      String word = t.substring(start, end).toLowerCase(Locale.ROOT);
      String prefix = t.substring(0, start).stripTrailing();
      if (!UNITS.contains(word) || prefix.isEmpty()) {
        return s;
      }
      s = prefix;
    }
    return s;
  }

  private static String trimPunctuation(String s) {
    int end = s.length();
    while (end > 0) {
      char c = s.charAt(end - 1);
      boolean endsCommand = end >= 2 && s.charAt(end - 2) == '\\';
      if ((c == '.' && !endsCommand) || c == ',' || c == ';' || Character.isWhitespace(c)) {
        end--;
      } else {
        break;
      }
    }
    int start = 0;
    while (start < end && Character.isWhitespace(s.charAt(start))) {
      start++;
    }
    return s.substring(start, end);
  }
}
