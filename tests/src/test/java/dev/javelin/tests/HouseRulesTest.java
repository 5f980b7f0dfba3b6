package dev.javelin.tests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.javelin.recipes.config.RecipeSchema;
import dev.javelin.recipes.config.Schema;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The layering rules over every module's main Java sources: code outside a device's own package
 * reaches the device through the Device SPI (no {@code instanceof} or cast to one of its classes),
 * and recipe keys are spelled only in the recipes' config package, where each key is declared once
 * next to the record it configures.
 */
class HouseRulesTest {
  private static final Path ROOT = Path.of(System.getProperty("javelin.root", ".."));

  /** The device implementations: each package may name its own classes, nobody else may. */
  private static final Map<String, String> DEVICE_PACKAGES =
      Map.of("cpu", "device-cpu", "reference", "device-cpu", "xla", "device-xla");

  private static final Path RECIPE_CONFIG =
      Path.of("recipes/src/main/java/dev/javelin/recipes/config");
  private static final Pattern STRING_LITERAL = Pattern.compile("\"((?:[^\"\\\\]|\\\\.)*)\"");

  @Test
  void noCodeOutsideADeviceNamesItsClasses() throws IOException {
    List<String> found = new ArrayList<>();
    for (Map.Entry<String, String> device : DEVICE_PACKAGES.entrySet()) {
      String pkg = device.getKey();
      Path own =
          Path.of("tpu-backend", device.getValue(), "src/main/java/dev/javelin/backend", pkg);
      Set<String> names = typeNames(ROOT.resolve(own));
      assertTrue(names.size() > 3, "no device classes found in " + own);
      for (Path file : SourceSizeTest.mainSources()) {
        if (ROOT.relativize(file).startsWith(own)) {
          continue;
        }
        List<String> lines = Files.readAllLines(file);
        Pattern use = deviceUse(imported(lines, "dev.javelin.backend." + pkg, names));
        for (int i = 0; use != null && i < lines.size(); i++) {
          if (use.matcher(code(lines.get(i))).find()) {
            found.add(ROOT.relativize(file) + ":" + (i + 1) + ": " + lines.get(i).strip());
          }
        }
      }
    }
    assertEquals(List.of(), found, "go through the Device SPI instead");
  }

  @Test
  void recipeKeysAreSpelledOnlyInTheConfigPackage() throws IOException {
    Schema schema = RecipeSchema.schema();
    Set<String> keys = new HashSet<>(schema.names());
    keys.addAll(schema.aliases().keySet());
    assertTrue(keys.contains("data.train_batch_size"), "the schema lists its keys");
    List<String> found = new ArrayList<>();
    for (Path file : SourceSizeTest.mainSources()) {
      if (ROOT.relativize(file).startsWith(RECIPE_CONFIG)) {
        continue;
      }
      List<String> lines = Files.readAllLines(file);
      for (int i = 0; i < lines.size(); i++) {
        Matcher m = STRING_LITERAL.matcher(code(lines.get(i)));
        while (m.find()) {
          if (keys.contains(m.group(1))) {
            found.add(ROOT.relativize(file) + ":" + (i + 1) + ": " + m.group());
          }
        }
      }
    }
    assertEquals(List.of(), found, "use the KeySpec constant of the config package");
  }

  /** The checks see what they look for: a cast, an instanceof, a key literal; not a comment. */
  @Test
  void theCheckersSeeCodeAndSkipComments() {
    Pattern use = deviceUse(Set.of("XlaDevice"));
    assertTrue(use.matcher(code("if (d instanceof XlaDevice x) {")).find());
    assertTrue(use.matcher(code("XlaDevice x = (XlaDevice) d;")).find());
    assertTrue(use.matcher(code("return ((XlaDevice) d).client();")).find());
    assertFalse(use.matcher(code("   * a cast (XlaDevice) d in a comment")).find());
    assertFalse(use.matcher(code("static void open(XlaDevice d) {")).find());
    assertFalse(use.matcher(code("foo(XlaDevice.open(\"x\"));")).find());
    assertEquals(
        Set.of("XlaDevice"),
        imported(
            List.of("import dev.javelin.backend.xla.XlaDevice;", "import java.util.List;"),
            "dev.javelin.backend.xla",
            Set.of("XlaDevice", "XlaBuffer")));
    assertTrue(STRING_LITERAL.matcher(code("s.get(\"data.train_batch_size\")")).find());
    assertEquals("", code("// s.get(\"data.train_batch_size\")"));
  }

  /** {@code instanceof X} or a cast {@code (X) value} for a class X of {@code names}. */
  private static Pattern deviceUse(Set<String> names) {
    if (names.isEmpty()) {
      return null;
    }
    String any = "(?:" + String.join("|", names) + ")";
    return Pattern.compile("instanceof\\s+" + any + "\\b|\\(\\s*" + any + "\\s*\\)\\s*[\\w(]");
  }

  /**
   * Which of {@code names} (classes of package {@code pkg}) the file imports, one by one or all.
   */
  private static Set<String> imported(List<String> lines, String pkg, Set<String> names) {
    Set<String> out = new HashSet<>();
    for (String line : lines) {
      String s = line.strip();
      if (s.equals("import " + pkg + ".*;")) {
        return names;
      }
      for (String n : names) {
        if (s.equals("import " + pkg + "." + n + ";")) {
          out.add(n);
        }
      }
    }
    return out;
  }

  /** A line with any comment removed: javadoc and block-comment lines, or a trailing {@code //}. */
  private static String code(String line) {
    String s = line.strip();
    if (s.startsWith("*") || s.startsWith("/*") || s.startsWith("//")) {
      return "";
    }
    int comment = s.indexOf(" // ");
    return comment < 0 ? s : s.substring(0, comment);
  }

  private static Set<String> typeNames(Path dir) throws IOException {
    Set<String> names = new HashSet<>();
    try (Stream<Path> s = Files.list(dir)) {
      s.map(p -> p.getFileName().toString())
          .filter(n -> n.endsWith(".java") && !n.equals("package-info.java"))
          .forEach(n -> names.add(n.substring(0, n.length() - ".java".length())));
    }
    return names;
  }
}
