package dev.javelin.tests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The house's size rules over every module's main Java sources: no file over 400 lines, no method
 * or constructor body over 60. A method is found by its declaration line (modifiers, a return type
 * or none, a name and an opening parenthesis, not a type declaration or a statement) and measured
 * from there to the closing brace at its own indentation, as google-java-format lays code out.
 */
class SourceSizeTest {
  static final int MAX_FILE_LINES = 400;
  static final int MAX_METHOD_LINES = 60;

  private static final Path ROOT = Path.of(System.getProperty("javelin.root", ".."));
  private static final List<String> MODULES =
      List.of(
          "tpu-backend",
          "grpo",
          "rewards",
          "datasets",
          "weight-sync",
          "sampler",
          "trainer",
          "recipes");
  private static final Pattern DECLARATION =
      Pattern.compile(
          "^(\\s+)(?:(?:public|private|protected|static|final|synchronized|abstract|default)\\s+)*"
              + "(?:<[^>]+>\\s+)?(?:[\\w<>\\[\\], ?.]+\\s+)?(\\w+)\\s*\\(");
  private static final Pattern NOT_A_METHOD =
      Pattern.compile(
          "^(return|new|else|if|for|while|switch|case|throw|this|super|try|catch)\\b"
              + "|\\b(record|class|interface|enum)\\b");

  @Test
  void noSourceFileOrMethodIsTooLong() throws IOException {
    List<String> over = new ArrayList<>();
    for (Path file : mainSources()) {
      List<String> lines = Files.readAllLines(file);
      String name = ROOT.relativize(file).toString();
      if (lines.size() > MAX_FILE_LINES) {
        over.add(name + ": " + lines.size() + " lines (at most " + MAX_FILE_LINES + ")");
      }
      longMethods(lines).forEach(m -> over.add(name + ": " + m));
    }
    assertEquals(List.of(), over, "split these");
  }

  /** The checker itself finds a long method, and passes a long class, a lambda and a short one. */
  @Test
  void theCheckerSeesMethodsAndOnlyMethods() {
    List<String> src = new ArrayList<>();
    src.add("final class A {");
    src.add("  private static int shortOne(int x) {");
    src.add("    return x;");
    src.add("  }");
    src.add("  record R(int a, int b) {");
    src.addAll(java.util.Collections.nCopies(70, "    // a record's body is not a method"));
    src.add("  }");
    src.add("  public List<String> longOne(");
    src.add("      int a) {");
    src.addAll(java.util.Collections.nCopies(60, "    a++;"));
    src.add("  }");
    src.add("}");
    assertEquals(List.of("longOne: 63 lines (at most 60), line 77"), longMethods(src));
  }

  /** Every main Java source of every module, sub-modules inside a module's folder included. */
  static List<Path> mainSources() throws IOException {
    List<Path> out = new ArrayList<>();
    for (String module : MODULES) {
      Path dir = ROOT.resolve(module);
      assertTrue(Files.isDirectory(dir), "no " + dir + ": run from the repository");
      try (Stream<Path> s = Files.walk(dir)) {
        s.filter(p -> p.toString().endsWith(".java"))
            .filter(p -> dir.relativize(p).toString().contains("src/main/java/"))
            .filter(p -> !dir.relativize(p).toString().contains("target/"))
            .sorted()
            .forEach(out::add);
      }
    }
    return out;
  }

  /** "name: N lines (at most 60), line L" for each method body longer than the rule allows. */
  static List<String> longMethods(List<String> lines) {
    List<String> out = new ArrayList<>();
    for (int i = 0; i < lines.size(); i++) {
      Matcher m = DECLARATION.matcher(lines.get(i));
      String code = lines.get(i).strip();
      if (!m.find()
          || NOT_A_METHOD.matcher(code).find()
          || code.substring(0, code.indexOf('(')).contains("=")) {
        continue;
      }
      int open = i;
      while (open < lines.size() && !endsWithAny(lines.get(open), "{", ";", "}")) {
        open++;
      }
      if (open == lines.size() || !lines.get(open).stripTrailing().endsWith("{")) {
        continue; // abstract, an interface method, or a one-line body
      }
      String close = m.group(1) + "}";
      int end = open + 1;
      while (end < lines.size() && !lines.get(end).equals(close)) {
        end++;
      }
      int length = end - i + 1;
      if (length > MAX_METHOD_LINES) {
        out.add(
            m.group(2)
                + ": "
                + length
                + " lines (at most "
                + MAX_METHOD_LINES
                + "), line "
                + (i + 1));
      }
      i = end;
    }
    return out;
  }

  private static boolean endsWithAny(String line, String... ends) {
    String s = line.stripTrailing();
    for (String e : ends) {
      if (s.endsWith(e)) {
        return true;
      }
    }
    return false;
  }
}
