package dev.javelin.datasets.tokenizer.template;

import java.util.List;
import java.util.Map;

/**
 * The {@code tojson} filter as {@code transformers} defines it: Python's {@code json.dumps(x,
 * ensure_ascii=False, indent=indent)}, so separators are {@code ", "} and {@code ": "} (or {@code
 * ","} with line breaks when indenting) and non-ASCII text is written as is.
 */
final class Json {
  private Json() {}

  static String write(Object v, Integer indent, int line) {
    StringBuilder sb = new StringBuilder();
    write(v, indent, 0, sb, line);
    return sb.toString();
  }

  private static void write(Object v, Integer indent, int depth, StringBuilder sb, int line) {
    if (v == null) {
      sb.append("null");
    } else if (v instanceof Boolean b) {
      sb.append(b ? "true" : "false");
    } else if (v instanceof Long || v instanceof Double) {
      sb.append(PyValues.repr(v));
    } else if (v instanceof String s) {
      string(s, sb);
    } else if (v instanceof List<?> list) {
      sb.append('[');
      for (int i = 0; i < list.size(); i++) {
        separator(i, indent, depth + 1, sb);
        write(list.get(i), indent, depth + 1, sb, line);
      }
      close(list.isEmpty(), indent, depth, sb).append(']');
    } else if (v instanceof Map<?, ?> map) {
      sb.append('{');
      int i = 0;
      for (Map.Entry<?, ?> e : map.entrySet()) {
        separator(i++, indent, depth + 1, sb);
        string(PyValues.str(e.getKey()), sb);
        sb.append(": ");
        write(e.getValue(), indent, depth + 1, sb, line);
      }
      close(map.isEmpty(), indent, depth, sb).append('}');
    } else {
      throw TemplateException.at(line, "tojson cannot serialize " + PyValues.typeName(v));
    }
  }

  private static void separator(int index, Integer indent, int depth, StringBuilder sb) {
    if (index > 0) {
      sb.append(indent == null ? ", " : ",");
    }
    if (indent != null) {
      sb.append('\n').append(" ".repeat(indent * depth));
    }
  }

  private static StringBuilder close(boolean empty, Integer indent, int depth, StringBuilder sb) {
    if (indent != null && !empty) {
      sb.append('\n').append(" ".repeat(indent * depth));
    }
    return sb;
  }

  private static void string(String s, StringBuilder sb) {
    sb.append('"');
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      switch (c) {
        case '"' -> sb.append("\\\"");
        case '\\' -> sb.append("\\\\");
        case '\n' -> sb.append("\\n");
        case '\r' -> sb.append("\\r");
        case '\t' -> sb.append("\\t");
        case '\b' -> sb.append("\\b");
        case '\f' -> sb.append("\\f");
        default -> {
          if (c < 0x20) {
            sb.append(String.format("\\u%04x", (int) c));
          } else {
            sb.append(c);
          }
        }
      }
    }
    sb.append('"');
  }
}
