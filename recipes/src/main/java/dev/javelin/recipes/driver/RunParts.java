package dev.javelin.recipes.driver;

import dev.javelin.recipes.config.RecipeConfig;
import dev.javelin.recipes.metrics.ConsoleProgress;
import dev.javelin.recipes.metrics.MetricsJsonl;
import dev.javelin.recipes.task.TaskData;
import dev.javelin.trainer.Trainer;
import java.util.Objects;

/**
 * What a training loop ({@link GrpoDriver}, {@link SftRunner}) runs on: the recipe, its data, the
 * workers, scoring and where metrics go. The caller opens and closes them.
 *
 * @param console the progress bar, or null for none
 */
public record RunParts(
    RecipeConfig recipe,
    TaskData task,
    Trainer trainer,
    SamplerPool samplers,
    Scoring scoring,
    MetricsJsonl metrics,
    ConsoleProgress console) {

  public RunParts {
    Objects.requireNonNull(recipe, "recipe");
    Objects.requireNonNull(task, "task");
    Objects.requireNonNull(trainer, "trainer");
    Objects.requireNonNull(samplers, "samplers");
    Objects.requireNonNull(scoring, "scoring");
    Objects.requireNonNull(metrics, "metrics");
  }

  /** A validator of the task's held-out prompts. */
  Validator validator() {
    return new Validator(
        samplers,
        scoring,
        new RequestFactory(recipe.trainer().seed()),
        recipe,
        task.val(),
        task.stopTokenIds());
  }
}
