package dev.javelin.recipes.cli;

import dev.javelin.backend.DType;
import dev.javelin.backend.batch.SequenceBatch;
import dev.javelin.backend.model.LayerLoop;
import dev.javelin.backend.model.ModelConfig;
import dev.javelin.backend.runtime.ActorPrograms;
import dev.javelin.backend.xla.AotCompiler;
import dev.javelin.backend.xla.CompiledStats;
import dev.javelin.backend.xla.PjrtException;
import dev.javelin.backend.xla.TpuTopology;
import dev.javelin.recipes.config.ChipKeys;
import dev.javelin.recipes.config.ChipPlan;
import dev.javelin.recipes.config.ConfigException;
import dev.javelin.recipes.config.MixedPrecisionKeys;
import dev.javelin.recipes.config.RecipeConfig;
import dev.javelin.recipes.config.TrainerSection;
import dev.javelin.recipes.driver.ModelInit;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * {@code javelin plan <recipe> [key=value ...] --topology v5e-8}: builds the recipe's programs at
 * its real shapes for the trainer's chips and a sampler's chips, compiles each ahead of time for
 * the TPU topology with libtpu (no TPU needed, {@link AotCompiler}), and prints per actor what
 * every program needs per chip against the chip's HBM ({@link PlanTable}). Exit {@value
 * #DOES_NOT_FIT} when a program does not fit, 0 when all do.
 */
final class PlanCommand {
  /** Exit code of a recipe whose programs do not fit the topology's HBM. */
  static final int DOES_NOT_FIT = 4;

  /** Where {@code javelin run --device tpu} reads the host's slice when no --topology is given. */
  static final String ACCELERATOR_ENV = "TPU_ACCELERATOR_TYPE";

  /** A recipe whose programs do not fit: {@link Main} exits {@link #DOES_NOT_FIT}. */
  static final class DoesNotFit extends RuntimeException {
    DoesNotFit(String message) {
      super(message);
    }
  }

  /** One actor's programs: the trainer, or one sampler standing for all of them. */
  record Actor(String name, int chips, List<ActorPrograms.Planned> programs) {}

  private final PrintStream out;

  PlanCommand(PrintStream out) {
    this.out = out;
  }

  int run(List<String> args) {
    List<String> rest = new ArrayList<>();
    String topology = null;
    Path dump = null;
    for (int i = 0; i < args.size(); i++) {
      String a = args.get(i);
      if ((a.equals("--topology") || a.equals("--dump")) && i + 1 == args.size()) {
        throw new ConfigException(
            "'" + a + "' needs a value: javelin plan <recipe> --topology v5e-8 [--dump DIR]");
      }
      if (a.equals("--topology") && i + 1 < args.size()) {
        topology = args.get(++i);
      } else if (a.startsWith("--topology=")) {
        topology = a.substring("--topology=".length());
      } else if (a.equals("--dump") && i + 1 < args.size()) {
        dump = Path.of(args.get(++i));
      } else {
        rest.add(a);
      }
    }
    if (topology == null || rest.isEmpty()) {
      throw new ConfigException(
          "'plan' needs a recipe and a topology: javelin plan <recipe> [key=value ...]"
              + " --topology v5e-8");
    }
    TpuTopology t = parseTopology(topology);
    RecipeConfig recipe = load(rest.get(0), Main.overrides(rest.subList(1, rest.size())), t);
    boolean scanByDefault = System.getProperty(LayerLoop.PROPERTY) == null;
    if (scanByDefault) { // unrolled, a real-size train step takes minutes to hours to compile
      System.setProperty(LayerLoop.PROPERTY, "scanned");
      out.println(
          "plan: layers scanned (plan's default; -D"
              + LayerLoop.PROPERTY
              + "=unrolled plans the unrolled programs, which runs use unless it is set)");
    }
    try {
      return check(recipe, t, out, Optional.ofNullable(dump)) ? 0 : DOES_NOT_FIT;
    } finally {
      if (scanByDefault) {
        System.clearProperty(LayerLoop.PROPERTY);
      }
    }
  }

  /**
   * Before {@code javelin run --device tpu}: the same check on the host's slice ({@value
   * #ACCELERATOR_ENV}, set on Cloud TPU VMs); throws {@link DoesNotFit} when a program does not
   * fit. Other devices, or no known slice, skip it with a line saying so.
   */
  static void beforeRun(RecipeConfig recipe, Map<String, String> env, PrintStream out) {
    if (!recipe.settings().getString(TrainerSection.DEVICE).equals("tpu")) {
      return;
    }
    String slice = env.get(ACCELERATOR_ENV);
    if (slice == null || slice.isBlank()) {
      out.println("plan: " + ACCELERATOR_ENV + " unset, HBM check skipped (javelin plan does it)");
      return;
    }
    if (!check(recipe, parseTopology(slice), out, Optional.empty())) {
      throw new DoesNotFit("the recipe's programs do not fit " + slice + " (see the plan above)");
    }
  }

  /**
   * Compiles and prints every actor's programs, first writing each one's StableHLO into {@code
   * dump} where given ({@code <actor>-<program>.mlir}, what {@code tools/tpu_stablehlo_stats.py}
   * compiles through JAX); true when all fit.
   */
  static boolean check(
      RecipeConfig recipe, TpuTopology topology, PrintStream out, Optional<Path> dump) {
    ModelConfig c = ModelInit.config(recipe);
    ChipPlan chips = recipe.chips();
    chips.checkModel(c);
    if (chips.totalChips() > topology.chips()) {
      throw new ConfigException(
          "the recipe's actors need "
              + chips.totalChips()
              + " chips (trainer "
              + chips.trainer().chips()
              + ", "
              + chips.samplers()
              + " samplers x "
              + chips.rolloutTp()
              + "), "
              + topology.name()
              + " has "
              + topology.chips()
              + "; lower "
              + ChipKeys.TRAINER_CHIPS.name()
              + ", "
              + TrainerSection.SAMPLERS.name()
              + " or "
              + ChipKeys.ROLLOUT_TP.name());
    }
    List<Actor> actors = actors(recipe, c, chips);
    PlanTable table = new PlanTable(topology, recipe, c);
    try (AotCompiler aot = open(topology)) {
      out.printf(
          "javelin plan: %s on %s (%s, %d chips; compiled by libtpu here, nothing run)%n",
          modelName(recipe), topology.name(), aot.deviceKind(), topology.chips());
      for (Actor a : actors) {
        List<PlanTable.Compiled> stats = new ArrayList<>();
        for (ActorPrograms.Planned p : a.programs()) {
          try {
            dump.ifPresent(dir -> write(dir, a, p));
            stats.add(compile(aot, a, p));
          } catch (RuntimeException e) {
            // What compiled before stays worth reading: a long plan must not lose it.
            if (!stats.isEmpty()) {
              table.add(a, stats);
            }
            table.printPartial(out);
            out.printf(
                "plan: %s %s did not compile; the rows above compiled before it%n",
                a.name(), p.label());
            throw e;
          }
        }
        table.add(a, stats);
      }
    }
    table.print(out);
    return table.fits();
  }

  private static void write(Path dir, Actor a, ActorPrograms.Planned p) {
    String actor = a.name().split(" ", 2)[0]; // "sampler (each of N)": one file stands for all
    Path file = dir.resolve((actor + "-" + p.label()).replaceAll("[^A-Za-z0-9_.-]", "_") + ".mlir");
    try {
      Files.createDirectories(dir);
      Files.writeString(file, AotCompiler.moduleText(p.program(), p.donation()));
    } catch (IOException e) {
      throw new ConfigException("plan: cannot write " + file + " (--dump): " + e.getMessage());
    }
  }

  /** libtpu missing, or a topology it does not know: one line, exit 2, not a stack trace. */
  private static AotCompiler open(TpuTopology topology) {
    try {
      return AotCompiler.open(topology);
    } catch (IllegalStateException | IllegalArgumentException | PjrtException e) {
      throw new ConfigException("plan: " + firstLine(e));
    }
  }

  /**
   * One program. libtpu refusing it for lack of HBM is a row that does not fit (its temporaries as
   * libtpu reported them); any other refusal is one line naming the program, the topology and
   * libtpu's.
   */
  private static PlanTable.Compiled compile(AotCompiler aot, Actor a, ActorPrograms.Planned p) {
    long start = System.nanoTime();
    try {
      return new PlanTable.Compiled(aot.compile(p.program(), p.donation()), false);
    } catch (PjrtException e) {
      double seconds = (System.nanoTime() - start) / 1e9;
      return HbmRefusal.tempBytes(e)
          .map(
              temps ->
                  new PlanTable.Compiled(
                      new CompiledStats(0, 0, 0, temps, 0, Double.NaN, Double.NaN, seconds), true))
          .orElseThrow(() -> compileFailure(a, p.label(), aot.topology(), e));
    }
  }

  static ConfigException compileFailure(
      Actor a, String program, TpuTopology topology, PjrtException e) {
    return new ConfigException(
        "plan: libtpu cannot compile the "
            + a.name()
            + "'s '"
            + program
            + "' program ("
            + a.chips()
            + " chips) for "
            + topology.name()
            + " ("
            + topology.pjrtName()
            + "): "
            + firstLine(e));
  }

  private static String firstLine(RuntimeException e) {
    String m = String.valueOf(e.getMessage()).strip();
    int nl = m.indexOf('\n');
    return nl < 0 ? m : m.substring(0, nl).strip();
  }

  /** The trainer at its micro-batch and a sampler at its rows, at the recipe's lengths. */
  static List<Actor> actors(RecipeConfig recipe, ModelConfig c, ChipPlan chips) {
    int positions =
        Math.min(
            recipe.data().maxPromptLength() + recipe.data().maxResponseLength(), c.maxPositions());
    int t = SequenceBatch.lengthBucket(c, positions);
    int micro = recipe.actor().ppoMicroBatchSize();
    int rows = micro > 0 ? micro : recipe.actor().ppoMiniBatchSize() * recipe.rollout().n();
    DType compute = MixedPrecisionKeys.computeDType(recipe.settings());
    List<Actor> out = new ArrayList<>();
    out.add(
        new Actor(
            "trainer",
            chips.trainer().chips(),
            ActorPrograms.trainer(
                c,
                chips.trainer(),
                rows,
                t,
                recipe.model().remat(),
                compute,
                recipe.actor().optimizer())));
    if (chips.samplers() > 0) {
      int requests =
          Math.max(1, recipe.data().trainBatchSize() * recipe.rollout().n() / chips.samplers());
      int slots = Math.min(recipe.rollout().maxNumSeqs(), powerOfTwoAtLeast(requests));
      int prompt = Math.min(recipe.data().maxPromptLength(), positions);
      out.add(
          new Actor(
              "sampler (each of " + chips.samplers() + ")",
              chips.rolloutTp(),
              ActorPrograms.sampler(
                  c, chips.rolloutTp(), slots, prompt, positions, recipe.rollout().dtype())));
    }
    return out;
  }

  private static int powerOfTwoAtLeast(int n) {
    int h = Integer.highestOneBit(n);
    return h == n ? n : h << 1;
  }

  private RecipeConfig load(String recipeArg, List<String> overrides, TpuTopology topology) {
    List<String> all = new ArrayList<>(overrides);
    // plan is for TPUs: the recipe's chip keys and dtypes as a tpu run resolves them
    all.add(0, TrainerSection.DEVICE.name() + "=tpu");
    return PlanHosts.load(recipeArg, all, topology, out);
  }

  private static TpuTopology parseTopology(String name) {
    try {
      return TpuTopology.parse(name);
    } catch (IllegalArgumentException e) {
      throw new ConfigException(e.getMessage());
    }
  }

  private static String modelName(RecipeConfig recipe) {
    return Optional.ofNullable(recipe.model().path()).orElse("the recipe's init model");
  }
}
