package dev.javelin.recipes.cli;

import dev.javelin.recipes.config.ConfigException;
import dev.javelin.recipes.config.Recipes;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code javelin run|eval|sft <recipe> [key=value ...] [--samplers N]}: the command line. A bad
 * recipe stops with exit code 2 and a message naming the key; anything else that fails exits 1.
 */
public final class Main {
  private static final String USAGE =
      """
      usage: javelin <command> <recipe> [key=value ...] [--samplers N]
        run  <recipe>               GRPO training (runs the recipe's SFT warm-up first if needed)
        eval <recipe|checkpoint>    validation only (a checkpoint dir reads its run's recipe.yaml)
        sft  <recipe>               cross-entropy warm-up on the dataset's reference answers
        recipes                     list the bundled recipes
      A recipe is a YAML file, or a bundled name such as recipes/arith-grpo.yaml.
      """;

  private Main() {}

  public static void main(String[] args) {
    int code;
    try {
      code = run(args, System.out, System.err);
    } catch (RuntimeException | Error e) {
      // Exit explicitly: Ray's non-daemon threads would otherwise keep a failed run's JVM alive.
      e.printStackTrace();
      code = 1;
    }
    System.exit(code);
  }

  /** Runs a command; returns the exit code. */
  public static int run(String[] args, PrintStream out, PrintStream err) {
    if (args.length == 0 || args[0].equals("-h") || args[0].equals("--help")) {
      out.print(USAGE);
      return args.length == 0 ? 2 : 0;
    }
    if (args[0].equals("recipes")) {
      Recipes.bundled().forEach(r -> out.println(Recipes.BUNDLED_DIR + r + ".yaml"));
      return 0;
    }
    try {
      if (args.length < 2) {
        throw new ConfigException("'" + args[0] + "' needs a recipe\n" + USAGE);
      }
      List<String> overrides = overrides(args);
      Commands commands = new Commands(out);
      switch (args[0]) {
        case "run" -> commands.run(args[1], overrides);
        case "sft" -> commands.sft(args[1], overrides);
        case "eval" -> commands.eval(args[1], overrides);
        default ->
            throw new ConfigException(
                "unknown command '" + args[0] + "' (use run, eval, sft or recipes)");
      }
      return 0;
    } catch (ConfigException e) {
      err.println("javelin: " + e.getMessage());
      return 2;
    }
  }

  /** The {@code key=value} arguments after the recipe, with {@code --samplers N} as a key. */
  static List<String> overrides(String[] args) {
    List<String> out = new ArrayList<>();
    for (int i = 2; i < args.length; i++) {
      String a = args[i];
      if (a.equals("--samplers")) {
        if (i + 1 >= args.length) {
          throw new ConfigException("--samplers needs a number");
        }
        out.add("trainer.samplers=" + args[++i]);
      } else if (a.startsWith("--samplers=")) {
        out.add("trainer.samplers=" + a.substring("--samplers=".length()));
      } else if (a.startsWith("--")) {
        throw new ConfigException("unknown option " + a + " (only --samplers N)");
      } else {
        out.add(a);
      }
    }
    return out;
  }
}
