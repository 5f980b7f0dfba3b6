package dev.javelin.recipes.ray;

import dev.javelin.recipes.config.ConfigException;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * The {@code --add-opens} list every Javelin JVM runs with, read from the one file that spells it
 * ({@code dev/javelin/recipes/add-opens.args}, a java {@code @argfile} the launcher and the build
 * use as it is).
 */
public final class JvmOpens {
  static final String RESOURCE = "/dev/javelin/recipes/add-opens.args";

  private JvmOpens() {}

  /** The file's text: one {@code --add-opens java.base/P=ALL-UNNAMED} per line, # comments. */
  static String argfile() {
    try (InputStream in = JvmOpens.class.getResourceAsStream(RESOURCE)) {
      if (in == null) {
        throw new IllegalStateException("missing class-path resource " + RESOURCE);
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + RESOURCE, e);
    }
  }

  /** The options on one line, for a generated shell script. */
  public static String inline() {
    StringBuilder b = new StringBuilder();
    for (String p : packages()) {
      b.append(b.length() == 0 ? "" : " ")
          .append("--add-opens java.base/")
          .append(p)
          .append("=ALL-UNNAMED");
    }
    return b.toString();
  }

  /** The same list as a jar manifest's {@code Add-Opens} value, for {@code java -jar}. */
  public static String manifestValue() {
    return String.join(" ", packages().stream().map(p -> "java.base/" + p).toList());
  }

  /**
   * Fails with one line that gives the flags when this JVM lacks one of them: without them Ray
   * fails deep in its serializer with a long InaccessibleObjectException.
   */
  public static void requireOpen() {
    Module javelin = JvmOpens.class.getModule();
    Module base = Object.class.getModule();
    for (String p : packages()) {
      if (!base.isOpen(p, javelin)) {
        throw new ConfigException(
            "this JVM lacks the --add-opens flags Ray needs (java.base/"
                + p
                + " is not open): start java with `"
                + inline()
                + "`, or for java -jar put `Add-Opens: "
                + manifestValue()
                + "` in the jar's manifest (README.md, Use from Java)");
      }
    }
  }

  /** The opened {@code java.base} packages, in file order. */
  static List<String> packages() {
    List<String> out = new ArrayList<>();
    for (String line : argfile().lines().toList()) {
      String l = line.strip();
      if (l.startsWith("--add-opens java.base/") && l.endsWith("=ALL-UNNAMED")) {
        out.add(
            l.substring("--add-opens java.base/".length(), l.length() - "=ALL-UNNAMED".length()));
      }
    }
    return List.copyOf(out);
  }
}
