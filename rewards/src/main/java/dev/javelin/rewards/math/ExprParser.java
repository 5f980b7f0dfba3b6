package dev.javelin.rewards.math;

import java.util.Set;

/**
 * Recursive-descent parser from cleaned LaTeX ({@link LatexCleaner}) to {@link Expr}: numbers,
 * variables, {@code + - * / ^}, {@code \cdot \times \div}, implicit products, {@code \frac}
 * (including {@code \frac12}), {@code \sqrt[n]{}}, {@code \pi}, {@code \infty}, grouping by {@code
 * ( ) [ ] { }}, mixed numbers ({@code 2\frac{1}{2}}), factorials, {@code \ln}/{@code \log}/{@code
 * \log_b}, {@code \exp} and trigonometric functions, and a trailing {@code %}. Anything else throws
 * {@link NotEvaluable}. Input length and nesting depth are capped, so the parser is linear-time and
 * cannot overflow the stack.
 */
public final class ExprParser {

  /** Longest input the parser will look at. */
  public static final int MAX_LENGTH = 2000;

  private static final int MAX_DEPTH = 100;
  private static final Set<String> GREEK =
      Set.of(
          "alpha",
          "beta",
          "gamma",
          "delta",
          "epsilon",
          "varepsilon",
          "zeta",
          "eta",
          "theta",
          "vartheta",
          "iota",
          "kappa",
          "lambda",
          "mu",
          "nu",
          "xi",
          "rho",
          "sigma",
          "tau",
          "upsilon",
          "phi",
          "varphi",
          "chi",
          "psi",
          "omega",
          "Gamma",
          "Delta",
          "Theta",
          "Lambda",
          "Xi",
          "Sigma",
          "Phi",
          "Psi",
          "Omega");

  private final String s;
  private int pos;
  private int depth;

  private ExprParser(String s) {
    this.s = s;
  }

  /** The parse of a whole expression with its percent flag. */
  public record Parsed(Expr expr, boolean percent) {}

  /** Parses all of {@code s}; throws {@link NotEvaluable} if any of it is not understood. */
  public static Parsed parse(String s) {
    if (s.length() > MAX_LENGTH) {
      throw new NotEvaluable("too long");
    }
    String body = s.strip();
    boolean percent = body.endsWith("%");
    if (percent) {
      body = body.substring(0, body.length() - 1);
    }
    ExprParser p = new ExprParser(body);
    Expr e = p.expr();
    p.skipWs();
    if (p.pos != p.s.length()) {
      throw new NotEvaluable("unexpected '" + p.s.charAt(p.pos) + "'");
    }
    return new Parsed(e, percent);
  }

  private Expr expr() {
    if (++depth > MAX_DEPTH) {
      throw new NotEvaluable("nesting too deep");
    }
    Expr left = term();
    while (true) {
      skipWs();
      if (eat('+')) {
        left = new Expr.Add(left, term());
      } else if (eat('-')) {
        left = new Expr.Add(left, new Expr.Neg(term()));
      } else {
        break;
      }
    }
    depth--;
    return left;
  }

  private Expr term() {
    Expr left = unary();
    while (true) {
      skipWs();
      if (eat('*') || eatCommand("cdot") || eatCommand("times")) {
        left = new Expr.Mul(left, unary());
      } else if (eat('/') || eatCommand("div")) {
        left = new Expr.Div(left, unary());
      } else if (startsPrimary()) {
        if (left instanceof Expr.Num && isDigit(s.charAt(pos))) {
          throw new NotEvaluable("two numbers in a row"); // "2 3" is not 6
        }
        left = juxtapose(left, power());
      } else {
        return left;
      }
    }
  }

  /** Implicit product, except integer-then-fraction which is a mixed number (2\frac12 = 5/2). */
  private static Expr juxtapose(Expr left, Expr right) {
    if (left instanceof Expr.Neg neg && neg.a() instanceof Expr.Num) {
      Expr inner = juxtapose(neg.a(), right);
      return inner instanceof Expr.Add ? new Expr.Neg(inner) : new Expr.Mul(left, right);
    }
    if (left instanceof Expr.Num whole
        && whole.integerLiteral()
        && right instanceof Expr.Div frac
        && frac.a() instanceof Expr.Num n
        && n.integerLiteral()
        && frac.b() instanceof Expr.Num d
        && d.integerLiteral()) {
      return new Expr.Add(left, right);
    }
    return new Expr.Mul(left, right);
  }

  private Expr unary() {
    skipWs();
    if (eat('-')) {
      return new Expr.Neg(unary());
    }
    if (eat('+')) {
      return unary();
    }
    return power();
  }

  private Expr power() {
    Expr base = primary();
    skipWs();
    while (eat('!')) { // n!, (n+1)!, "d !"
      base = new Expr.Factorial(base);
      skipWs();
    }
    if (eat('^')) {
      skipWs();
      Expr exp = eat('-') ? new Expr.Neg(exponent()) : exponent();
      return new Expr.Pow(base, exp);
    }
    return base;
  }

  private boolean startsPrimary() {
    if (pos >= s.length()) {
      return false;
    }
    char c = s.charAt(pos);
    if (Character.isLetterOrDigit(c) || c == '(' || c == '[' || c == '{' || c == '.') {
      return true;
    }
    return c == '\\' && !peekCommand("cdot") && !peekCommand("times") && !peekCommand("div");
  }

  private Expr primary() {
    skipWs();
    if (pos >= s.length()) {
      throw new NotEvaluable("unexpected end");
    }
    char c = s.charAt(pos);
    if (isDigit(c) || (c == '.' && pos + 1 < s.length() && isDigit(s.charAt(pos + 1)))) {
      return number();
    }
    if (isAsciiLetter(c)) {
      return variable();
    }
    if (c == '(' || c == '[' || c == '{') {
      return group(c == '(' ? ')' : c == '[' ? ']' : '}');
    }
    if (c == '\\') {
      return command();
    }
    throw new NotEvaluable("unexpected '" + c + "'");
  }

  private Expr group(char close) {
    pos++;
    Expr e = expr();
    skipWs();
    if (!eat(close)) {
      throw new NotEvaluable("missing '" + close + "'");
    }
    return e;
  }

  /** An exponent: like {@link #argument} but a bare digit run is one number ({@code 2^10}). */
  private Expr exponent() {
    skipWs();
    if (pos < s.length() && isDigit(s.charAt(pos))) {
      int start = pos;
      while (pos < s.length() && isDigit(s.charAt(pos))) {
        pos++;
      }
      return new Expr.Num(Rational.parseDecimal(s.substring(start, pos)), true);
    }
    return argument();
  }

  /** A {@code \frac}/{@code \sqrt}/{@code ^} argument: a braced group or one character/command. */
  private Expr argument() {
    skipWs();
    if (pos >= s.length()) {
      throw new NotEvaluable("missing argument");
    }
    char c = s.charAt(pos);
    if (c == '{') {
      return group('}');
    }
    if (isDigit(c)) {
      pos++;
      return new Expr.Num(Rational.of(c - '0'), true);
    }
    if (isAsciiLetter(c)) {
      pos++;
      return new Expr.Var(String.valueOf(c));
    }
    if (c == '\\') {
      return command();
    }
    throw new NotEvaluable("bad argument");
  }

  private Expr number() {
    NumberLexer.Lexed n = NumberLexer.read(s, pos);
    pos = n.end();
    return new Expr.Num(n.value(), n.integerLiteral());
  }

  private Expr variable() {
    // Three letters in a row are a word, not a product of variables ("Evelyn" is not E·v·e·l·y·n).
    if (pos + 2 < s.length()
        && isAsciiLetter(s.charAt(pos + 1))
        && isAsciiLetter(s.charAt(pos + 2))) {
      throw new NotEvaluable("word");
    }
    String name = String.valueOf(s.charAt(pos++));
    return new Expr.Var(name + subscript());
  }

  private String subscript() {
    if (pos < s.length() && s.charAt(pos) == '_') {
      pos++;
      skipWs();
      if (pos < s.length() && s.charAt(pos) == '{') {
        int close = s.indexOf('}', pos);
        if (close < 0) {
          throw new NotEvaluable("bad subscript");
        }
        String sub = s.substring(pos + 1, close).replace(" ", "");
        pos = close + 1;
        return "_" + sub;
      }
      if (pos < s.length()) {
        return "_" + s.charAt(pos++);
      }
      throw new NotEvaluable("bad subscript");
    }
    return "";
  }

  private Expr command() {
    String name = commandName();
    return switch (name) {
      case "frac" -> {
        Expr num = argument();
        yield new Expr.Div(num, argument());
      }
      case "sqrt" -> {
        Expr index = rootIndex(); // [n] comes before the radicand
        yield new Expr.Root(argument(), index);
      }
      case "pi" -> new Expr.Pi();
      case "ln" -> new Expr.Func("ln", functionArgument());
      case "log" -> logarithm();
      case "exp", "sin", "cos", "tan", "arcsin", "arccos", "arctan" ->
          new Expr.Func(name, functionArgument());
      case "infty", "infinity" -> new Expr.Infinity();
      default -> {
        if (GREEK.contains(name)) {
          yield new Expr.Var("\\" + name + subscript());
        }
        throw new NotEvaluable("unsupported command \\" + name);
      }
    };
  }

  /** {@code \log x} is natural (as {@code \ln}); {@code \log_b x} is {@code \ln x / \ln b}. */
  private Expr logarithm() {
    skipWs();
    Expr base = eat('_') ? argument() : null;
    Expr ln = new Expr.Func("ln", functionArgument());
    return base == null ? ln : new Expr.Div(ln, new Expr.Func("ln", base));
  }

  /** {@code \sin(x)}, {@code \ln 2}, {@code \sin\theta}: a parenthesised group or a power. */
  private Expr functionArgument() {
    skipWs();
    if (pos < s.length() && s.charAt(pos) == '^') {
      throw new NotEvaluable("power of a function name"); // \sin^2 x: not read
    }
    return pos < s.length() && s.charAt(pos) == '(' ? group(')') : power();
  }

  /** The optional {@code [n]} of {@code \sqrt[n]{x}}; 2 when absent. */
  private Expr rootIndex() {
    skipWs();
    if (!eat('[')) {
      return new Expr.Num(Rational.of(2), true);
    }
    Expr index = expr();
    skipWs();
    if (!eat(']')) {
      throw new NotEvaluable("bad root index");
    }
    return index;
  }

  private String commandName() {
    int start = ++pos; // skip the backslash
    while (pos < s.length() && isAsciiLetter(s.charAt(pos))) {
      pos++;
    }
    if (pos == start) {
      throw new NotEvaluable("bad command");
    }
    return s.substring(start, pos);
  }

  private boolean peekCommand(String name) {
    int end = pos + 1 + name.length();
    return s.startsWith(name, pos + 1)
        && s.charAt(pos) == '\\'
        && (end >= s.length() || !isAsciiLetter(s.charAt(end)));
  }

  private boolean eatCommand(String name) {
    if (pos < s.length() && peekCommand(name)) {
      pos += 1 + name.length();
      return true;
    }
    return false;
  }

  private boolean eat(char c) {
    if (pos < s.length() && s.charAt(pos) == c) {
      pos++;
      return true;
    }
    return false;
  }

  private void skipWs() {
    while (pos < s.length() && Character.isWhitespace(s.charAt(pos))) {
      pos++;
    }
  }

  private static boolean isDigit(char c) {
    return c >= '0' && c <= '9';
  }

  private static boolean isAsciiLetter(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
  }
}
