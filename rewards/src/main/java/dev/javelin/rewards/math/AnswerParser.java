package dev.javelin.rewards.math;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * Reads the structure of a cleaned answer: unions ({@code \cup}), sets ({@code \{..\}}), tuples and
 * intervals, bare comma lists, {@code x = ...} / {@code x \in ...} prefixes, equations, and single
 * values. Whatever fails to parse becomes {@link Answer.Text}.
 */
public final class AnswerParser {

  private static final int MAX_ITEMS = 64;
  private static final int MAX_DEPTH = 8;
  // Only ever applied to strings of at most ExprParser.MAX_LENGTH characters, and linear anyway.
  private static final Pattern THOUSANDS = Pattern.compile("-?\\d{1,3}(,\\d{3})+(\\.\\d+)?");
  static final Pattern SIMPLE_NAME =
      Pattern.compile("\\s*(\\\\?[A-Za-z]{1,6}(_\\{?\\w{1,3}\\}?)?'?(\\([a-z]\\))?)\\s*");

  private AnswerParser() {}

  /** Parses a string already passed through {@link LatexCleaner}. */
  public static Answer parse(String cleaned) {
    if (cleaned.length() > ExprParser.MAX_LENGTH) {
      return new Answer.Text(cleaned);
    }
    return parse(cleaned.strip(), 0);
  }

  private static Answer parse(String s, int depth) {
    if (depth > MAX_DEPTH || s.isEmpty()) {
      return new Answer.Text(s);
    }
    Answer pm = plusMinus(s, depth);
    if (pm != null) {
      return pm;
    }
    Answer matrix = matrix(s, depth);
    if (matrix != null) {
      return matrix;
    }
    List<String> union = Latex.splitTopLevel(s, "\\cup");
    if (union != null && union.size() > 1) {
      return unordered(s, union, depth);
    }
    Answer interval = Inequality.interval(s);
    if (interval != null) {
      return interval;
    }
    String rhs = afterSimpleName(s);
    if (rhs != null) {
      return parse(rhs.strip(), depth + 1);
    }
    if (s.startsWith("\\{") && s.endsWith("\\}") && closesAtEnd(s)) {
      List<String> items = Latex.splitTopLevel(s.substring(2, s.length() - 2), ",");
      return items == null ? new Answer.Text(s) : unordered(s, items, depth);
    }
    if (THOUSANDS.matcher(s).matches()) {
      return single(s.replace(",", ""));
    }
    Answer bracketed = bracketed(s, depth);
    if (bracketed != null) {
      return bracketed;
    }
    List<String> items = Latex.splitTopLevel(s, ",");
    if (items != null && items.size() > 1) {
      return unordered(s, items, depth);
    }
    List<String> sides = Latex.splitTopLevel(s, "=");
    if (sides != null && sides.size() == 2) {
      Answer.Equation e = equation(s);
      return e == null ? new Answer.Text(s) : e;
    }
    return single(s);
  }

  /** {@code s} read as an equation {@code lhs = rhs} (also {@code y = 2x + 3}), or null. */
  static Answer.Equation equation(String s) {
    List<String> sides = s.length() > ExprParser.MAX_LENGTH ? null : Latex.splitTopLevel(s, "=");
    if (sides == null || sides.size() != 2) {
      return null;
    }
    try {
      return new Answer.Equation(
          s, ExprParser.parse(sides.get(0)).expr(), ExprParser.parse(sides.get(1)).expr());
    } catch (NotEvaluable e) {
      return null;
    }
  }

  /** {@code a \pm b} is the pair {@code {a + b, a - b}}. */
  private static Answer plusMinus(String s, int depth) {
    int at = s.indexOf("\\pm");
    int end = at + 3;
    if (at < 0
        || (end < s.length() && Latex.isLetter(s.charAt(end)))
        || s.indexOf("\\pm", end) >= 0) {
      return null;
    }
    List<String> items = Latex.splitTopLevel(s, ",");
    if (items != null && items.size() > 1) {
      return null; // "\pm 1, 7": each item on its own
    }
    String head = s.substring(0, at);
    String tail = s.substring(end);
    return new Answer.Unordered(
        s, List.of(parse(head + "+" + tail, depth + 1), parse(head + "-" + tail, depth + 1)));
  }

  /**
   * {@code \begin{pmatrix} a & b \\ c & d \end{pmatrix}} as rows of cells (also bmatrix, matrix).
   */
  private static Answer matrix(String s, int depth) {
    if (!s.startsWith("\\begin{")) {
      return null;
    }
    int close = s.indexOf('}');
    if (close < 0) { // "\begin{" without its closing brace: plain text, not a matrix
      return null;
    }
    String env = s.substring(7, close);
    String endTag = "\\end{" + env + "}";
    if (!(env.equals("pmatrix") || env.equals("bmatrix") || env.equals("matrix"))
        || !s.endsWith(endTag)) {
      return null;
    }
    List<String> rows =
        Latex.splitTopLevel(s.substring(close + 1, s.length() - endTag.length()), "\\\\");
    if (rows == null || rows.size() > MAX_ITEMS) {
      return new Answer.Text(s);
    }
    List<Answer> parsedRows = new ArrayList<>();
    for (String row : rows) {
      if (row.isBlank()) {
        continue;
      }
      List<Answer> cells = new ArrayList<>();
      for (String cell : row.split("&", MAX_ITEMS + 1)) {
        cells.add(parse(cell.strip(), depth + 1));
      }
      parsedRows.add(new Answer.Bracketed(row, 'r', 'r', cells));
    }
    return new Answer.Bracketed(s, 'm', 'm', parsedRows);
  }

  /** For {@code x = 5}, {@code f(x) = ...}, {@code x \in [0,1]}: the part after; else null. */
  private static String afterSimpleName(String s) {
    int in = s.indexOf("\\in");
    boolean command = in > 0 && (in + 3 >= s.length() || !Latex.isLetter(s.charAt(in + 3)));
    if (command && SIMPLE_NAME.matcher(s.substring(0, in)).matches()) {
      return s.substring(in + 3);
    }
    List<String> sides = Latex.splitTopLevel(s, "=");
    if (sides != null && sides.size() == 2 && SIMPLE_NAME.matcher(sides.get(0)).matches()) {
      return sides.get(1);
    }
    return null;
  }

  private static boolean closesAtEnd(String s) {
    int depth = 0;
    for (int i = 0; i < s.length() - 1; i++) {
      if (s.startsWith("\\{", i)) {
        depth++;
        i++;
      } else if (s.startsWith("\\}", i)) {
        depth--;
        i++;
        if (depth == 0 && i < s.length() - 1) {
          return false;
        }
      }
    }
    return true;
  }

  private static Answer bracketed(String s, int depth) {
    char open = s.charAt(0);
    char close = s.charAt(s.length() - 1);
    if ((open != '(' && open != '[') || (close != ')' && close != ']')) {
      return null;
    }
    if (Latex.matchAnyBracket(s, 0) != s.length() - 1) {
      return null;
    }
    List<String> items = Latex.splitTopLevel(s.substring(1, s.length() - 1), ",");
    if (items == null || items.size() < 2 || items.size() > MAX_ITEMS) {
      return null;
    }
    List<Answer> parsed = new ArrayList<>();
    for (String item : items) {
      parsed.add(parse(item.strip(), depth + 1));
    }
    return new Answer.Bracketed(s, open, close, parsed);
  }

  private static Answer unordered(String s, List<String> items, int depth) {
    if (items.size() > MAX_ITEMS) {
      return new Answer.Text(s);
    }
    List<Answer> parsed = new ArrayList<>();
    for (String item : items) {
      if (!item.isBlank()) {
        Answer a = parse(item.strip(), depth + 1);
        if (a instanceof Answer.Unordered u && item.contains("\\pm")) {
          parsed.addAll(u.items()); // "\pm 1, \pm 7" is the list 1, -1, 7, -7
        } else {
          parsed.add(a);
        }
      }
    }
    return new Answer.Unordered(s, parsed);
  }

  private static Answer single(String s) {
    try {
      ExprParser.Parsed p = ExprParser.parse(s);
      return new Answer.Single(s, p.expr(), p.percent());
    } catch (NotEvaluable e) {
      return new Answer.Text(s);
    }
  }
}
