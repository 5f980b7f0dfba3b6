package dev.javelin.tests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** README's Java snippets compile as written: their imports, then their statements in a method. */
class ReadmeJavaTest {
  private static final Path README = Path.of(System.getProperty("javelin.root", ".."), "README.md");

  @Test
  void everyJavaBlockCompiles(@TempDir Path tmp) throws Exception {
    Matcher m =
        Pattern.compile("```java\n(.*?)```", Pattern.DOTALL).matcher(Files.readString(README));
    List<String> blocks = new ArrayList<>();
    while (m.find()) {
      blocks.add(m.group(1));
    }
    assertTrue(blocks.size() >= 2, "README lost its Java snippets");
    for (int i = 0; i < blocks.size(); i++) {
      StringBuilder imports = new StringBuilder();
      StringBuilder body = new StringBuilder();
      for (String line : blocks.get(i).lines().toList()) {
        (line.startsWith("import ") ? imports : body).append(line).append('\n');
      }
      String name = "Snippet" + i;
      Path src = tmp.resolve(name + ".java");
      Files.writeString(
          src,
          imports
              + "class "
              + name
              + " {\n  static void run() throws Exception {\n"
              + body
              + "}\n}\n");
      ByteArrayOutputStream err = new ByteArrayOutputStream();
      int rc =
          ToolProvider.getSystemJavaCompiler()
              .run(
                  null,
                  null,
                  err,
                  "-d",
                  tmp.resolve("classes").toString(),
                  "-cp",
                  System.getProperty("java.class.path"),
                  src.toString());
      assertEquals(
          0,
          rc,
          "README block " + i + ":\n" + blocks.get(i) + err.toString(StandardCharsets.UTF_8));
    }
  }
}
