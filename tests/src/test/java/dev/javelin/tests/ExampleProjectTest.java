package dev.javelin.tests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.javelin.recipes.ray.JvmOpens;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * examples/grpo-job as a user builds it: Javelin installed with {@code ./mvnw -DskipTests install}
 * into a private repository (which must not run the test suite's setup scripts), then the example's
 * own pom compiles it against the installed artifacts and runs its 2-step GRPO job.
 */
class ExampleProjectTest {
  private static final Path ROOT =
      Path.of(System.getProperty("javelin.root", "..")).toAbsolutePath();
  private static final Path EXAMPLE = ROOT.resolve("examples/grpo-job");

  @Test
  void theExampleBuildsAgainstTheInstalledArtifactsAndRunsTwoSteps(@TempDir Path tmp)
      throws Exception {
    Path repo = ROOT.resolve("tests/target/example-m2");
    Path fakeRoot = fakeSetupScripts(tmp.resolve("fake-root"));
    String install =
        run(
            ROOT,
            List.of(
                "install",
                "-DskipTests",
                "-Dspotless.check.skip=true",
                "-pl",
                "recipes",
                "-am",
                // where the test setup's scripts would come from, had -DskipTests not skipped them
                "-Djavelin.root=" + fakeRoot),
            repo);
    assertFalse(
        Files.exists(fakeRoot.resolve("ran")),
        "-DskipTests install ran a test-setup script: " + readOrEmpty(fakeRoot.resolve("ran")));
    assertTrue(
        Files.isRegularFile(
            repo.resolve(
                "dev/javelin/javelin-recipes/0.1.0-SNAPSHOT/javelin-recipes-0.1.0-SNAPSHOT.jar")),
        install);

    Path out = tmp.resolve("sums-run");
    String job =
        run(EXAMPLE, List.of("-f", "pom.xml", "compile", "exec:exec", "-Dsums.out=" + out), repo);
    assertTrue(job.contains("step 2/2: reward"), job);
    Matcher m = Pattern.compile("final checkpoint: (\\S+)").matcher(job);
    assertTrue(m.find(), job);
    assertEquals(out.resolve("global_step_2"), Path.of(m.group(1)));
    assertTrue(Files.isRegularFile(out.resolve("metrics.jsonl")), job);
  }

  @Test
  void theExamplesJvmFlagsAreTheOnesRayNeeds() throws IOException {
    String pom = Files.readString(EXAMPLE.resolve("pom.xml"));
    assertTrue(pom.contains("<ray.opens>" + JvmOpens.inline() + "</ray.opens>"), pom);
    assertTrue(pom.contains("<Add-Opens>" + JvmOpens.manifestValue() + "</Add-Opens>"), pom);
  }

  /** Setup scripts that only record that they ran. */
  private static Path fakeSetupScripts(Path root) throws IOException {
    Path setup = Files.createDirectories(root.resolve("tools/setup"));
    for (String s : List.of("venv.sh", "pjrt-shim.sh", "npm-tokenizers.sh", "ray-cluster.sh")) {
      Files.writeString(
          setup.resolve(s), "echo " + s + " \"$@\" >> '" + root.resolve("ran") + "'\n");
    }
    return root;
  }

  /** Runs the repository's Maven wrapper in {@code dir} with a private local repository. */
  private static String run(Path dir, List<String> args, Path repo) throws Exception {
    List<String> cmd = new ArrayList<>(List.of(ROOT.resolve("mvnw").toString(), "-B"));
    cmd.add("-Dmaven.repo.local=" + repo);
    String tail = System.getProperty("javelin.localRepository", "");
    if (!tail.isBlank()) {
      cmd.add("-Dmaven.repo.local.tail=" + tail);
    }
    cmd.addAll(args);
    Path log = Files.createTempFile("example-build", ".log");
    Process p =
        new ProcessBuilder(cmd)
            .directory(dir.toFile())
            .redirectErrorStream(true)
            .redirectOutput(log.toFile())
            .start();
    boolean done = p.waitFor(8, TimeUnit.MINUTES);
    if (!done) {
      p.destroyForcibly();
    }
    String out = Files.readString(log, StandardCharsets.UTF_8);
    Files.delete(log);
    assertTrue(done, "timed out: " + cmd + "\n" + out);
    assertEquals(0, p.exitValue(), cmd + "\n" + out);
    return out;
  }

  private static String readOrEmpty(Path p) throws IOException {
    return Files.exists(p) ? Files.readString(p) : "";
  }
}
