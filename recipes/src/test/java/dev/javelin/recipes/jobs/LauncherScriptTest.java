package dev.javelin.recipes.jobs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Runs the job launcher in Ray's node layout with a fake {@code java} that prints its command. */
class LauncherScriptTest {
  @TempDir Path tmp;

  private record Result(int code, String output) {}

  private Result launch(Map<String, String> env, String... args)
      throws IOException, InterruptedException {
    return launchUnder(List.of(), env, args);
  }

  /** Runs the launcher as a child of {@code parent} (a command that runs its arguments). */
  private Result launchUnder(List<String> parent, Map<String, String> env, String... args)
      throws IOException, InterruptedException {
    Path res = tmp.resolve("session/runtime_resources");
    Path wd = Files.createDirectories(res.resolve("working_dir_files/_ray_pkg_wd/bin"));
    Files.writeString(wd.resolve("javelin-job.sh"), LauncherScript.TEXT);
    Files.createDirectories(res.resolve("java_jars_files/_ray_pkg_aa"));
    Files.createDirectories(res.resolve("java_jars_files/_ray_pkg_bb"));
    Files.createDirectories(wd.resolveSibling("recipe"));
    Files.writeString(wd.resolveSibling("recipe/my.yaml"), "trainer: {}\n");
    Path bin = Files.createDirectories(tmp.resolve("fakebin"));
    Path java =
        Files.writeString(
            bin.resolve("java"), "#!/bin/sh\necho \"java $*\"\necho \"cwd $(pwd)\"\n");
    assertTrue(java.toFile().setExecutable(true));
    List<String> cmd = new java.util.ArrayList<>(parent);
    cmd.addAll(List.of("sh", "bin/javelin-job.sh"));
    cmd.addAll(List.of(args));
    ProcessBuilder pb = new ProcessBuilder(cmd).directory(wd.getParent().toFile());
    pb.redirectErrorStream(true);
    pb.environment().remove("RAY_RAYLET_PID");
    pb.environment().put("PATH", bin + ":" + pb.environment().get("PATH"));
    pb.environment().putAll(env);
    Process p = pb.start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    return new Result(p.waitFor(), out);
  }

  @Test
  void runsTheUsersMainClassWhenTheJobNamesOne() throws Exception {
    Path rayJar = Files.writeString(tmp.resolve("ray_dist.jar"), "r");
    Result r =
        launch(
            Map.of(
                "JAVELIN_JOB_JARS",
                "_ray_pkg_aa",
                "JAVELIN_RAY_JAR",
                rayJar.toString(),
                UserMainJob.MAIN_ENV,
                "com.me.MyJob"),
            "out/dir",
            "--steps=2");
    assertEquals(0, r.code(), r.output());
    assertTrue(r.output().contains("/_ray_pkg_aa/* com.me.MyJob out/dir --steps=2"), r.output());
    assertTrue(r.output().contains("--add-opens java.base/java.lang=ALL-UNNAMED"), r.output());
  }

  @Test
  void runsMainWithRaysJarFirstThenEveryJobPackage() throws Exception {
    Path rayJar = Files.writeString(tmp.resolve("ray_dist.jar"), "r");
    Result r =
        launch(
            Map.of(
                "JAVELIN_JOB_JARS",
                "_ray_pkg_aa _ray_pkg_bb",
                "JAVELIN_RAY_JAR",
                rayJar.toString()),
            "run",
            "recipe/my.yaml",
            "trainer.ray=cluster");
    assertEquals(0, r.code(), r.output());
    Path jars = tmp.resolve("session/runtime_resources/java_jars_files").toRealPath();
    Path wd = tmp.resolve("session/runtime_resources/working_dir_files/_ray_pkg_wd").toRealPath();
    assertTrue(
        r.output()
            .contains(
                "-cp "
                    + rayJar
                    + ":"
                    + jars
                    + "/_ray_pkg_aa/*:"
                    + jars
                    + "/_ray_pkg_bb/*"
                    + " dev.javelin.recipes.cli.Main run "
                    + wd
                    + "/recipe/my.yaml"
                    + " trainer.ray=cluster"),
        r.output());
    assertTrue(r.output().contains("--add-opens java.base/java.lang=ALL-UNNAMED"), r.output());
    assertTrue(
        r.output()
            .contains(
                "cwd "
                    + tmp.resolve("session/runtime_resources/working_dir_files/_ray_pkg_wd")
                        .toRealPath()),
        r.output());
    assertTrue(r.output().contains("-Xmx4g"), r.output());
  }

  @Test
  void runsInTheSubmittersDirectoryWithTheShippedRecipeByAbsolutePath() throws Exception {
    Path rayJar = Files.writeString(tmp.resolve("ray_dist.jar"), "r");
    Path home = Files.createDirectories(tmp.resolve("checkout"));
    Result r =
        launch(
            Map.of(
                "JAVELIN_JOB_JARS", "_ray_pkg_aa",
                "JAVELIN_RAY_JAR", rayJar.toString(),
                "JAVELIN_JOB_CWD", home.toString()),
            "run",
            "recipe/my.yaml",
            "a=it's recipe/x");
    assertEquals(0, r.code(), r.output());
    Path wd = tmp.resolve("session/runtime_resources/working_dir_files/_ray_pkg_wd").toRealPath();
    assertTrue(
        r.output().contains("Main run " + wd + "/recipe/my.yaml a=it's recipe/x\n"), r.output());
    assertTrue(r.output().contains("cwd " + home.toRealPath()), r.output());
    Result elsewhere =
        launch(
            Map.of(
                "JAVELIN_JOB_JARS", "_ray_pkg_aa",
                "JAVELIN_RAY_JAR", rayJar.toString(),
                "JAVELIN_JOB_CWD", "/no/such/dir"),
            "run");
    assertEquals(0, elsewhere.code(), elsewhere.output());
    assertTrue(elsewhere.output().contains("/no/such/dir is not on this node"), elsewhere.output());
    assertTrue(elsewhere.output().contains("cwd " + wd), elsewhere.output());
  }

  @Test
  void saysWhatIsMissing() throws Exception {
    Path rayJar = Files.writeString(tmp.resolve("ray_dist.jar"), "r");
    Result noPkg =
        launch(
            Map.of("JAVELIN_JOB_JARS", "_ray_pkg_zz", "JAVELIN_RAY_JAR", rayJar.toString()), "run");
    assertEquals(1, noPkg.code());
    assertTrue(
        noPkg.output().contains("java_jars package _ray_pkg_zz is not unpacked"), noPkg.output());
    Result noRay = launch(Map.of("JAVELIN_JOB_JARS", "_ray_pkg_aa"), "run");
    assertEquals(1, noRay.code());
    assertTrue(noRay.output().contains("cannot find Ray's ray_dist.jar"), noRay.output());
  }

  @Test
  void takesTheJarOfTheRayPackageWhoseWorkerStartedTheJob() throws Exception {
    // Ray's job supervisor is a Python worker running <ray package>/_private/workers/
    // default_worker.py; a stand-in shell script at that path stays the launcher's parent.
    Path workers = Files.createDirectories(tmp.resolve("site/ray/_private/workers"));
    Path worker = Files.writeString(workers.resolve("default_worker.py"), "\"$@\"\nexit $?\n");
    Path rayJar = Files.createDirectories(tmp.resolve("site/ray/jars")).resolve("ray_dist.jar");
    Files.writeString(rayJar, "r");
    Result r =
        launchUnder(
            List.of("sh", worker.toString()), Map.of("JAVELIN_JOB_JARS", "_ray_pkg_aa"), "run");
    assertEquals(0, r.code(), r.output());
    assertTrue(r.output().contains("-cp " + rayJar + ":"), r.output());
  }
}
