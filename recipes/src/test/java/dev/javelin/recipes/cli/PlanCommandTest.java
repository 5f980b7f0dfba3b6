package dev.javelin.recipes.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.javelin.backend.DType;
import dev.javelin.backend.batch.HeadLogits;
import dev.javelin.backend.model.ModelConfig;
import dev.javelin.backend.runtime.ActorPrograms;
import dev.javelin.backend.xla.AotCompiler;
import dev.javelin.backend.xla.CompiledStats;
import dev.javelin.backend.xla.PjrtException;
import dev.javelin.backend.xla.TpuTopology;
import dev.javelin.recipes.config.ChipKeys;
import dev.javelin.recipes.config.RecipeConfig;
import dev.javelin.recipes.config.Recipes;
import dev.javelin.recipes.driver.ModelInit;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code javelin plan}: the tiny model's recipe compiled for a v5e-8 with libtpu (no TPU) fits and
 * lists every program of both actors; a program over the chip's HBM is named with the keys that
 * lower it; bad input, and a program libtpu refuses, is one line and exit 2. (The figures
 * themselves are checked against JAX in tpu-backend's AotCompilerTest.)
 */
class PlanCommandTest {
  private static List<String> tinyKeys() {
    Path root = Path.of(System.getProperty("javelin.root", ".."));
    return List.of(
        "actor_rollout_ref.model.path=" + root.resolve("bench/models/tiny"),
        "actor_rollout_ref.model.model_type=qwen2",
        "data.max_prompt_length=64",
        "data.max_response_length=192",
        "trainer.n_gpus_per_node=4",
        "actor_rollout_ref.rollout.tensor_model_parallel_size=2");
  }

  private static int plan(ByteArrayOutputStream out, List<String> args) {
    PrintStream ps = new PrintStream(out, true, StandardCharsets.UTF_8);
    List<String> all = new ArrayList<>(List.of("plan", "recipes/gsm8k-grpo.yaml"));
    all.addAll(args);
    return Main.run(all.toArray(String[]::new), ps, ps);
  }

  @Test
  void tinyRecipeFitsAV5e8AndListsEveryProgram(@TempDir Path dump) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    List<String> args = new ArrayList<>(tinyKeys());
    args.addAll(List.of("--topology", "v5e-8", "--dump", dump.toString()));
    int code = plan(out, args);
    String text = out.toString(StandardCharsets.UTF_8);
    assertEquals(0, code, text);
    assertTrue(text.contains("trainer on 4 chips"), text);
    assertTrue(text.contains("sampler (each of 2) on 2 chips"), text);
    for (String program : List.of("log-probs", "train fwd", "train bwd", "adamw", "prefill")) {
      assertTrue(text.contains("  " + program + " "), program + " missing:\n" + text);
    }
    assertTrue(text.contains("fits: every program fits v5e-8"), text);
    // real-size plans scan the layers unless told otherwise, and leave the JVM as it was
    assertTrue(text.contains("plan: layers scanned (plan's default"), text);
    assertTrue(text.contains("* scanned layers"), text);
    assertNull(System.getProperty("javelin.layers"));
    // --dump: each program's StableHLO, as compiled
    for (String file : List.of("trainer-train_bwd.mlir", "sampler-decode.mlir")) {
      assertTrue(Files.readString(dump.resolve(file)).contains("func.func public @main"), file);
    }
  }

  @Test
  void aTrainerOverTwoHostsOfAV5e16CompilesOverTheirEightChips() {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    List<String> args = new ArrayList<>(tinyKeys());
    args.addAll(
        List.of(
            "data.max_prompt_length=16", // short sequences: this test is about the layout
            "data.max_response_length=16",
            "trainer.nnodes=2",
            "trainer.samplers=2",
            "actor_rollout_ref.rollout.tensor_model_parallel_size=4",
            "--topology",
            "v5e-16"));
    int code = plan(out, args);
    String text = out.toString(StandardCharsets.UTF_8);
    assertEquals(0, code, text);
    assertTrue(text.contains("plan: trainer over 2 of v5e-16's 4 hosts"), text);
    assertTrue(text.contains("trainer on 8 chips"), text);
    assertTrue(text.contains("sampler (each of 2) on 4 chips"), text);
    assertTrue(text.contains("fits: every program fits v5e-16"), text);

    ByteArrayOutputStream wide = new ByteArrayOutputStream();
    List<String> tooWide = new ArrayList<>(tinyKeys());
    tooWide.addAll(
        List.of("trainer.nnodes=2", "trainer.n_gpus_per_node=8", "--topology", "v5e-16"));
    assertEquals(2, plan(wide, tooWide));
    String refused = wide.toString(StandardCharsets.UTF_8);
    assertTrue(refused.contains("4 hosts of 4 chips"), refused);
  }

  @Test
  void aProgramOverHbmIsNamedWithTheKeysThatLowerIt() {
    List<String> keys = new ArrayList<>(tinyKeys());
    keys.add("trainer.device=tpu"); // as plan loads it: chip keys above 1 need an xla device
    RecipeConfig recipe = Recipes.load("recipes/gsm8k-grpo.yaml", keys);
    var model = ModelInit.config(recipe);
    List<PlanCommand.Actor> actors =
        PlanCommand.actors(recipe, model, ChipKeys.from(recipe.settings()));
    PlanTable table = new PlanTable(TpuTopology.parse("v5e-8"), recipe, model);
    long gib = 1L << 30;
    for (PlanCommand.Actor a : actors) {
      List<PlanTable.Compiled> stats = new ArrayList<>();
      for (int i = 0; i < a.programs().size(); i++) {
        boolean bwd = a.programs().get(i).label().equals("train bwd");
        stats.add(
            new PlanTable.Compiled(
                new CompiledStats(gib, 0, 0, bwd ? 20 * gib : gib, 0, 1e12, 1e9, 1.0), false));
      }
      table.add(a, stats);
    }
    assertFalse(table.fits());
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    table.print(new PrintStream(bytes, true, StandardCharsets.UTF_8));
    String text = bytes.toString(StandardCharsets.UTF_8);
    assertTrue(
        text.contains("does not fit: trainer train bwd needs 21.00 GiB per chip, 5.00 GiB over"),
        text);
    // 16 micro-batch rows x (16 - 1 GiB of arguments) / 20 GiB of temporaries -> 12
    assertTrue(text.contains("ppo_micro_batch_size_per_gpu=12 or less (now 16"), text);
    assertTrue(text.contains("enable_gradient_checkpointing=true"), text);
    assertTrue(text.contains("-Djavelin.attention.block=512 (blockwise attention"), text);
    assertTrue(text.contains("data.max_response_length"), text);
    assertFalse(text.contains("does not fit: sampler"), text);
    assertFalse(text.contains("-Djavelin.head.logits=recompute"), text); // the default already
    System.setProperty(HeadLogits.PROPERTY, "keep");
    try {
      ByteArrayOutputStream kept = new ByteArrayOutputStream();
      table.print(new PrintStream(kept, true, StandardCharsets.UTF_8));
      String keptText = kept.toString(StandardCharsets.UTF_8);
      assertTrue(keptText.contains("-Djavelin.head.logits=recompute (the LM head's"), keptText);
    } finally {
      System.clearProperty(HeadLogits.PROPERTY);
    }
  }

  /**
   * libtpu refuses a program whose temporaries exceed HBM: plan reads the refusal as a row that
   * does not fit (exit 4 with the keys), not as a compile error (exit 2).
   */
  @Test
  void aProgramLibtpuRefusesForHbmIsARowThatDoesNotFit() {
    PjrtException oom =
        new PjrtException(
            8,
            "Ran out of memory on HBM, the total memory required for HLO temporaries (44.35G)"
                + " exceeds available HBM (31.25G).\nmore");
    long temps = HbmRefusal.tempBytes(oom).orElseThrow();
    assertEquals((long) (44.35 * (1L << 30)), temps);
    assertTrue(HbmRefusal.tempBytes(new PjrtException(3, "Unexpected device_id 4")).isEmpty());
    List<String> keys = new ArrayList<>(tinyKeys());
    keys.add("trainer.device=tpu");
    RecipeConfig recipe = Recipes.load("recipes/gsm8k-grpo.yaml", keys);
    var model = ModelInit.config(recipe);
    PlanCommand.Actor trainer =
        PlanCommand.actors(recipe, model, ChipKeys.from(recipe.settings())).get(0);
    PlanTable table = new PlanTable(TpuTopology.parse("v6e-8"), recipe, model);
    List<PlanTable.Compiled> stats = new ArrayList<>();
    for (ActorPrograms.Planned p : trainer.programs()) {
      stats.add(
          p.label().equals("train bwd")
              ? new PlanTable.Compiled(
                  new CompiledStats(0, 0, 0, temps, 0, Double.NaN, Double.NaN, 2.0), true)
              : new PlanTable.Compiled(
                  new CompiledStats(1L << 30, 0, 0, 0, 0, 1e12, 1e9, 1), false));
    }
    table.add(trainer, stats);
    assertFalse(table.fits());
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    table.print(new PrintStream(bytes, true, StandardCharsets.UTF_8));
    String text = bytes.toString(StandardCharsets.UTF_8);
    assertTrue(
        text.matches("(?s).*train bwd +\\? +\\? +44\\.35 GiB +>44\\.35 GiB +>139% .*"), text);
    assertTrue(
        text.contains(
            "does not fit: trainer train bwd needs more than 44.35 GiB per chip, more than 12.35"
                + " GiB over v6e's 32.00 GiB HBM (libtpu refused to compile it"),
        text);
    assertTrue(text.contains("try actor_rollout_ref.actor.ppo_micro_batch_size_per_gpu="), text);
    assertFalse(text.contains("fits: every program fits"), text);
    // a plan cut short by a compile error shows what compiled, with no verdict on the rest
    ByteArrayOutputStream partial = new ByteArrayOutputStream();
    table.printPartial(new PrintStream(partial, true, StandardCharsets.UTF_8));
    String cut = partial.toString(StandardCharsets.UTF_8);
    assertTrue(cut.contains("train bwd"), cut);
    assertFalse(cut.contains("fits"), cut);
  }

  @Test
  void badTopologyOrMissingOneIsOneLineAndExit2() {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    List<String> args = new ArrayList<>(tinyKeys());
    args.addAll(List.of("--topology", "v9x-8"));
    assertEquals(2, plan(out, args));
    String text = out.toString(StandardCharsets.UTF_8).strip();
    assertTrue(text.startsWith("javelin: topology 'v9x-8'"), text);
    assertEquals(1, text.lines().count(), text);
    ByteArrayOutputStream none = new ByteArrayOutputStream();
    assertEquals(2, plan(none, tinyKeys()));
    assertTrue(none.toString(StandardCharsets.UTF_8).contains("--topology"));
    ByteArrayOutputStream bare = new ByteArrayOutputStream();
    List<String> dumpLast = new ArrayList<>(tinyKeys());
    dumpLast.addAll(List.of("--topology", "v5e-8", "--dump"));
    assertEquals(2, plan(bare, dumpLast));
    assertTrue(
        bare.toString(StandardCharsets.UTF_8).startsWith("javelin: '--dump' needs a value"),
        bare.toString(StandardCharsets.UTF_8));
  }

  @Test
  void aProgramLibtpuRefusesIsOneLineNamingItTheTopologyAndLibtpusWords() {
    TpuTopology t = TpuTopology.parse("v5e-8");
    ActorPrograms.Planned p =
        ActorPrograms.sampler(ModelConfig.tiny(), 4, 8, 16, 64, DType.BF16).get(0);
    PjrtException refused;
    try (AotCompiler aot = AotCompiler.open(t)) {
      // the module is printed for 4 partitions: libtpu refuses it compiled as 2
      String text = AotCompiler.moduleText(p.program(), p.donation());
      refused = assertThrows(PjrtException.class, () -> aot.compile(text, 2));
    }
    PlanCommand.Actor sampler = new PlanCommand.Actor("sampler (each of 2)", 4, List.of(p));
    String line = PlanCommand.compileFailure(sampler, p.label(), t, refused).getMessage();
    assertEquals(1, line.lines().count(), line);
    assertTrue(
        line.startsWith(
            "plan: libtpu cannot compile the sampler (each of 2)'s '"
                + p.label()
                + "' program (4 chips) for v5e-8 (v5e:2x4): PJRT error"),
        line);
  }

  @Test
  void runChecksOnlyTpuAndSaysWhenItDoesNotKnowTheSlice() {
    List<String> keys = new ArrayList<>(tinyKeys().subList(0, 4)); // one chip: cpu runs it
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    PrintStream ps = new PrintStream(bytes, true, StandardCharsets.UTF_8);
    PlanCommand.beforeRun(Recipes.load("recipes/gsm8k-grpo.yaml", keys), Map.of(), ps);
    assertEquals("", bytes.toString(StandardCharsets.UTF_8), "the cpu device has nothing to plan");
    keys.add("trainer.device=tpu");
    PlanCommand.beforeRun(Recipes.load("recipes/gsm8k-grpo.yaml", keys), Map.of(), ps);
    assertTrue(
        bytes.toString(StandardCharsets.UTF_8).contains("TPU_ACCELERATOR_TYPE unset"),
        bytes.toString(StandardCharsets.UTF_8));
  }
}
