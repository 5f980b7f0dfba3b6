package dev.javelin.rewards;

import static dev.javelin.rewards.RewardConfigException.Field.PATH;

import java.io.File;
import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.net.MalformedURLException;
import java.net.URISyntaxException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.CodeSource;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.jar.JarFile;
import java.util.stream.Stream;
import javax.tools.Diagnostic;
import javax.tools.DiagnosticCollector;
import javax.tools.JavaCompiler;
import javax.tools.JavaFileObject;
import javax.tools.StandardJavaFileManager;
import javax.tools.ToolProvider;

/**
 * The code behind {@code custom_reward_function.path}: a jar, a folder of compiled classes, or one
 * {@code .java} source file, which is compiled here with {@code javax.tools} into the user's {@link
 * RewardCache} (keyed by the source's hash, verified on every reuse).
 *
 * @param root the jar or classes folder to put on the class path
 */
public record RewardCode(Path root) {

  private static final int MAX_ERRORS_SHOWN = 10;

  /**
   * Finds or builds the code at {@code path}; every problem is one {@link RewardConfigException}.
   */
  public static RewardCode open(String path) {
    Path p = Path.of(path).toAbsolutePath().normalize();
    String name = p.getFileName() == null ? "" : p.getFileName().toString();
    if (name.endsWith(".py")) {
      throw new RewardConfigException(
          PATH,
          path
              + " is a Python file; Javelin loads Java rewards: point it at a .java file, a jar or"
              + " a classes folder");
    }
    if (!Files.exists(p)) {
      throw new RewardConfigException(
          PATH, path + " does not exist (a .java file, a jar or a classes folder)");
    }
    if (Files.isDirectory(p)) {
      return new RewardCode(p);
    }
    if (name.endsWith(".jar")) {
      return new RewardCode(p);
    }
    if (name.endsWith(".java")) {
      return new RewardCode(compile(p));
    }
    throw new RewardConfigException(
        PATH, path + " is neither a .java file, a .jar nor a folder of classes");
  }

  /** A class loader over this code whose parent sees the rewards API. */
  public ClassLoader loader(ClassLoader parent) {
    try {
      return new URLClassLoader("custom-reward", new URL[] {root.toUri().toURL()}, parent);
    } catch (MalformedURLException e) {
      throw new RewardConfigException(PATH, "cannot use " + root + " (" + e.getMessage() + ")");
    }
  }

  /** Compiles {@code source} into a cache folder; errors come back as file:line: message. */
  static Path compile(Path source) {
    byte[] text;
    try {
      text = Files.readAllBytes(source);
    } catch (IOException e) {
      throw new RewardConfigException(PATH, "cannot read " + source + " (" + e + ")");
    }
    JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
    if (javac == null) {
      throw new RewardConfigException(
          PATH, "compiling " + source + " needs a JDK (this Java has no compiler); use a jar");
    }
    String key = RewardCache.key(text);
    Path out;
    try {
      out = RewardCache.ofUser().entry(key);
      if (RewardCache.verified(out, key)) {
        return out;
      }
      RewardCache.createPrivate(out);
      RewardCache.clear(out); // an unfinished or altered entry is compiled again
    } catch (IOException | UncheckedIOException e) {
      throw new RewardConfigException(PATH, "cannot use the reward cache (" + e + ")");
    }
    DiagnosticCollector<JavaFileObject> diags = new DiagnosticCollector<>();
    try (StandardJavaFileManager files =
        javac.getStandardFileManager(diags, Locale.ROOT, StandardCharsets.UTF_8)) {
      List<String> options =
          List.of("-d", out.toString(), "-classpath", classPath(true), "-proc:none", "-g");
      StringWriter log = new StringWriter();
      boolean ok =
          javac
              .getTask(log, files, diags, options, null, files.getJavaFileObjects(source.toFile()))
              .call();
      if (!ok) {
        throw new RewardConfigException(PATH, compileErrors(source, diags.getDiagnostics(), log));
      }
      RewardCache.seal(out, key);
    } catch (IOException e) {
      throw new RewardConfigException(PATH, "cannot compile " + source + " (" + e + ")");
    }
    return out;
  }

  private static String compileErrors(
      Path source, List<Diagnostic<? extends JavaFileObject>> diags, StringWriter log) {
    StringBuilder b = new StringBuilder(source + " does not compile:");
    int shown = 0;
    int errors = 0;
    for (Diagnostic<? extends JavaFileObject> d : diags) {
      if (d.getKind() != Diagnostic.Kind.ERROR) {
        continue;
      }
      errors++;
      if (shown++ < MAX_ERRORS_SHOWN) {
        String file = d.getSource() == null ? source.toString() : d.getSource().getName();
        // javac's whole message (symbol, location), then the line and a caret, as javac prints it
        String msg = d.getMessage(Locale.ROOT);
        b.append('\n').append(file).append(':').append(d.getLineNumber()).append(": ").append(msg);
        sourceLine(d).ifPresent(l -> b.append('\n').append(l));
      }
    }
    if (errors > MAX_ERRORS_SHOWN) {
      b.append("\n(").append(errors - MAX_ERRORS_SHOWN).append(" more errors)");
    }
    if (errors == 0) {
      b.append('\n').append(log.toString().strip());
    }
    return b.toString();
  }

  /** The diagnostic's source line with a caret under its column, when javac knows them. */
  private static Optional<String> sourceLine(Diagnostic<? extends JavaFileObject> d) {
    if (d.getSource() == null || d.getLineNumber() < 1 || d.getColumnNumber() < 1) {
      return Optional.empty();
    }
    try {
      List<String> lines = d.getSource().getCharContent(true).toString().lines().toList();
      if (d.getLineNumber() > lines.size()) {
        return Optional.empty();
      }
      String line = lines.get((int) d.getLineNumber() - 1);
      int col = (int) Math.min(d.getColumnNumber() - 1, line.length());
      return Optional.of(line + "\n" + " ".repeat(col) + "^");
    } catch (IOException e) {
      return Optional.empty();
    }
  }

  /**
   * The classes this code holds ({@code com.example.MyReward}), nested classes left out, for a
   * message about a class name not found in it.
   */
  public List<String> classNames() {
    List<String> names = new ArrayList<>();
    try {
      if (Files.isDirectory(root)) {
        try (Stream<Path> walk = Files.walk(root, 32)) {
          walk.filter(Files::isRegularFile)
              .map(p -> root.relativize(p).toString().replace(File.separatorChar, '/'))
              .forEach(n -> addClassName(n, names));
        }
      } else {
        try (JarFile jar = new JarFile(root.toFile())) {
          jar.stream().forEach(e -> addClassName(e.getName(), names));
        }
      }
    } catch (IOException | UncheckedIOException e) {
      return List.of(); // the message then just names the code
    }
    Collections.sort(names);
    return names;
  }

  private static void addClassName(String entry, List<String> names) {
    if (entry.endsWith(".class") && !entry.contains("$") && !entry.startsWith("META-INF/")) {
      names.add(entry.substring(0, entry.length() - ".class".length()).replace('/', '.'));
    }
  }

  /**
   * Where the rewards API itself was loaded from, plus this JVM's class path when {@code
   * withJvmClassPath} (or when the API's location is not a file). The javac that compiles reward
   * sources needs both (a test runner's class path can be a manifest-only jar, which javac does not
   * always expand); a worker process running code named by {@code path} needs only the API.
   */
  public static String classPath(boolean withJvmClassPath) {
    Set<String> entries = new LinkedHashSet<>();
    CodeSource cs = RewardFunction.class.getProtectionDomain().getCodeSource();
    if (cs != null && cs.getLocation() != null) {
      try {
        entries.add(Path.of(cs.getLocation().toURI()).toString());
      } catch (URISyntaxException | IllegalArgumentException e) {
        // not a file location: the class path below still has it
      }
    }
    if (withJvmClassPath || entries.isEmpty()) {
      for (String e : System.getProperty("java.class.path", "").split(File.pathSeparator, -1)) {
        if (!e.isBlank()) {
          entries.add(e);
        }
      }
    }
    return String.join(File.pathSeparator, entries);
  }
}
