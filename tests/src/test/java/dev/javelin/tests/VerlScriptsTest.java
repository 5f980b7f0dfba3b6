package dev.javelin.tests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.javelin.backend.spmd.MeshShape;
import dev.javelin.recipes.cli.Commands;
import dev.javelin.recipes.config.ChipKeys;
import dev.javelin.recipes.config.ChipPlan;
import dev.javelin.recipes.config.ConfigException;
import dev.javelin.recipes.config.RecipeConfig;
import dev.javelin.recipes.config.Recipes;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * VeRL's own example scripts port by copying their override lists (fixtures under {@code
 * verl-scripts/}): every key with a meaning here takes effect, VeRL's engine keys are accepted with
 * one start-up line each, and each script trains one step on a tiny model (paths and sizes
 * overridden after the pasted list; {@code trainer.logger} too, as wandb needs an account). The
 * chip keys ({@code n_gpus_per_node}, {@code tensor_model_parallel_size}, {@code fsdp_size}) take
 * effect on an accelerator; on the CPU the runs set them to one chip.
 */
class VerlScriptsTest {
  private static final String GRPO = "grpo_trainer__run_qwen2-7b.overrides";
  private static final String RLOO = "rloo_trainer__run_qwen2-7b.overrides";
  private static final String DAPO = "dapo__run_dapo_qwen2.5_32b.overrides";

  /** The DAPO script's engine keys: one no-effect line each. */
  private static final List<String> DAPO_ENGINE_KEYS =
      List.of(
          "data.truncation",
          "actor_rollout_ref.model.use_remove_padding",
          "actor_rollout_ref.actor.use_dynamic_bsz",
          "actor_rollout_ref.ref.log_prob_use_dynamic_bsz",
          "actor_rollout_ref.rollout.log_prob_use_dynamic_bsz",
          "actor_rollout_ref.actor.ppo_max_token_len_per_gpu",
          "actor_rollout_ref.ref.log_prob_max_token_len_per_gpu",
          "actor_rollout_ref.rollout.log_prob_max_token_len_per_gpu",
          "actor_rollout_ref.actor.fsdp_config.param_offload",
          "actor_rollout_ref.actor.fsdp_config.optimizer_offload",
          "actor_rollout_ref.actor.ulysses_sequence_parallel_size",
          "actor_rollout_ref.rollout.gpu_memory_utilization",
          "actor_rollout_ref.rollout.enable_chunked_prefill",
          "actor_rollout_ref.rollout.max_num_batched_tokens",
          "actor_rollout_ref.rollout.name",
          "actor_rollout_ref.ref.fsdp_config.param_offload",
          "actor_rollout_ref.ref.ulysses_sequence_parallel_size",
          "reward_model.reward_manager");

  private static final List<String> ENGINE_KEYS =
      List.of(
          "data.truncation",
          "actor_rollout_ref.model.use_remove_padding",
          "actor_rollout_ref.actor.fsdp_config.param_offload",
          "actor_rollout_ref.actor.fsdp_config.optimizer_offload",
          "actor_rollout_ref.rollout.name",
          "actor_rollout_ref.rollout.gpu_memory_utilization",
          "actor_rollout_ref.ref.log_prob_micro_batch_size_per_gpu",
          "actor_rollout_ref.ref.fsdp_config.param_offload",
          "trainer.critic_warmup");

  /** What the CPU runs set after a pasted script: one chip per actor. */
  private static final String[] ONE_CHIP = {
    "trainer.n_gpus_per_node=1",
    "trainer.nnodes=1",
    "actor_rollout_ref.rollout.tensor_model_parallel_size=1"
  };

  /** The fixture's overrides as the shell hands them over (single quotes removed). */
  static List<String> script(String name) throws IOException {
    try (InputStream in = VerlScriptsTest.class.getResourceAsStream("/verl-scripts/" + name)) {
      assertTrue(in != null, "fixture missing: " + name);
      List<String> out = new ArrayList<>();
      for (String line : new String(in.readAllBytes(), StandardCharsets.UTF_8).lines().toList()) {
        if (!line.isBlank() && !line.startsWith("#")) {
          out.add(line.strip().replace("'", ""));
        }
      }
      return out;
    }
  }

  private static List<String> with(List<String> script, String... after) {
    List<String> o = new ArrayList<>(script);
    o.addAll(List.of(after));
    return o;
  }

  @Test
  void gsm8kGrpoScriptTakesEffect() throws IOException {
    RecipeConfig c =
        Recipes.load(
            "gsm8k-grpo", with(script(GRPO), "trainer.logger=[console]", "trainer.device=tpu"));
    ChipPlan chips = ChipKeys.from(c.settings());
    assertEquals(new MeshShape(1, 8, 1), chips.trainer(), "n_gpus_per_node=8, fsdp over all");
    assertEquals(2, chips.rolloutTp());
    ConfigException cpu =
        assertThrows(
            ConfigException.class,
            () -> Recipes.load("gsm8k-grpo", with(script(GRPO), "trainer.logger=[console]")));
    assertTrue(
        cpu.getMessage().contains("trainer.n_gpus_per_node")
            && cpu.getMessage().contains("runs on one chip"),
        cpu.getMessage());
    assertEquals("grpo", c.algorithm().advEstimator().key());
    assertEquals(1024, c.data().trainBatchSize());
    assertEquals(1024, c.data().maxResponseLength());
    assertEquals(5, c.rollout().n());
    assertEquals(1e-6, c.actor().lr());
    assertEquals(256, c.actor().ppoMiniBatchSize());
    assertEquals(40, c.actor().ppoMicroBatchSize());
    assertTrue(c.actor().loss().useKlLoss());
    assertEquals("verl_grpo_example_gsm8k", c.settings().getString("trainer.project_name"));
    assertEquals(20, c.settings().getInt("trainer.save_freq"));
    assertEquals(15, c.trainer().totalEpochs());
    assertTrue(c.model().gradientCheckpointing(), "enable_gradient_checkpointing takes effect");
    List<String> notes = c.settings().noEffectNotes();
    assertEquals(ENGINE_KEYS.size(), notes.size(), String.join("\n", notes));
    for (String key : ENGINE_KEYS) {
      assertEquals(1, notes.stream().filter(n -> n.startsWith(key + "=")).count(), key);
    }
  }

  @Test
  void rlooScriptTakesEffect() throws IOException {
    RecipeConfig c =
        Recipes.load("gsm8k-grpo", with(with(script(RLOO), ONE_CHIP), "trainer.logger=[console]"));
    assertEquals("rloo", c.algorithm().advEstimator().key());
    assertTrue(c.algorithm().useKlInReward());
    assertEquals(0.001, c.algorithm().klCtrl().klCoef());
    assertTrue(!c.actor().loss().useKlLoss());
    assertEquals(ENGINE_KEYS.size(), c.settings().noEffectNotes().size());
  }

  @Test
  void aTypoInAPastedScriptStillFails() throws IOException {
    List<String> typo = new ArrayList<>(script(GRPO));
    typo.replaceAll(
        o ->
            o.replace(
                "actor_rollout_ref.actor.ppo_mini_batch_size",
                "actor_rollout_ref.actor.ppo_mini_batchsize"));
    ConfigException e = assertThrows(ConfigException.class, () -> Recipes.load("gsm8k-grpo", typo));
    assertTrue(
        e.getMessage().contains("actor_rollout_ref.actor.ppo_mini_batchsize"), e.getMessage());
    assertTrue(
        e.getMessage().contains("actor_rollout_ref.actor.ppo_mini_batch_size"), e.getMessage());
  }

  @Test
  void eachScriptTrainsOneStep(@TempDir Path tmp) throws Exception {
    Path gsm8k = Path.of("../../shared/datasets/gsm8k/train.jsonl").toAbsolutePath();
    assertTrue(Files.isRegularFile(gsm8k), "shared dataset missing: " + gsm8k);
    for (String name : List.of(GRPO, RLOO)) {
      Path dir = tmp.resolve(name);
      ByteArrayOutputStream console = new ByteArrayOutputStream();
      new Commands(new PrintStream(console, true, StandardCharsets.UTF_8))
          .run(
              "recipes/gsm8k-grpo.yaml",
              with(
                  with(script(name), ONE_CHIP),
                  "data.train_files=[" + gsm8k + "]",
                  "data.val_files=[]",
                  "actor_rollout_ref.model.path=",
                  "actor_rollout_ref.model.tokenizer_path=char",
                  "actor_rollout_ref.model.init.max_positions=160",
                  "data.prompt_template=raw",
                  "data.max_prompt_length=128",
                  "data.max_response_length=8",
                  "data.train_batch_size=4",
                  "actor_rollout_ref.actor.ppo_mini_batch_size=4",
                  "actor_rollout_ref.actor.ppo_micro_batch_size_per_gpu=20",
                  "actor_rollout_ref.rollout.log_prob_micro_batch_size_per_gpu=20",
                  "trainer.logger=[console]",
                  "trainer.ray=off",
                  "trainer.total_training_steps=1",
                  "trainer.default_local_dir=" + dir));
      String out = console.toString(StandardCharsets.UTF_8);
      for (String key : ENGINE_KEYS) {
        assertEquals(
            1,
            out.lines().filter(l -> l.startsWith(key + "=") && l.contains("no effect")).count(),
            name + ": one start-up line for " + key + "\n" + out);
      }
      assertTrue(Double.isFinite(TinyRuns.series(dir, "actor/pg_loss").get(1)), name);
    }
    assertTrue(
        TinyRuns.series(tmp.resolve(RLOO), "actor/reward_kl_penalty_coeff").get(1) == 0.001,
        "RLOO script's KL in the reward took effect");
  }

  @Test
  void dapoScriptTakesEffect() throws IOException {
    RecipeConfig c =
        Recipes.load(
            "dapo-math",
            with(
                script(DAPO),
                "trainer.logger=[console]",
                "trainer.device=tpu",
                "trainer.nnodes=1"));
    assertEquals(new MeshShape(1, 8, 1), ChipKeys.from(c.settings()).trainer());
    assertEquals("grpo", c.algorithm().advEstimator().key());
    assertTrue(c.algorithm().filterGroups().enable());
    assertEquals(10, c.algorithm().filterGroups().maxNumGenBatches());
    assertEquals(1536, c.settings().getInt("data.gen_batch_size"));
    assertEquals(512, c.data().trainBatchSize());
    assertEquals(20480, c.data().maxResponseLength());
    assertEquals(16, c.rollout().n());
    assertEquals(0.7, c.rollout().valTopP());
    assertEquals(4096, c.settings().getInt("reward_model.overlong_buffer.len"));
    assertTrue(!c.algorithm().useKlInReward() && !c.actor().loss().useKlLoss());
    assertEquals("DAPO", c.settings().getString("trainer.project_name"));
    List<String> notes = c.settings().noEffectNotes();
    assertEquals(DAPO_ENGINE_KEYS.size(), notes.size(), String.join("\n", notes));
    for (String key : DAPO_ENGINE_KEYS) {
      assertEquals(1, notes.stream().filter(n -> n.startsWith(key + "=")).count(), key);
    }
  }

  @Test
  void dapoScriptTrainsOneStep(@TempDir Path tmp) throws Exception {
    Path gsm8k = Path.of("../../shared/datasets/gsm8k/train.jsonl").toAbsolutePath();
    assertTrue(Files.isRegularFile(gsm8k), "shared dataset missing: " + gsm8k);
    new Commands(new PrintStream(OutputStream.nullOutputStream()))
        .run(
            "recipes/dapo-math.yaml",
            with(
                with(script(DAPO), ONE_CHIP),
                "data.train_files=[" + gsm8k + "]",
                "data.val_files=[]",
                "actor_rollout_ref.model.path=",
                "actor_rollout_ref.model.tokenizer_path=char",
                "actor_rollout_ref.model.init.max_positions=160",
                "data.prompt_template=raw",
                "data.max_prompt_length=128",
                "data.max_response_length=8",
                "reward_model.overlong_buffer.len=4",
                "data.train_batch_size=4",
                "data.gen_batch_size=4",
                "actor_rollout_ref.rollout.n=4",
                "actor_rollout_ref.actor.ppo_mini_batch_size=4",
                "actor_rollout_ref.actor.ppo_micro_batch_size_per_gpu=16",
                "custom_reward_function.name=",
                "custom_reward_function.class=" + LeadingDigitReward.class.getName(),
                "algorithm.filter_groups.metric=score",
                "trainer.logger=[console]",
                "trainer.ray=off",
                "trainer.total_training_steps=1",
                "trainer.default_local_dir=" + tmp));
    assertEquals(1, TinyRuns.series(tmp, "train/num_gen_batches").size());
    assertTrue(TinyRuns.series(tmp, "reward/overlong_reward/mean").get(1) <= 0);
    assertTrue(Double.isFinite(TinyRuns.series(tmp, "actor/pg_loss").get(1)));
  }
}
