package dev.javelin.recipes.api;

import dev.javelin.recipes.config.RecipeConfig;
import dev.javelin.recipes.driver.GangRestarts;
import dev.javelin.recipes.driver.ResumeCheck;
import dev.javelin.recipes.driver.RunCheckpoints;
import dev.javelin.recipes.driver.RunLoop;
import dev.javelin.recipes.driver.RunSummary;
import dev.javelin.recipes.driver.StepListener;
import dev.javelin.recipes.driver.StopSignal;
import dev.javelin.recipes.ray.JvmOpens;
import dev.javelin.recipes.ray.RunRegistryReporter;
import dev.javelin.recipes.task.TaskData;
import dev.javelin.recipes.task.TaskLoader;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.Locale;

/** The steps of one GRPO run: data → checks → run dir → workers and loop → report. */
final class GrpoLauncher {
  private GrpoLauncher() {}

  static RunSummary run(RunSpec spec, StopSignal stop, StepListener progress) {
    RecipeConfig recipe = spec.recipe();
    PrintStream out = spec.console();
    recipe.notes().forEach(out::println);
    recipe.checkTrainable();
    JvmOpens.requireOpen();
    TaskData task = TaskLoader.load(recipe);
    int total =
        RunLoop.totalSteps(recipe, task, "prompts", " (see the warnings above for skipped rows)");
    RunCheckpoints.refuseToOverwrite(recipe);
    ResumeCheck.refuseForeignModel(recipe);
    Path dir = RunLoop.prepareRunDir(recipe);
    out.printf(
        Locale.ROOT,
        "javelin run %s: %d train / %d val prompts, %d steps, %d samplers, run dir %s%n",
        spec.label(),
        task.train().size(),
        task.val().size(),
        total,
        recipe.trainer().samplers(),
        dir);
    RunLoop loop = new RunLoop(out, spec.env());
    return loop.run(
        recipe,
        task,
        spec.reward(),
        total,
        dir,
        0,
        stop,
        (parts, s, toLoggers) -> {
          boolean endedWell = false;
          try {
            RunSummary summary =
                GangRestarts.run(
                    parts,
                    out,
                    driver ->
                        RunRegistryReporter.forRun(recipe)
                            .run(driver.addListener(toLoggers).addListener(progress), s));
            endedWell = true;
            return summary;
          } finally {
            loop.writeReport(dir, endedWell); // also for a failed run: its curves up to the failure
          }
        });
  }
}
