package dev.javelin.recipes.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.javelin.backend.model.LlamaFamily;
import dev.javelin.backend.model.ModelConfig;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Five VeRL-style scripts (fixtures under {@code verl-paste/}, written in the style of VeRL's
 * public examples: GSM8K LoRA, DeepSeek-7B math, Megatron math, DAPO LoRA with the reward_kwargs
 * spelling, Qwen3 with SGLang) resolve in one try after a bundled recipe: no error, every engine
 * key a note, the keys with a meaning here in effect. Only the device is added, as a user on a TPU
 * would.
 */
class VerlPasteTest {
  private static final String ON_TPU = "trainer.device=tpu";

  static List<String> args(String name) throws IOException {
    try (InputStream in = VerlPasteTest.class.getResourceAsStream("/verl-paste/" + name)) {
      assertTrue(in != null, "fixture missing: " + name);
      List<String> out = new ArrayList<>();
      for (String line : new String(in.readAllBytes(), StandardCharsets.UTF_8).lines().toList()) {
        if (!line.isBlank() && !line.startsWith("#")) {
          out.add(line.strip());
        }
      }
      return out;
    }
  }

  private static RecipeConfig paste(String recipe, String fixture) throws IOException {
    List<String> o = new ArrayList<>(args(fixture));
    o.add(ON_TPU);
    return Recipes.load(recipe, o);
  }

  private static void assertNoted(RecipeConfig c, String... keys) {
    List<String> notes = c.notes();
    for (String k : keys) {
      assertEquals(
          1,
          notes.stream().filter(n -> n.startsWith(k) && n.contains("no effect here")).count(),
          k + " in\n" + String.join("\n", notes));
    }
  }

  @Test
  void gsm8kLoraScript() throws IOException {
    RecipeConfig c = paste("gsm8k-grpo", "gsm8k-lora-qwen2.5-3b.args");
    assertEquals(64, LoraKeys.from(c.settings()).rank());
    assertEquals(16, c.data().trainBatchSize());
    assertEquals(3e-6, c.actor().lr());
    assertFalse(c.trainer().valBeforeTrain());
    assertNoted(
        c,
        "actor_rollout_ref.model.use_shm=",
        "actor_rollout_ref.rollout.layered_summon=",
        "actor_rollout_ref.rollout.load_format=",
        "actor_rollout_ref.ref.fsdp_config.param_offload=");
  }

  @Test
  void deepseekMathScript() throws IOException {
    RecipeConfig c = paste("gsm8k-grpo", "math-deepseek-7b.args");
    assertEquals(2, c.data().trainFiles().size());
    assertTrue(c.actor().loss().useKlLoss());
    assertNoted(
        c,
        "actor_rollout_ref.actor.use_torch_compile=",
        "actor_rollout_ref.model.use_fused_kernels=",
        "actor_rollout_ref.actor.entropy_checkpointing=",
        "actor_rollout_ref.nccl_timeout=");
  }

  @Test
  void megatronMathScript() throws IOException {
    RecipeConfig c = paste("gsm8k-grpo", "math-megatron-qwen2-7b.args");
    assertEquals(2, ChipKeys.from(c.settings()).trainer().tp());
    assertNoted(
        c,
        "actor_rollout_ref.actor.megatron.pipeline_model_parallel_size=",
        "actor_rollout_ref.actor.megatron.override_transformer_config.recompute_granularity=",
        "actor_rollout_ref.ref.megatron.pipeline_model_parallel_size=",
        "actor_rollout_ref.ref.megatron.tensor_model_parallel_size=");
  }

  @Test
  void dapoLoraScriptKeepsTheOverlongPenalty() throws IOException {
    RecipeConfig c = paste("dapo-math", "dapo-lora-qwen2.5-7b.args");
    assertTrue(c.overlong().enabled(), "reward_kwargs.overlong_buffer_cfg.enable took effect");
    assertEquals(2048, c.overlong().penalty().config().len());
    assertEquals(8192, c.overlong().penalty().maxResponseLength());
    assertFalse(c.overlong().log());
    assertEquals(-1.0, c.overlong().penalty().penalty(8192), 1e-12);
    assertEquals(32, LoraKeys.from(c.settings()).rank());
    List<String> notes = c.notes();
    assertTrue(
        notes.contains(
            "actor_rollout_ref.model.override_config.max_position_embeddings=10240 applies to the"
                + " model config"),
        String.join("\n", notes));
    assertNoted(
        c,
        "actor_rollout_ref.model.override_config.attention_dropout=",
        "actor_rollout_ref.model.override_config.embd_pdrop=",
        "actor_rollout_ref.model.override_config.resid_pdrop=",
        "reward_model.reward_manager=");
    ModelConfig base =
        new ModelConfig(10, 8, 16, 1, 2, 2, 4, 1e4, 1e-6, true, false, 4096, LlamaFamily.LLAMA);
    ModelConfig applied = ModelOverrideKeys.from(c.settings()).apply(base);
    assertEquals(10240, applied.maxPositions());
    assertEquals(base.ropeTheta(), applied.ropeTheta());
  }

  @Test
  void qwen3SglangScript() throws IOException {
    RecipeConfig c = paste("gsm8k-grpo", "gsm8k-sglang-qwen3-8b.args");
    assertFalse(c.trainer().valBeforeTrain(), "+trainer.val_before_train sets an existing key");
    assertNoted(
        c,
        "data.return_raw_chat=",
        "actor_rollout_ref.model.torch_dtype=",
        "actor_rollout_ref.rollout.engine_kwargs.sglang.attention_backend=",
        "actor_rollout_ref.rollout.name=");
  }

  @Test
  void hydraPrefixes() {
    RecipeConfig c =
        Recipes.load(
            "arith-grpo",
            List.of(
                "+data.train_batch_size=32",
                "++actor_rollout_ref.actor.optim.lr=2e-6",
                "+reward_model.overlong_buffer.enable=true",
                "+reward_model.overlong_buffer.len=2",
                "~reward_model.overlong_buffer"));
    assertEquals(32, c.data().trainBatchSize());
    assertEquals(2e-6, c.actor().lr());
    assertFalse(c.overlong().enabled(), "~section drops every key under it (back to defaults)");
    // the recipe file's value goes too: back to the schema's default
    Object def = RecipeSchema.schema().key("data.train_batch_size").orElseThrow().defaultValue();
    assertEquals(
        def,
        Recipes.load("arith-grpo", List.of("data.train_batch_size=32", "~data.train_batch_size"))
            .data()
            .trainBatchSize());
    ConfigException mismatch =
        assertThrows(
            ConfigException.class,
            () ->
                Recipes.load(
                    "arith-grpo",
                    List.of("data.train_batch_size=32", "~data.train_batch_size=16")));
    assertTrue(mismatch.getMessage().contains("current value is 32"), mismatch.getMessage());
    ConfigException bare =
        assertThrows(
            ConfigException.class, () -> Recipes.load("arith-grpo", List.of("+data.seed")));
    assertTrue(bare.getMessage().contains("+key=value"), bare.getMessage());
  }

  @Test
  void everyUnknownKeyInOneMessage() {
    ConfigException e =
        assertThrows(
            ConfigException.class,
            () ->
                Recipes.load(
                    "arith-grpo",
                    List.of(
                        "actor_rollout_ref.actor.ppo_mini_batchsize=4",
                        "+trainer.not_a_key=1",
                        "critic.optim.lr=1e-5",
                        "~data.nope")));
    String m = e.getMessage();
    assertTrue(m.startsWith("4 unknown recipe keys: "), m);
    for (String k :
        List.of(
            "actor_rollout_ref.actor.ppo_mini_batchsize",
            "trainer.not_a_key",
            "critic.optim.lr",
            "data.nope")) {
      assertTrue(m.contains("'" + k + "'"), k + " in " + m);
    }
    assertTrue(m.contains("did you mean 'actor_rollout_ref.actor.ppo_mini_batch_size'"), m);
    assertEquals(1, m.lines().count(), "one line");
  }

  @Test
  void aFarSuggestionIsNone() {
    var names = RecipeSchema.schema().names();
    assertTrue(
        Suggestions.closest("actor_rollout_ref.actor.use_torch_compiled", names).isEmpty(),
        "nothing near use_torch_compiled");
    assertEquals(
        "actor_rollout_ref.actor.use_kl_loss",
        Suggestions.closest("actor_rollout_ref.actor.use_kl_los", names).orElseThrow());
    assertEquals(
        "actor_rollout_ref.actor.optim.lr",
        Suggestions.closest("actor_rollout_ref.actr.optim.lr", names).orElseThrow());
  }

  @Test
  void overrideConfigSaysWhatCannotApply() {
    String k = "+actor_rollout_ref.model.override_config.";
    ConfigException dropout =
        assertThrows(
            ConfigException.class,
            () -> Recipes.load("arith-grpo", List.of(k + "attention_dropout=0.1")));
    assertTrue(dropout.getMessage().contains("no dropout"), dropout.getMessage());
    ConfigException shape =
        assertThrows(
            ConfigException.class, () -> Recipes.load("arith-grpo", List.of(k + "hidden_size=8")));
    assertTrue(shape.getMessage().contains("shape"), shape.getMessage());
    RecipeConfig c =
        Recipes.load("arith-grpo", List.of(k + "rope_theta=500000", k + "use_cache=false"));
    assertTrue(
        c.notes().stream().anyMatch(n -> n.contains("use_cache=false has no effect here")),
        String.join("\n", c.notes()));
    ModelConfig base =
        new ModelConfig(10, 8, 16, 1, 2, 2, 4, 1e4, 1e-6, true, false, 64, LlamaFamily.LLAMA);
    assertEquals(500000.0, ModelOverrideKeys.from(c.settings()).apply(base).ropeTheta());
  }

  @Test
  void routerAuxLossCoefReachesTheTrainer() {
    String k = "+actor_rollout_ref.model.override_config.router_aux_loss_coef=";
    assertEquals(0.0, Recipes.load("arith-grpo", List.of()).trainerConfig(1).routerAuxLossCoef());
    RecipeConfig c = Recipes.load("arith-grpo", List.of(k + "0.01"));
    assertEquals(0.01, c.trainerConfig(1).routerAuxLossCoef());
    assertTrue(
        c.notes().stream().anyMatch(n -> n.contains("router_aux_loss_coef=0.01 adds")),
        String.join("\n", c.notes()));
    ConfigException negative =
        assertThrows(ConfigException.class, () -> Recipes.load("arith-grpo", List.of(k + "-1")));
    assertTrue(negative.getMessage().contains(">= 0"), negative.getMessage());
  }
}
