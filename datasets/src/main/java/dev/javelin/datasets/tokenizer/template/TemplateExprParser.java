package dev.javelin.datasets.tokenizer.template;

import dev.javelin.datasets.tokenizer.template.Token.Kind;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Recursive-descent parser for Jinja expressions, with Jinja's precedence (loosest first):
 * conditional {@code x if c else y}, {@code or}, {@code and}, {@code not}, comparisons and {@code
 * in}, {@code + -}, {@code ~}, {@code * / // %}, {@code **}, unary {@code - +}, then postfix {@code
 * .a [k] (args)} and filters/tests ({@code | f}, {@code is t}), which bind tighter than any binary
 * operator.
 */
final class TemplateExprParser {
  private static final Set<String> COMPARE = Set.of("==", "!=", "<", "<=", ">", ">=");

  private final List<Token> tokens;
  private int at;

  TemplateExprParser(List<Token> tokens, int start) {
    this.tokens = tokens;
    this.at = start;
  }

  Token peek() {
    return tokens.get(at);
  }

  Token next() {
    Token t = tokens.get(at);
    if (t.kind() != Kind.END) {
      at++;
    }
    return t;
  }

  Token expectOp(String op) {
    Token t = next();
    if (!t.isOp(op)) {
      throw TemplateException.at(t.line(), "expected '" + op + "' but found '" + t.text() + "'");
    }
    return t;
  }

  String expectName() {
    Token t = next();
    if (t.kind() != Kind.NAME) {
      throw TemplateException.at(t.line(), "expected a name but found '" + t.text() + "'");
    }
    return t.text();
  }

  void expectEnd() {
    Token t = peek();
    if (t.kind() != Kind.END) {
      throw TemplateException.at(
          t.line(), "unexpected '" + t.text() + "' before the end of the tag");
    }
  }

  Expr expression() {
    Expr value = or();
    while (peek().isName("if")) {
      int line = next().line();
      Expr test = or();
      Expr otherwise = null;
      if (peek().isName("else")) {
        next();
        otherwise = expression();
      }
      value = new Expr.Conditional(test, value, otherwise, line);
    }
    return value;
  }

  /** An expression without a trailing {@code if} (for-loop iterables, whose {@code if} filters). */
  Expr or() {
    Expr left = and();
    while (peek().isName("or")) {
      int line = next().line();
      left = new Expr.Binary("or", left, and(), line);
    }
    return left;
  }

  private Expr and() {
    Expr left = not();
    while (peek().isName("and")) {
      int line = next().line();
      left = new Expr.Binary("and", left, not(), line);
    }
    return left;
  }

  private Expr not() {
    if (peek().isName("not")) {
      int line = next().line();
      return new Expr.Unary("not", not(), line);
    }
    return compare();
  }

  private Expr compare() {
    Expr left = math1();
    while (true) {
      Token t = peek();
      if (t.kind() == Kind.OP && COMPARE.contains(t.text())) {
        next();
        left = new Expr.Binary(t.text(), left, math1(), t.line());
      } else if (t.isName("in")) {
        next();
        left = new Expr.Binary("in", left, math1(), t.line());
      } else if (t.isName("not") && tokens.get(at + 1).isName("in")) {
        at += 2;
        left = new Expr.Binary("not in", left, math1(), t.line());
      } else {
        return left;
      }
    }
  }

  private Expr math1() {
    Expr left = concat();
    while (peek().isOp("+") || peek().isOp("-")) {
      Token op = next();
      left = new Expr.Binary(op.text(), left, concat(), op.line());
    }
    return left;
  }

  private Expr concat() {
    Expr left = math2();
    while (peek().isOp("~")) {
      Token op = next();
      left = new Expr.Binary("~", left, math2(), op.line());
    }
    return left;
  }

  private Expr math2() {
    Expr left = pow();
    while (peek().isOp("*") || peek().isOp("/") || peek().isOp("//") || peek().isOp("%")) {
      Token op = next();
      left = new Expr.Binary(op.text(), left, pow(), op.line());
    }
    return left;
  }

  private Expr pow() {
    Expr left = unary(true);
    while (peek().isOp("**")) {
      Token op = next();
      left = new Expr.Binary("**", left, unary(true), op.line());
    }
    return left;
  }

  private Expr unary(boolean withFilter) {
    Token t = peek();
    Expr node;
    if (t.isOp("-") || t.isOp("+")) {
      next();
      node = new Expr.Unary(t.text(), unary(false), t.line());
    } else {
      node = postfix(primary());
    }
    return withFilter ? filters(node) : node;
  }

  private Expr primary() {
    Token t = next();
    return switch (t.kind()) {
      case STRING -> {
        StringBuilder s = new StringBuilder(t.text());
        while (peek().kind() == Kind.STRING) { // adjacent literals concatenate, as in Python
          s.append(next().text());
        }
        yield new Expr.Literal(s.toString(), t.line());
      }
      case INT -> new Expr.Literal(parseInt(t), t.line());
      case FLOAT -> new Expr.Literal(Double.parseDouble(t.text()), t.line());
      case NAME -> nameOrConstant(t);
      case OP -> bracketed(t);
      case END ->
          throw TemplateException.at(t.line(), "expression expected before the end of the tag");
    };
  }

  private static Long parseInt(Token t) {
    try {
      return Long.parseLong(t.text());
    } catch (NumberFormatException e) {
      throw TemplateException.at(t.line(), "integer literal out of range: " + t.text());
    }
  }

  private static Expr nameOrConstant(Token t) {
    return switch (t.text()) {
      case "true", "True" -> new Expr.Literal(true, t.line());
      case "false", "False" -> new Expr.Literal(false, t.line());
      case "none", "None" -> new Expr.Literal(null, t.line());
      default -> new Expr.Name(t.text(), t.line());
    };
  }

  private Expr bracketed(Token open) {
    switch (open.text()) {
      case "(" -> {
        List<Expr> items = new ArrayList<>();
        boolean tuple = false;
        while (!peek().isOp(")")) {
          items.add(expression());
          if (!peek().isOp(",")) {
            break;
          }
          next();
          tuple = true;
        }
        expectOp(")");
        return tuple || items.isEmpty() ? new Expr.ListLiteral(items, open.line()) : items.get(0);
      }
      case "[" -> {
        List<Expr> items = new ArrayList<>();
        while (!peek().isOp("]")) {
          items.add(expression());
          if (!peek().isOp(",")) {
            break;
          }
          next();
        }
        expectOp("]");
        return new Expr.ListLiteral(items, open.line());
      }
      case "{" -> {
        List<Expr> keys = new ArrayList<>();
        List<Expr> values = new ArrayList<>();
        while (!peek().isOp("}")) {
          keys.add(expression());
          expectOp(":");
          values.add(expression());
          if (!peek().isOp(",")) {
            break;
          }
          next();
        }
        expectOp("}");
        return new Expr.DictLiteral(keys, values, open.line());
      }
      default -> throw TemplateException.at(open.line(), "unexpected '" + open.text() + "'");
    }
  }

  private Expr postfix(Expr node) {
    while (true) {
      Token t = peek();
      if (t.isOp(".")) {
        next();
        Token name = next();
        if (name.kind() != Kind.NAME && name.kind() != Kind.INT) {
          throw TemplateException.at(t.line(), "expected an attribute name after '.'");
        }
        node = new Expr.Attr(node, name.text(), t.line());
      } else if (t.isOp("[")) {
        next();
        node = subscript(node, t.line());
      } else if (t.isOp("(")) {
        next();
        node = call(node, t.line());
      } else {
        return node;
      }
    }
  }

  private Expr subscript(Expr target, int line) {
    Expr[] parts = new Expr[3];
    int index = 0;
    while (!peek().isOp("]")) {
      if (peek().isOp(":")) {
        next();
        if (++index > 2) {
          throw TemplateException.at(line, "a slice has at most start:stop:step");
        }
      } else {
        parts[index] = expression();
      }
    }
    expectOp("]");
    if (index == 0) {
      if (parts[0] == null) {
        throw TemplateException.at(line, "empty subscript []");
      }
      return new Expr.Item(target, parts[0], line);
    }
    return new Expr.Slice(target, parts[0], parts[1], parts[2], line);
  }

  private Expr.Call call(Expr callee, int line) {
    List<Expr> args = new ArrayList<>();
    Map<String, Expr> kwargs = new LinkedHashMap<>();
    parseArgs(args, kwargs);
    return new Expr.Call(callee, args, kwargs, line);
  }

  /** Arguments after an opening parenthesis, through the closing one. */
  private void parseArgs(List<Expr> args, Map<String, Expr> kwargs) {
    while (!peek().isOp(")")) {
      Token t = peek();
      if (t.kind() == Kind.NAME && tokens.get(at + 1).isOp("=")) {
        at += 2;
        kwargs.put(t.text(), expression());
      } else {
        args.add(expression());
      }
      if (!peek().isOp(",")) {
        break;
      }
      next();
    }
    expectOp(")");
  }

  private Expr filters(Expr node) {
    while (true) {
      Token t = peek();
      if (t.isOp("|")) {
        next();
        String name = expectName();
        List<Expr> args = new ArrayList<>();
        Map<String, Expr> kwargs = new LinkedHashMap<>();
        if (peek().isOp("(")) {
          next();
          parseArgs(args, kwargs);
        }
        node = new Expr.Filter(node, name, args, kwargs, t.line());
      } else if (t.isName("is")) {
        next();
        boolean negated = peek().isName("not");
        if (negated) {
          next();
        }
        Token name = next();
        if (name.kind() != Kind.NAME) {
          throw TemplateException.at(t.line(), "expected a test name after 'is'");
        }
        List<Expr> args = new ArrayList<>();
        if (peek().isOp("(")) {
          next();
          parseArgs(args, new LinkedHashMap<>());
        }
        node = new Expr.Test(node, name.text(), args, negated, t.line());
      } else if (t.isOp("(")) {
        next();
        node = call(node, t.line());
      } else {
        return node;
      }
    }
  }
}
