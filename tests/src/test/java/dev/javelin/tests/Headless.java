package dev.javelin.tests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** Headless Chromium for the report test (installed by tools/setup/chromium.sh). */
final class Headless {
  record Result(String stdout, String stderr) {}

  private Headless() {}

  static Result run(Path page, String... flags) throws IOException, InterruptedException {
    List<String> cmd =
        new ArrayList<>(
            List.of(
                binary(),
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--disable-dev-shm-usage",
                "--no-first-run",
                "--enable-logging=stderr",
                "--v=0"));
    cmd.addAll(List.of(flags));
    cmd.add(page.toUri().toString());
    Path out = Files.createTempFile("chromium", ".out");
    Path err = Files.createTempFile("chromium", ".err");
    Process p =
        new ProcessBuilder(cmd).redirectOutput(out.toFile()).redirectError(err.toFile()).start();
    try {
      if (!p.waitFor(120, TimeUnit.SECONDS)) {
        fail("chromium did not finish in 120 s: " + cmd);
      }
      String stderr = read(err);
      assertEquals(0, p.exitValue(), () -> "chromium failed: " + stderr);
      return new Result(read(out), stderr);
    } finally {
      p.descendants().forEach(ProcessHandle::destroyForcibly);
      p.destroyForcibly();
      Files.deleteIfExists(out);
      Files.deleteIfExists(err);
    }
  }

  private static String read(Path p) throws IOException {
    return Files.readString(p, StandardCharsets.UTF_8);
  }

  private static String binary() {
    for (String b : List.of("/usr/bin/chromium", "/usr/bin/chromium-browser")) {
      if (Files.isExecutable(Path.of(b))) {
        return b;
      }
    }
    return fail("headless Chromium is missing: install it with `sudo apt-get install -y chromium`");
  }
}
