package dev.javelin.tests.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.javelin.recipes.jobs.JobsClient;
import dev.javelin.tests.cluster.JobSubmitClusterIT.Cli;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code javelin submit --jar my-job.jar --main com.me.MyJob}: the user's own main, built against
 * the API with a lambda reward, is the job's driver on the head; its trainer and samplers are
 * cluster workers.
 */
class SubmitJarClusterIT {
  private static final String MY_JOB =
      """
      package com.me;

      import dev.javelin.recipes.api.GrpoRun;
      import dev.javelin.recipes.api.RunResult;
      import dev.javelin.recipes.api.RunSpec;
      import java.util.List;

      public final class MyJob {
        public static void main(String[] args) {
          try {
            RunResult r =
                GrpoRun.run(
                    RunSpec.fromRecipe("arith-grpo")
                        .overrides(List.of(args))
                        .reward("non-empty", in -> in.response().isBlank() ? 0.0 : 1.0)
                        .build());
            System.out.println("my job ended at step " + r.summary().lastStep()
                + ", checkpoint " + r.finalCheckpoint().orElseThrow());
          } finally {
            GrpoRun.shutdown();
          }
        }
      }
      """;

  @Test
  void theUsersMainRunsAsTheJobsDriver(@TempDir Path tmp) throws Exception {
    Path jar = userJar(tmp);
    Path dir = tmp.resolve("run");
    List<String> a =
        new ArrayList<>(
            List.of(
                "submit",
                "--address",
                ClusterRuns.dashboard(),
                "--jar",
                jar.toString(),
                "--main",
                "com.me.MyJob"));
    a.addAll(ClusterRuns.shape(dir, 2, 32, 1, 3, "trainer.samplers=1"));
    Cli run = JobSubmitClusterIT.javelin(a);
    assertEquals(0, run.code(), run.all());
    assertTrue(
        run.out().contains("my job ended at step 2, checkpoint " + dir.resolve("global_step_2")),
        run.out());
    String id = JobSubmitClusterIT.submittedId(run);
    JobsClient client = new JobsClient(ClusterRuns.dashboard(), Duration.ofSeconds(10));
    assertTrue(client.info(id).entrypoint().startsWith("sh bin/javelin-job.sh"), "the launcher");
    // RAY_ADDRESS, set by Ray in the job, put the spec's trainer and samplers on the cluster
    String recipe = Files.readString(dir.resolve("recipe.yaml"));
    assertTrue(recipe.contains("trainer.ray: cluster"), recipe);

    Cli missing =
        JobSubmitClusterIT.javelin(
            List.of(
                "submit",
                "--address",
                ClusterRuns.dashboard(),
                "--jar",
                jar.toString(),
                "--main",
                "com.me.MyJb"));
    assertEquals(2, missing.code(), missing.all());
    assertTrue(
        missing.err().contains("no such class in " + jar + " (classes there: [com.me.MyJob])"),
        missing.err());
  }

  /** my-job.jar: MyJob compiled against this JVM's class path (Javelin's API). */
  private static Path userJar(Path tmp) throws IOException {
    Path src = Files.createDirectories(tmp.resolve("src/com/me")).resolve("MyJob.java");
    Files.writeString(src, MY_JOB);
    Path classes = Files.createDirectories(tmp.resolve("classes"));
    JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
    int rc =
        javac.run(
            null,
            null,
            null,
            "-d",
            classes.toString(),
            "-cp",
            System.getProperty("java.class.path"),
            src.toString());
    assertEquals(0, rc, "MyJob.java compiles against the API");
    Path jar = tmp.resolve("my-job.jar");
    try (OutputStream os = Files.newOutputStream(jar);
        JarOutputStream out = new JarOutputStream(os)) {
      out.putNextEntry(new JarEntry("com/me/MyJob.class"));
      out.write(Files.readAllBytes(classes.resolve("com/me/MyJob.class")));
      out.closeEntry();
    }
    return jar;
  }
}
