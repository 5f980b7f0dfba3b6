package dev.javelin.recipes.cli;

import dev.javelin.backend.model.ModelConfig;
import dev.javelin.recipes.config.ConfigException;
import dev.javelin.recipes.config.KeySpec;
import dev.javelin.recipes.config.RecipeConfig;
import dev.javelin.recipes.config.Recipes;
import dev.javelin.recipes.config.Settings;
import dev.javelin.recipes.driver.MemoryBudget;
import dev.javelin.recipes.driver.ModelInit;
import dev.javelin.recipes.driver.Scoring;
import dev.javelin.recipes.ray.ClusterUnreachableException;
import dev.javelin.recipes.ray.RayRuntime;
import dev.javelin.recipes.task.TaskData;
import dev.javelin.recipes.task.TaskLoader;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.function.Supplier;

/**
 * {@code javelin check <recipe> [key=value ...]}: resolves and validates a recipe with its
 * overrides as {@code run} would (keys, data files, model, reward, memory, cluster address), prints
 * what takes effect, the notes and the memory estimate, and runs nothing: no step, no worker, no
 * Ray. Exit 0 when everything checks out; 2 with one line per problem otherwise.
 */
final class CheckCommand {
  private final PrintStream out;
  private final PrintStream err;
  private final Set<String> problems = new LinkedHashSet<>(); // one line each, said once

  CheckCommand(PrintStream out, PrintStream err) {
    this.out = out;
    this.err = err;
  }

  int run(List<String> args) {
    if (args.isEmpty() || args.get(0).contains("=")) {
      throw new ConfigException("'check' needs a recipe: javelin check <recipe> [key=value ...]");
    }
    String recipeArg = args.get(0);
    List<String> overrides = Main.overrides(args.subList(1, args.size()));
    RecipeConfig recipe = Recipes.load(recipeArg, overrides); // unknown keys: all in one line
    out.println("javelin check " + recipeArg + ": the recipe and its overrides resolve");
    out.println("takes effect (values other than Javelin's defaults):");
    effective(recipe.settings()).forEach(l -> out.println("  " + l));
    recipe.notes().forEach(n -> out.println("note: " + n));
    step(() -> trainable(recipe));
    Optional<TaskData> task = step(() -> TaskLoader.load(recipe));
    task.ifPresent(
        t ->
            out.printf(
                Locale.ROOT,
                "data: %d train / %d val prompts%n",
                t.train().size(),
                t.val().size()));
    step(() -> model(recipe));
    task.ifPresent(t -> step(() -> reward(recipe, t)));
    step(() -> memory(recipe, recipeArg, overrides));
    step(
        () -> {
          RayRuntime.requireHead(recipe.trainer());
          return null;
        });
    if (problems.isEmpty()) {
      out.println("ok: nothing was run");
      return 0;
    }
    problems.forEach(p -> err.println("javelin: " + p));
    return Main.USAGE;
  }

  /** {@code key = value} for every value the recipe or an override changed from the default. */
  static List<String> effective(Settings s) {
    List<String> out = new ArrayList<>();
    s.asMap()
        .forEach(
            (k, v) -> {
              Object def = s.schema().key(k).map(KeySpec::defaultValue).orElse(null);
              if (!Objects.equals(v, def)) {
                out.add(k + " = " + v);
              }
            });
    return out;
  }

  private Object trainable(RecipeConfig recipe) {
    if (recipe.data().hasTrainData()) {
      recipe.checkTrainable();
    } else {
      out.println("training: no training data; the recipe is for javelin eval");
    }
    return null;
  }

  private Object model(RecipeConfig recipe) {
    if (Commands.needsWarmUp(recipe)) {
      out.println(
          "model: "
              + recipe.model().path()
              + " does not exist yet; run warms it up first with "
              + recipe.model().warmupRecipe());
      return null;
    }
    ModelConfig c = ModelInit.config(recipe);
    out.printf(
        Locale.ROOT,
        "model: %s, %d layers, hidden %d, %.1fM parameters%n",
        recipe.model().path() == null ? "random init" : recipe.model().path(),
        c.layers(),
        c.hidden(),
        c.parameterCount() / 1e6);
    return null;
  }

  /** Builds the scorer as a run would (a {@code .java} reward compiles here) and closes it. */
  private Object reward(RecipeConfig recipe, TaskData task) {
    new Scoring(recipe, task.tokenizer()).close();
    var spec = recipe.reward();
    String name =
        spec.path() != null
            ? spec.path()
            : spec.className() != null ? spec.className() : spec.name();
    out.println("reward: " + name + " loads");
    return null;
  }

  private Object memory(RecipeConfig recipe, String recipeArg, List<String> overrides) {
    MemoryBudget budget = HeapCommand.budget("run", recipeArg, overrides);
    if (budget == null) {
      out.println("memory: the model runs in the cluster's worker JVMs (JAVELIN_WORKER_HEAP)");
      return null;
    }
    if (Commands.needsWarmUp(recipe)) {
      out.println("warm-up " + budget.describe());
      RecipeConfig warm = Recipes.load(recipe.model().warmupRecipe(), List.of());
      budget = MemoryBudget.of(ModelInit.config(warm), recipe); // GRPO on the warm-up's model
    }
    out.println(budget.describe());
    long heap = (long) HeapCommand.gigabytes("run", recipeArg, overrides) << 30;
    out.printf(
        Locale.ROOT,
        "heap: %dg from the launcher (JAVELIN_HEAP unset); process up to %.2f GiB of this"
            + " machine's %.2f GiB%n",
        heap >> 30,
        budget.processBytes(heap) / (double) (1L << 30),
        MemoryBudget.machineBytes() / (double) (1L << 30));
    budget.check(heap);
    return null;
  }

  /** Runs one check; a bad-input failure becomes a problem line and the others still run. */
  private <T> Optional<T> step(Supplier<T> check) {
    try {
      return Optional.ofNullable(check.get());
    } catch (ClusterUnreachableException e) {
      problems.add(e.getMessage());
    } catch (RuntimeException e) {
      problems.add(BadInput.message(BadInput.in(e).orElseThrow(() -> e)));
    }
    return Optional.empty();
  }
}
