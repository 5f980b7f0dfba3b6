package dev.javelin.datasets.tokenizer.template;

import dev.javelin.datasets.tokenizer.template.Token.Kind;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * Parses lexed segments into a {@link Node} tree: {@code if/elif/else}, {@code for ... [if ...] /
 * else}, {@code set} (including {@code set ns.attr}). Any other statement is rejected by name.
 */
final class Parser {
  private static final Set<String> UNSUPPORTED =
      Set.of(
          "macro",
          "call",
          "filter",
          "raw",
          "include",
          "import",
          "from",
          "extends",
          "block",
          "with",
          "break",
          "continue",
          "autoescape",
          "do",
          "generation");

  private final List<Segment> segments;
  private int at;

  private Parser(List<Segment> segments) {
    this.segments = segments;
  }

  static List<Node> parse(String source) {
    Parser parser = new Parser(Lexer.lex(source));
    List<Node> body = parser.body(Set.of());
    if (parser.at < parser.segments.size()) {
      Segment.Statement stray = (Segment.Statement) parser.segments.get(parser.at);
      throw TemplateException.at(stray.line(), "unexpected '" + keyword(stray) + "'");
    }
    return body;
  }

  /** Nodes up to (not including) a statement whose keyword is in {@code stops}, or the end. */
  private List<Node> body(Set<String> stops) {
    List<Node> nodes = new ArrayList<>();
    while (at < segments.size()) {
      Segment segment = segments.get(at);
      if (segment instanceof Segment.Text t) {
        nodes.add(new Node.Text(t.text()));
        at++;
      } else if (segment instanceof Segment.Output o) {
        TemplateExprParser p = new TemplateExprParser(o.tokens(), 0);
        Expr expr = p.expression();
        p.expectEnd();
        nodes.add(new Node.Output(expr));
        at++;
      } else {
        Segment.Statement s = (Segment.Statement) segment;
        if (stops.contains(keyword(s))) {
          return nodes;
        }
        at++;
        nodes.add(statement(s));
      }
    }
    if (!stops.isEmpty()) {
      throw new TemplateException("chat template: missing {% " + String.join(" / ", stops) + " %}");
    }
    return nodes;
  }

  private static String keyword(Segment.Statement s) {
    Token first = s.tokens().get(0);
    if (first.kind() != Kind.NAME) {
      throw TemplateException.at(
          s.line(), "a statement must start with a keyword, not '" + first.text() + "'");
    }
    return first.text();
  }

  private Node statement(Segment.Statement s) {
    String keyword = keyword(s);
    TemplateExprParser p = new TemplateExprParser(s.tokens(), 1);
    return switch (keyword) {
      case "if" -> ifNode(p);
      case "for" -> forNode(p, s.line());
      case "set" -> setNode(p, s.line());
      default ->
          throw TemplateException.at(
              s.line(),
              UNSUPPORTED.contains(keyword)
                  ? "unsupported Jinja statement '{% " + keyword + " %}'"
                  : "unknown or misplaced statement '{% " + keyword + " %}'");
    };
  }

  private Node ifNode(TemplateExprParser p) {
    List<Node.Branch> branches = new ArrayList<>();
    Expr test = p.expression();
    p.expectEnd();
    while (true) {
      List<Node> body = body(Set.of("elif", "else", "endif"));
      branches.add(new Node.Branch(test, body));
      Segment.Statement end = (Segment.Statement) segments.get(at++);
      TemplateExprParser q = new TemplateExprParser(end.tokens(), 1);
      switch (keyword(end)) {
        case "elif" -> {
          test = q.expression();
          q.expectEnd();
        }
        case "else" -> {
          q.expectEnd();
          List<Node> otherwise = body(Set.of("endif"));
          at++;
          return new Node.If(branches, otherwise);
        }
        default -> {
          q.expectEnd();
          return new Node.If(branches, List.of());
        }
      }
    }
  }

  private Node forNode(TemplateExprParser p, int line) {
    List<String> targets = new ArrayList<>();
    targets.add(p.expectName());
    while (p.peek().isOp(",")) {
      p.next();
      targets.add(p.expectName());
    }
    if (!p.next().isName("in")) {
      throw TemplateException.at(line, "expected 'in' in the for statement");
    }
    Expr iterable = p.or();
    Expr filter = null;
    if (p.peek().isName("if")) {
      p.next();
      filter = p.expression();
    }
    if (p.peek().isName("recursive")) {
      throw TemplateException.at(line, "unsupported Jinja construct 'for ... recursive'");
    }
    p.expectEnd();
    List<Node> body = body(Set.of("else", "endfor"));
    List<Node> otherwise = List.of();
    if (keyword((Segment.Statement) segments.get(at++)).equals("else")) {
      otherwise = body(Set.of("endfor"));
      at++;
    }
    return new Node.For(targets, iterable, filter, body, otherwise);
  }

  private Node setNode(TemplateExprParser p, int line) {
    String name = p.expectName();
    String attr = null;
    if (p.peek().isOp(".")) {
      p.next();
      attr = p.expectName();
    }
    if (!p.peek().isOp("=")) {
      throw TemplateException.at(
          line,
          "unsupported Jinja construct: block '{% set "
              + name
              + " %}...{% endset %}' or tuple set");
    }
    p.next();
    Expr value = p.expression();
    p.expectEnd();
    return attr == null ? new Node.Set(name, value) : new Node.SetAttr(name, attr, value, line);
  }
}
