package dev.javelin.recipes.cli;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** A {@code javelin} command ({@link Main}) launched as a process of its own, for real signals. */
final class LaunchedMain {
  private LaunchedMain() {}

  /**
   * Starts {@code java [jvmArgs] Main args} with its output in {@code log} (its error output too
   * when {@code err} is null); under {@code sh -c 'trap "" INT; exec ...'} when {@code ignoreInt}
   * (as a script's background job starts), otherwise with SIGINT and SIGTERM at their defaults.
   */
  static Process start(List<String> jvmArgs, String[] args, boolean ignoreInt, Path log, Path err)
      throws IOException {
    List<String> cmd = new ArrayList<>();
    if (ignoreInt) {
      cmd.addAll(List.of("sh", "-c", "trap '' INT; exec \"$@\"", "sh"));
    } else { // as from a terminal, even when this JVM was started with SIGINT ignored
      cmd.addAll(List.of("env", "--default-signal=INT,TERM"));
    }
    cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    cmd.add("@src/main/resources/dev/javelin/recipes/add-opens.args");
    cmd.addAll(jvmArgs);
    cmd.addAll(List.of("-cp", System.getProperty("java.class.path"), Main.class.getName()));
    cmd.addAll(List.of(args));
    ProcessBuilder pb = new ProcessBuilder(cmd).redirectOutput(log.toFile());
    return (err == null ? pb.redirectErrorStream(true) : pb.redirectError(err.toFile())).start();
  }
}
