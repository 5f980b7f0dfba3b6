package dev.javelin.recipes.cli;

import dev.javelin.recipes.config.RecipeConfig;
import dev.javelin.recipes.config.Recipes;
import dev.javelin.recipes.config.TrainerSection.RayMode;
import dev.javelin.recipes.driver.MemoryBudget;
import dev.javelin.recipes.driver.ModelInit;
import java.io.PrintStream;
import java.util.List;

/**
 * {@code javelin heap <run|sft|eval> <recipe> [key=value ...]}: prints the heap (e.g. {@code 9g})
 * the launcher gives that command when JAVELIN_HEAP is unset: the memory estimate the command
 * checks before its first step, with its headroom, and never less than {@link #DEFAULT_GB}. It is
 * capped at {@link #RAM_SHARE} of this machine's memory and so that the heap plus the memory the
 * estimate counts outside it stays under the machine's ({@link MemoryBudget#maxHeapOn}); the
 * command's own check refuses a run that cannot fit, naming the knobs. Any error prints the
 * default: the command itself reports it.
 */
final class HeapCommand {
  /** The heap when the estimate asks for less (what a tiny recipe needs with room to spare). */
  static final int DEFAULT_GB = 4;

  /** The share of physical memory the launcher gives a JVM at most. */
  static final double RAM_SHARE = 0.8;

  private final PrintStream out;

  HeapCommand(PrintStream out) {
    this.out = out;
  }

  int run(List<String> args) {
    int gb = DEFAULT_GB;
    if (args.size() >= 2) {
      try {
        gb = gigabytes(args.get(0), args.get(1), Main.overrides(args.subList(2, args.size())));
      } catch (RuntimeException e) {
        // bad recipe, missing model, ...: the command run next says what is wrong
      }
    }
    out.println(gb + "g");
    return 0;
  }

  /** The heap in GiB for {@code command} on {@code recipeArg}. */
  static int gigabytes(String command, String recipeArg, List<String> overrides) {
    MemoryBudget budget = budget(command, recipeArg, overrides);
    if (budget == null) {
      return DEFAULT_GB;
    }
    long wanted = (budget.wantedHeap() + (1L << 30) - 1) >> 30;
    long machine = MemoryBudget.machineBytes();
    // the heap, its collector tables and the memory outside it must fit the machine
    long cap = Math.min((long) (machine * RAM_SHARE), budget.maxHeapOn(machine)) >> 30;
    return (int) Math.max(DEFAULT_GB, Math.min(wanted, cap));
  }

  /** What the command checks before its first step; null when no model runs in this JVM. */
  static MemoryBudget budget(String command, String recipeArg, List<String> overrides) {
    RecipeConfig recipe =
        command.equals("eval")
            ? new Commands(new PrintStream(PrintStream.nullOutputStream()))
                .evalRecipe(recipeArg, overrides)
            : Recipes.load(recipeArg, overrides);
    if (recipe.trainer().ray() == RayMode.CLUSTER) {
      return null; // the model lives in worker JVMs sized by the cluster
    }
    return switch (command) {
      case "eval" -> {
        // the prompts are not loaded here: data.val_max_samples, else as many as a sampler takes
        int prompts = recipe.data().valMaxSamples();
        yield MemoryBudget.forEval(
            ModelInit.config(recipe),
            recipe,
            prompts > 0 ? prompts : recipe.rollout().maxNumSeqs());
      }
      case "run" -> {
        if (Commands.needsWarmUp(recipe)) {
          RecipeConfig warm = Recipes.load(recipe.model().warmupRecipe(), List.of());
          yield MemoryBudget.of(ModelInit.config(warm), warm);
        }
        yield MemoryBudget.of(ModelInit.config(recipe), recipe);
      }
      default -> MemoryBudget.of(ModelInit.config(recipe), recipe);
    };
  }
}
