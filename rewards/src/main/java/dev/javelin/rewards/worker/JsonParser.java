package dev.javelin.rewards.worker;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** A recursive-descent JSON reader over one string, bounded in depth; see {@link Json}. */
final class JsonParser {
  private final String s;
  private int pos;

  JsonParser(String s) {
    this.s = s;
  }

  void end() {
    skipSpace();
    if (pos != s.length()) {
      throw bad("trailing text");
    }
  }

  Object value(int depth) {
    if (depth > Json.MAX_DEPTH) {
      throw bad("nested deeper than " + Json.MAX_DEPTH + " levels");
    }
    skipSpace();
    if (pos >= s.length()) {
      throw bad("unexpected end");
    }
    char c = s.charAt(pos);
    return switch (c) {
      case '{' -> object(depth);
      case '[' -> array(depth);
      case '"' -> string();
      case 't' -> literal("true", true);
      case 'f' -> literal("false", false);
      case 'n' -> literal("null", null);
      default -> number();
    };
  }

  private Map<String, Object> object(int depth) {
    pos++; // '{'
    Map<String, Object> m = Json.newObject();
    skipSpace();
    if (peek() == '}') {
      pos++;
      return m;
    }
    while (true) {
      skipSpace();
      if (peek() != '"') {
        throw bad("expected a key");
      }
      String key = string();
      skipSpace();
      expect(':');
      m.put(key, value(depth + 1));
      skipSpace();
      if (peek() == ',') {
        pos++;
      } else {
        expect('}');
        return m;
      }
    }
  }

  private List<Object> array(int depth) {
    pos++; // '['
    List<Object> out = new ArrayList<>();
    skipSpace();
    if (peek() == ']') {
      pos++;
      return out;
    }
    while (true) {
      out.add(value(depth + 1));
      skipSpace();
      if (peek() == ',') {
        pos++;
      } else {
        expect(']');
        return out;
      }
    }
  }

  private String string() {
    pos++; // '"'
    int run = pos;
    while (pos < s.length() && s.charAt(pos) != '"' && s.charAt(pos) != '\\') {
      pos++;
    }
    if (pos < s.length() && s.charAt(pos) == '"') {
      return s.substring(run, pos++); // no escapes: the common case, one copy
    }
    StringBuilder b = new StringBuilder().append(s, run, pos);
    while (true) {
      if (pos >= s.length()) {
        throw bad("unterminated string");
      }
      char c = s.charAt(pos++);
      if (c == '"') {
        return b.toString();
      }
      if (c != '\\') {
        b.append(c);
        continue;
      }
      if (pos >= s.length()) {
        throw bad("unterminated escape");
      }
      char e = s.charAt(pos++);
      switch (e) {
        case '"', '\\', '/' -> b.append(e);
        case 'n' -> b.append('\n');
        case 'r' -> b.append('\r');
        case 't' -> b.append('\t');
        case 'b' -> b.append('\b');
        case 'f' -> b.append('\f');
        case 'u' -> b.append(unicode());
        default -> throw bad("bad escape \\" + e);
      }
    }
  }

  private char unicode() {
    if (pos + 4 > s.length()) {
      throw bad("short \\u escape");
    }
    try {
      char c = (char) Integer.parseInt(s.substring(pos, pos + 4), 16);
      pos += 4;
      return c;
    } catch (NumberFormatException e) {
      throw bad("bad \\u escape");
    }
  }

  private Object literal(String word, Object value) {
    if (!s.startsWith(word, pos)) {
      throw bad("unexpected character");
    }
    pos += word.length();
    return value;
  }

  private Object number() {
    int start = pos;
    boolean integral = true;
    while (pos < s.length()) {
      char c = s.charAt(pos);
      if (c == '.' || c == 'e' || c == 'E') {
        integral = false;
      } else if (!(c == '-' || c == '+' || (c >= '0' && c <= '9'))) {
        break;
      }
      pos++;
    }
    String text = s.substring(start, pos);
    if (text.isEmpty() || text.length() > 400) {
      throw bad(text.isEmpty() ? "unexpected character" : "number too long");
    }
    try {
      if (!integral) {
        return Double.parseDouble(text);
      }
      BigInteger big = new BigInteger(text);
      if (big.bitLength() < 32) {
        return big.intValue();
      }
      return big.bitLength() < 64 ? (Object) big.longValue() : big;
    } catch (NumberFormatException e) {
      throw bad("bad number '" + text + "'");
    }
  }

  private char peek() {
    if (pos >= s.length()) {
      throw bad("unexpected end");
    }
    return s.charAt(pos);
  }

  private void expect(char c) {
    if (peek() != c) {
      throw bad("expected '" + c + "'");
    }
    pos++;
  }

  private void skipSpace() {
    while (pos < s.length()) {
      char c = s.charAt(pos);
      if (c != ' ' && c != '\n' && c != '\r' && c != '\t') {
        return;
      }
      pos++;
    }
  }

  private IllegalArgumentException bad(String what) {
    return new IllegalArgumentException("malformed JSON at offset " + pos + ": " + what);
  }
}
