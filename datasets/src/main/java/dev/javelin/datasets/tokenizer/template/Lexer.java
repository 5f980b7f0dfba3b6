package dev.javelin.datasets.tokenizer.template;

import dev.javelin.datasets.tokenizer.template.Token.Kind;
import java.util.ArrayList;
import java.util.List;

/**
 * Splits template source into {@link Segment}s with Jinja's whitespace rules as {@code
 * transformers} configures them: {@code trim_blocks} (drop the newline after a block tag), {@code
 * lstrip_blocks} (drop spaces before a block tag that starts a line), {@code -} markers (strip all
 * whitespace on that side), newlines normalized to {@code \n} and one trailing newline of the
 * source dropped.
 */
final class Lexer {
  private static final String[] OPS = {
    "//", "**", "==", "!=", "<=", ">=", "+", "-", "*", "/", "%", "~", "<", ">", "=", "(", ")", "[",
    "]", "{", "}", ".", ",", ":", "|"
  };

  private final String src;
  private final List<Segment> out = new ArrayList<>();
  private int pos;
  private int line = 1;
  private boolean stripNextText; // the previous tag ended with '-'
  private boolean trimNextNewline; // the previous tag was a block or comment (trim_blocks)
  private boolean lineStarting = true;

  private Lexer(String source) {
    String normalized = source.replace("\r\n", "\n").replace('\r', '\n');
    this.src =
        normalized.endsWith("\n") ? normalized.substring(0, normalized.length() - 1) : normalized;
  }

  static List<Segment> lex(String source) {
    Lexer lexer = new Lexer(source);
    lexer.run();
    return lexer.out;
  }

  private void run() {
    while (pos <= src.length()) {
      int tag = nextTagStart(pos);
      String text = src.substring(pos, tag < 0 ? src.length() : tag);
      if (tag < 0) {
        emitText(text, false, false);
        return;
      }
      char kind = src.charAt(tag + 1);
      char marker = tag + 2 < src.length() ? src.charAt(tag + 2) : ' ';
      emitText(text, marker == '-', kind != '{' && marker != '+');
      pos = tag + 2 + (marker == '-' || marker == '+' ? 1 : 0);
      if (kind == '#') {
        skipComment();
      } else {
        lexTag(kind == '{');
      }
    }
  }

  private int nextTagStart(int from) {
    int i = src.indexOf('{', from);
    while (i >= 0 && i + 1 < src.length()) {
      char c = src.charAt(i + 1);
      if (c == '{' || c == '%' || c == '#') {
        return i;
      }
      i = src.indexOf('{', i + 1);
    }
    return -1;
  }

  private void emitText(String text, boolean stripRight, boolean lstripBlock) {
    if (stripNextText) {
      String stripped = text.stripLeading();
      lineStarting = text.substring(0, text.length() - stripped.length()).endsWith("\n");
      text = stripped;
    } else if (trimNextNewline && text.startsWith("\n")) {
      text = text.substring(1);
      lineStarting = true;
    }
    if (stripRight) {
      text = text.stripTrailing();
    } else if (lstripBlock) {
      int lineStart = text.lastIndexOf('\n') + 1;
      if ((lineStart > 0 || lineStarting) && text.substring(lineStart).isBlank()) {
        text = text.substring(0, lineStart);
      }
    }
    stripNextText = false;
    trimNextNewline = false;
    lineStarting = false;
    if (!text.isEmpty()) {
      out.add(new Segment.Text(text, line));
    }
    line += count(text, '\n');
  }

  private void skipComment() {
    int end = src.indexOf("#}", pos);
    if (end < 0) {
      throw TemplateException.at(line, "comment '{#' is never closed with '#}'");
    }
    line += count(src.substring(pos, end), '\n');
    stripNextText = end > pos && src.charAt(end - 1) == '-';
    trimNextNewline = true;
    pos = end + 2;
  }

  private void lexTag(boolean output) {
    int startLine = line;
    String close = output ? "}}" : "%}";
    List<Token> tokens = new ArrayList<>();
    while (true) {
      skipSpaces();
      if (pos >= src.length()) {
        throw TemplateException.at(startLine, "tag is never closed with '" + close + "'");
      }
      if (src.startsWith("-" + close, pos) || src.startsWith(close, pos)) {
        stripNextText = src.charAt(pos) == '-';
        pos += stripNextText ? 3 : 2;
        break;
      }
      tokens.add(nextToken());
    }
    tokens.add(new Token(Kind.END, close, line));
    trimNextNewline = !output;
    out.add(
        output ? new Segment.Output(tokens, startLine) : new Segment.Statement(tokens, startLine));
  }

  private void skipSpaces() {
    while (pos < src.length() && Character.isWhitespace(src.charAt(pos))) {
      if (src.charAt(pos) == '\n') {
        line++;
      }
      pos++;
    }
  }

  private Token nextToken() {
    char c = src.charAt(pos);
    if (c == '\'' || c == '"') {
      return stringToken(c);
    }
    if (Character.isDigit(c)) {
      int start = pos;
      while (pos < src.length() && (Character.isDigit(src.charAt(pos)) || src.charAt(pos) == '_')) {
        pos++;
      }
      boolean isFloat =
          pos + 1 < src.length()
              && src.charAt(pos) == '.'
              && Character.isDigit(src.charAt(pos + 1));
      if (isFloat) {
        pos++;
        while (pos < src.length() && Character.isDigit(src.charAt(pos))) {
          pos++;
        }
      }
      String num = src.substring(start, pos).replace("_", "");
      return new Token(isFloat ? Kind.FLOAT : Kind.INT, num, line);
    }
    if (Character.isLetter(c) || c == '_') {
      int start = pos;
      while (pos < src.length()
          && (Character.isLetterOrDigit(src.charAt(pos)) || src.charAt(pos) == '_')) {
        pos++;
      }
      return new Token(Kind.NAME, src.substring(start, pos), line);
    }
    for (String op : OPS) {
      if (src.startsWith(op, pos)) {
        pos += op.length();
        return new Token(Kind.OP, op, line);
      }
    }
    throw TemplateException.at(line, "unexpected character '" + c + "' in a tag");
  }

  private Token stringToken(char quote) {
    int startLine = line;
    StringBuilder value = new StringBuilder();
    pos++;
    while (true) {
      if (pos >= src.length()) {
        throw TemplateException.at(startLine, "string literal is never closed");
      }
      char c = src.charAt(pos++);
      if (c == quote) {
        return new Token(Kind.STRING, value.toString(), startLine);
      }
      if (c == '\n') {
        line++;
      }
      if (c != '\\' || pos >= src.length()) {
        value.append(c);
        continue;
      }
      pos = unescape(src, pos, value);
    }
  }

  /**
   * Python string escapes; returns the position after the escape whose backslash preceded {@code
   * at}.
   */
  private static int unescape(String s, int at, StringBuilder value) {
    char e = s.charAt(at);
    switch (e) {
      case 'n' -> value.append('\n');
      case 't' -> value.append('\t');
      case 'r' -> value.append('\r');
      case '0' -> value.append('\0');
      case '\\', '\'', '"' -> value.append(e);
      case 'x', 'u' -> {
        int digits = e == 'x' ? 2 : 4;
        if (at + 1 + digits > s.length()
            || !s.substring(at + 1, at + 1 + digits).matches("[0-9a-fA-F]+")) {
          // as in Python, an x or u escape needs exactly that many hex digits (no sign)
          throw new TemplateException(
              "chat template: \\" + e + " escape needs " + digits + " hex digits");
        }
        value.append((char) Integer.parseInt(s.substring(at + 1, at + 1 + digits), 16));
        return at + 1 + digits;
      }
      default -> value.append('\\').append(e); // Python keeps unknown escapes as written
    }
    return at + 1;
  }

  private static int count(String s, char c) {
    int n = 0;
    for (int i = 0; i < s.length(); i++) {
      if (s.charAt(i) == c) {
        n++;
      }
    }
    return n;
  }
}
