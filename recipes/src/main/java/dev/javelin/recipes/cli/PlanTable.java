package dev.javelin.recipes.cli;

import dev.javelin.backend.batch.HeadLogits;
import dev.javelin.backend.graph.Loops;
import dev.javelin.backend.model.CausalAttention;
import dev.javelin.backend.model.ModelConfig;
import dev.javelin.backend.runtime.ActorPrograms;
import dev.javelin.backend.xla.CompiledStats;
import dev.javelin.backend.xla.TpuChip;
import dev.javelin.backend.xla.TpuTopology;
import dev.javelin.recipes.config.ActorConfig;
import dev.javelin.recipes.config.ChipKeys;
import dev.javelin.recipes.config.DataConfig;
import dev.javelin.recipes.config.ModelSection;
import dev.javelin.recipes.config.RecipeConfig;
import dev.javelin.recipes.config.RolloutConfig;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The table {@code javelin plan} prints: per actor, each program's per-chip bytes (arguments,
 * temporaries, total against the chip's HBM), flops per run, the roofline bound on its time (flops
 * at the chip's peak, bytes accessed at its HBM bandwidth: {@link TpuChip#rooflineSeconds}) and
 * compile time; then, for a program that does not fit, by how much and which keys bring it under.
 */
final class PlanTable {
  private static final double GIB = 1024.0 * 1024 * 1024;
  private static final String ROW = "  %-10s %9s %9s %9s %9s %6s %10s %10s %8s%n";

  /**
   * One program's compile: XLA's figures, or ({@code refused}) libtpu's refusal for lack of HBM,
   * where only the temporaries are known.
   */
  record Compiled(CompiledStats stats, boolean refused) {}

  private record Row(
      PlanCommand.Actor actor, ActorPrograms.Planned program, CompiledStats s, boolean refused) {}

  private final TpuTopology topology;
  private final RecipeConfig recipe;
  private final ModelConfig model;
  private final List<List<Row>> actors = new ArrayList<>();

  PlanTable(TpuTopology topology, RecipeConfig recipe, ModelConfig model) {
    this.topology = topology;
    this.recipe = recipe;
    this.model = model;
  }

  void add(PlanCommand.Actor actor, List<Compiled> stats) {
    List<Row> rows = new ArrayList<>();
    for (int i = 0; i < stats.size(); i++) {
      Compiled c = stats.get(i);
      rows.add(new Row(actor, actor.programs().get(i), c.stats(), c.refused()));
    }
    actors.add(rows);
  }

  boolean fits() {
    return actors.stream().flatMap(List::stream).noneMatch(this::over);
  }

  private boolean over(Row r) {
    return r.refused() || r.s().totalBytes() > hbm();
  }

  void print(PrintStream out) {
    printRows(out);
    printVerdict(out);
  }

  /**
   * The rows of the programs that compiled before one failed: no verdict, the plan is unfinished.
   */
  void printPartial(PrintStream out) {
    printRows(out);
    out.println();
  }

  private void printRows(PrintStream out) {
    printHeader(out);
    for (List<Row> rows : actors) {
      printActor(out, rows);
    }
  }

  private void printHeader(PrintStream out) {
    TpuChip chip = topology.chip();
    out.printf(
        Locale.ROOT,
        "model: %d layers, hidden %d, %d heads (%d kv), vocab %d, %.1f M parameters%n",
        model.layers(),
        model.hidden(),
        model.heads(),
        model.kvHeads(),
        model.vocabSize(),
        model.parameterCount() / 1e6);
    out.printf(
        Locale.ROOT,
        "chip: %s, %.2f GiB HBM, %.0f TFLOP/s bf16, %.0f GB/s HBM (per chip)%n",
        chip.generation(),
        hbm() / GIB,
        chip.peakFlops() / 1e12,
        chip.hbmBytesPerSecond() / 1e9);
  }

  private void printActor(PrintStream out, List<Row> rows) {
    TpuChip chip = topology.chip();
    PlanCommand.Actor a = rows.get(0).actor();
    out.printf("%n%s on %d chip%s (per chip):%n", a.name(), a.chips(), a.chips() == 1 ? "" : "s");
    out.printf(
        ROW,
        "program",
        "args",
        "out-alias",
        "temps",
        "total",
        "HBM",
        "GFLOP",
        "bound ms",
        "compile");
    for (Row r : rows) {
      CompiledStats s = r.s();
      if (r.refused()) {
        printRefused(out, r);
        continue;
      }
      out.printf(
          Locale.ROOT,
          ROW,
          r.program().label(),
          gib(s.argumentBytes()),
          gib(s.outputBytes() - s.aliasBytes()),
          gib(s.tempBytes()),
          gib(s.totalBytes()),
          String.format(Locale.ROOT, "%.0f%%", 100.0 * s.totalBytes() / hbm()),
          String.format(Locale.ROOT, "%.1f", s.flops() / 1e9) + (looped(r) ? "*" : ""),
          String.format(
              Locale.ROOT, "%.2f", 1e3 * chip.rooflineSeconds(s.flops(), s.bytesAccessed())),
          String.format(Locale.ROOT, "%.1fs", s.compileSeconds()));
    }
  }

  /** libtpu's refusal: temporaries known, the rest not; the total is at least the temporaries. */
  private void printRefused(PrintStream out, Row r) {
    CompiledStats s = r.s();
    out.printf(
        Locale.ROOT,
        ROW,
        r.program().label(),
        "?",
        "?",
        gib(s.tempBytes()),
        ">" + gib(s.tempBytes()),
        String.format(Locale.ROOT, ">%.0f%%", 100.0 * s.tempBytes() / hbm()),
        "?",
        "?",
        String.format(Locale.ROOT, "%.1fs", s.compileSeconds()));
  }

  private void printVerdict(PrintStream out) {
    out.println();
    if (actors.stream().flatMap(List::stream).anyMatch(PlanTable::looped)) {
      // XLA's cost analysis counts a while body once, whatever its trip count.
      out.printf(
          "* scanned layers (-Djavelin.layers=scanned): XLA counts the layer loop's body once, so"
              + " this GFLOP and bound leave out %d of the %d layers' work%n%n",
          model.layers() - 1, model.layers());
    }
    List<Row> over = actors.stream().flatMap(List::stream).filter(this::over).toList();
    if (over.isEmpty()) {
      out.printf("fits: every program fits %s's %s HBM per chip%n", topology.name(), gib(hbm()));
    }
    for (Row r : over) {
      out.printf(
          Locale.ROOT,
          "does not fit: %s %s needs %s%s per chip, %s%s over %s's %s HBM%s%n",
          r.actor().name(),
          r.program().label(),
          r.refused() ? "more than " : "",
          gib(r.s().totalBytes()),
          r.refused() ? "more than " : "",
          gib(r.s().totalBytes() - hbm()),
          topology.chip().generation(),
          gib(hbm()),
          r.refused()
              ? " (libtpu refused to compile it: its temporaries alone exceed the HBM)"
              : "");
      advice(r).forEach(line -> out.println("  try " + line));
    }
  }

  private static boolean looped(Row r) {
    return Loops.any(r.program().program());
  }

  /** Keys that lower the program's bytes, with a linear estimate where one is meaningful. */
  private List<String> advice(Row r) {
    List<String> out = new ArrayList<>();
    CompiledStats s = r.s();
    long fixed = s.totalBytes() - s.tempBytes();
    boolean trainer = r.actor().name().equals("trainer");
    if (trainer) {
      int micro = recipe.actor().ppoMicroBatchSize();
      if (fixed < hbm() && s.tempBytes() > 0 && micro > 1) {
        // temporaries grow about linearly with the rows of a micro-batch
        long fit = (long) Math.floor(micro * (double) (hbm() - fixed) / s.tempBytes());
        out.add(
            ActorConfig.PPO_MICRO_BATCH_SIZE_PER_GPU.name()
                + "="
                + Math.max(1, fit)
                + " or less (now "
                + micro
                + "; temporaries scale with it)");
      }
      if (!recipe.model().gradientCheckpointing()) {
        out.add(ModelSection.ENABLE_GRADIENT_CHECKPOINTING.name() + "=true");
      }
      if (HeadLogits.configured() == HeadLogits.KEEP) {
        out.add(
            "-D"
                + HeadLogits.PROPERTY
                + "=recompute (the LM head's logits computed again in the backward, not held:"
                + " 4 bytes per token and vocabulary entry less)");
      }
      if (CausalAttention.configuredBlock() == 0) {
        out.add(
            "-D"
                + CausalAttention.PROPERTY
                + "=512 (blockwise attention: no (T, T) scores, memory linear in the sequence)");
      }
      out.add(
          ChipKeys.TRAINER_CHIPS.name()
              + " (more chips: weights, gradients and AdamW state split further over fsdp)"
              + " or "
              + ChipKeys.TRAINER_TP.name());
    } else {
      out.add(
          RolloutConfig.MAX_NUM_SEQS.name()
              + " (fewer decode rows: the KV cache scales with it; now "
              + recipe.rollout().maxNumSeqs()
              + ")");
      out.add(ChipKeys.ROLLOUT_TP.name() + " (heads and KV cache split over more chips)");
    }
    out.add(
        DataConfig.MAX_RESPONSE_LENGTH.name()
            + " / "
            + DataConfig.MAX_PROMPT_LENGTH.name()
            + " (shorter sequences; now "
            + recipe.data().maxResponseLength()
            + " / "
            + recipe.data().maxPromptLength()
            + ")");
    return out;
  }

  private long hbm() {
    return topology.chip().hbmBytes();
  }

  /** GiB with two decimals, MiB below one GiB (tiny models would read 0.00 GiB). */
  static String gib(long bytes) {
    if (Math.abs(bytes) < GIB) {
      return String.format(Locale.ROOT, "%.1f MiB", bytes / (GIB / 1024));
    }
    return String.format(Locale.ROOT, "%.2f GiB", bytes / GIB);
  }
}
