package dev.javelin.recipes.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class RecipeConfigTest {

  private static ConfigException fails(String recipe, String... overrides) {
    return assertThrows(ConfigException.class, () -> Recipes.load(recipe, List.of(overrides)));
  }

  private static void mentions(ConfigException e, String... parts) {
    for (String p : parts) {
      assertTrue(e.getMessage().contains(p), "expected '" + p + "' in: " + e.getMessage());
    }
  }

  @Test
  void everyBundledRecipeLoads() {
    for (String name : Recipes.bundled()) {
      RecipeConfig c = Recipes.load("recipes/" + name + ".yaml", List.of());
      assertTrue(c.data().maxResponseLength() > 0, name);
    }
  }

  @Test
  void arithGrpoHasVerlValues() {
    RecipeConfig c = Recipes.load("recipes/arith-grpo.yaml", List.of());
    c.checkTrainable();
    assertEquals(32, c.data().trainBatchSize());
    assertEquals(8, c.rollout().n());
    assertEquals(0.2, c.actor().loss().policyLoss().clipRatio());
    var tc = c.trainerConfig(10);
    assertEquals(128, tc.miniBatchSize()); // ppo_mini_batch_size 16 prompts × n = 8
    assertEquals("recipes/arith-sft.yaml", c.model().warmupRecipe());
  }

  @Test
  void bundledNameWorksWithoutFolderOrExtension() {
    assertEquals(
        Recipes.load("arith-grpo", List.of()).data(),
        Recipes.load("recipes/arith-grpo.yaml", List.of()).data());
  }

  @Test
  void overridesApplyAndRoundTripThroughYaml() {
    RecipeConfig c =
        Recipes.load(
            "recipes/arith-grpo.yaml",
            List.of("actor_rollout_ref.actor.optim.lr=3e-4", "trainer.samplers=3"));
    assertEquals(3e-4, c.actor().lr());
    assertEquals(3, c.trainer().samplers());
    RecipeConfig back = Recipes.fromYaml(Recipes.toYaml(c.settings()), "round trip", List.of());
    assertEquals(c.settings().asMap(), back.settings().asMap());
  }

  @Test
  void unknownKeyNamesTheClosest() {
    mentions(
        fails("recipes/arith-grpo.yaml", "actor_rollout_ref.rollout.temprature=0.7"),
        "actor_rollout_ref.rollout.temprature",
        "did you mean 'actor_rollout_ref.rollout.temperature'");
  }

  @Test
  void wrongTypeNamesTheKey() {
    mentions(
        fails("recipes/arith-grpo.yaml", "data.train_batch_size=lots"),
        "data.train_batch_size",
        "expected an integer");
  }

  @Test
  void miniBatchMustDivideTheBatch() {
    mentions(
        fails("recipes/arith-grpo.yaml", "actor_rollout_ref.actor.ppo_mini_batch_size=12"),
        "actor_rollout_ref.actor.ppo_mini_batch_size",
        "must divide data.train_batch_size (32)");
  }

  @Test
  void microBatchMustDivideTheMiniBatch() {
    mentions(
        fails(
            "recipes/arith-grpo.yaml", "actor_rollout_ref.actor.ppo_micro_batch_size_per_gpu=100"),
        "ppo_micro_batch_size_per_gpu",
        "128 samples");
  }

  /** Limits the grpo library also enforces are reported by the recipe key, before it sees them. */
  @Test
  void libraryLimitsNameTheRecipeKey() {
    String[][] cases = {
      {"algorithm.gamma=1.5", "recipe key 'algorithm.gamma'", "[0, 1], got 1.5"},
      {"algorithm.lam=-0.1", "recipe key 'algorithm.lam'", "[0, 1]"},
      {"actor_rollout_ref.actor.clip_ratio_c=1.0", "'actor_rollout_ref.actor.clip_ratio_c'", "> 1"},
      {"actor_rollout_ref.actor.clip_ratio_low=-0.1", "'actor_rollout_ref.actor.clip_ratio_low'"},
      {"actor_rollout_ref.actor.clip_ratio_high=-0.1", "'actor_rollout_ref.actor.clip_ratio_high'"},
      {"actor_rollout_ref.actor.entropy_coeff=-1", "'actor_rollout_ref.actor.entropy_coeff'"},
      {"actor_rollout_ref.actor.kl_loss_coef=-1", "'actor_rollout_ref.actor.kl_loss_coef'"},
      {"algorithm.rollout_correction.rollout_is=tokn", "algorithm.rollout_correction.rollout_is"},
    };
    for (String[] c : cases) {
      mentions(fails("recipes/arith-grpo.yaml", c[0]), List.of(c).subList(1, c.length));
    }
    String kl = "algorithm.use_kl_in_reward=true";
    mentions(
        fails("recipes/arith-grpo.yaml", kl, "algorithm.kl_ctrl.kl_coef=-1"),
        "recipe key 'algorithm.kl_ctrl.kl_coef'");
    mentions(
        fails("recipes/arith-grpo.yaml", kl, "algorithm.kl_ctrl.horizon=0"),
        "recipe key 'algorithm.kl_ctrl.horizon'");
    mentions(
        fails("recipes/arith-grpo.yaml", kl, "algorithm.kl_ctrl.target_kl=0"),
        "recipe key 'algorithm.kl_ctrl.target_kl'");
    mentions(
        fails(
            "recipes/arith-grpo.yaml",
            "algorithm.rollout_correction.bypass_mode=true",
            "algorithm.rollout_correction.loss_type=reinforc"),
        "algorithm.rollout_correction.loss_type",
        "did you mean 'reinforce'");
    mentions(
        fails(
            "recipes/arith-grpo.yaml",
            "algorithm.rollout_correction.rollout_rs=token_k9",
            "algorithm.rollout_correction.rollout_rs_threshold=2"),
        "algorithm.rollout_correction.rollout_rs'",
        "unknown rejection option 'token_k9'");
  }

  private static void mentions(ConfigException e, List<String> parts) {
    mentions(e, parts.toArray(new String[0]));
  }

  @Test
  void choicesSuggestTheClosest() {
    mentions(
        fails("recipes/arith-grpo.yaml", "algorithm.adv_estimator=grp"),
        "algorithm.adv_estimator",
        "did you mean 'grpo'");
  }

  @Test
  void grpoNeedsAGroup() {
    RecipeConfig c =
        Recipes.load(
            "recipes/arith-grpo.yaml",
            List.of(
                "actor_rollout_ref.rollout.n=1",
                "actor_rollout_ref.actor.ppo_micro_batch_size_per_gpu=8"));
    ConfigException e = assertThrows(ConfigException.class, c::checkTrainable);
    mentions(e, "actor_rollout_ref.rollout.n", "n >= 2");
  }

  @Test
  void randomModelMustHoldPromptAndResponse() {
    mentions(
        fails("recipes/arith-sft.yaml", "data.max_response_length=40"),
        "actor_rollout_ref.model.init.max_positions",
        "shorter than");
  }

  @Test
  void klInRewardReadsVerlKeysAndKeepsAReference() {
    RecipeConfig c =
        Recipes.load(
            "recipes/arith-grpo.yaml",
            List.of(
                "algorithm.use_kl_in_reward=true",
                "algorithm.kl_penalty=low_var_kl",
                "algorithm.kl_ctrl.type=adaptive",
                "algorithm.kl_ctrl.kl_coef=0.05",
                "algorithm.kl_ctrl.target_kl=0.2",
                "algorithm.kl_ctrl.horizon=500"));
    var a = c.algorithm();
    assertTrue(a.useKlInReward());
    assertEquals(dev.javelin.grpo.KlEstimator.K3, a.klPenalty());
    assertEquals(dev.javelin.grpo.KlControlConfig.Type.ADAPTIVE, a.klCtrl().type());
    assertEquals(0.05, a.klCtrl().klCoef());
    assertEquals(0.2, a.klCtrl().targetKl());
    assertEquals(500, a.klCtrl().horizon());
    assertTrue(c.trainerConfig(1).useReference(), "the in-reward KL needs π_ref");
    assertTrue(!Recipes.load("recipes/arith-grpo.yaml", List.of()).algorithm().useKlInReward());
    mentions(
        fails(
            "recipes/arith-grpo.yaml",
            "algorithm.use_kl_in_reward=true",
            "algorithm.kl_penalty=full"),
        "algorithm.kl_penalty");
    mentions(
        fails(
            "recipes/arith-grpo.yaml",
            "algorithm.use_kl_in_reward=true",
            "algorithm.kl_ctrl.horizon=0"),
        "algorithm.kl_ctrl.horizon");
  }

  @Test
  void dapoMathHasDaposSettings() {
    RecipeConfig c = Recipes.load("dapo-math", List.of());
    var pl = c.actor().loss().policyLoss();
    assertEquals(0.2, pl.clipRatioLow());
    assertEquals(0.28, pl.clipRatioHigh());
    assertEquals(dev.javelin.grpo.LossAggMode.TOKEN_MEAN, pl.lossAggMode());
    assertTrue(c.algorithm().filterGroups().enable());
    assertEquals("acc", c.algorithm().filterGroups().metric());
    assertEquals(96, FilterGroupsKeys.genBatchSize(c.settings()));
    assertTrue(c.overlong().enabled());
    assertTrue(!c.actor().loss().useKlLoss() && !c.algorithm().useKlInReward(), "no KL");
    assertEquals("math_dapo", c.settings().getString("custom_reward_function.name"));
  }

  @Test
  void overlongBufferIsValidatedAgainstTheResponseLimit() {
    RecipeConfig c =
        Recipes.load(
            "recipes/arith-grpo.yaml",
            List.of(
                "data.max_response_length=16",
                "reward_model.overlong_buffer.enable=true",
                "reward_model.overlong_buffer.len=4",
                "reward_model.overlong_buffer.penalty_factor=1.0"));
    assertTrue(c.overlong().enabled());
    assertEquals(0.0, c.overlong().penalty().penalty(12), 1e-12);
    assertEquals(-0.5, c.overlong().penalty().penalty(14), 1e-12);
    assertEquals(-1.0, c.overlong().penalty().penalty(16), 1e-12);
    assertTrue(!Recipes.load("recipes/arith-grpo.yaml", List.of()).overlong().enabled());
    mentions(
        fails("recipes/arith-grpo.yaml", "reward_model.overlong_buffer.enable=true"),
        "reward_model.overlong_buffer.len",
        "> 0");
    mentions(
        fails(
            "recipes/arith-grpo.yaml",
            "data.max_response_length=16",
            "reward_model.overlong_buffer.enable=true",
            "reward_model.overlong_buffer.len=32"),
        "reward_model.overlong_buffer.len",
        "data.max_response_length");
  }

  @Test
  void missingRecipeListsTheBundledOnes() {
    mentions(fails("recipes/arith-grop.yaml"), "arith-grop", "did you mean 'arith-grpo'");
  }

  @Test
  void clipRangeIsValidatedByTheGrpoLibrary() {
    mentions(
        fails("recipes/arith-grpo.yaml", "actor_rollout_ref.actor.clip_ratio_c=0.5"),
        "actor_rollout_ref.actor",
        "clip_ratio_c");
  }

  @Test
  void applyChatTemplateKwargsReachTheDataSectionTypedAsYamlWouldType() {
    RecipeConfig c =
        Recipes.load(
            "recipes/arith-grpo.yaml",
            List.of("data.apply_chat_template_kwargs.enable_thinking=false"));
    assertEquals(java.util.Map.of("enable_thinking", false), c.data().applyChatTemplateKwargs());
    assertEquals(
        java.util.Map.of(),
        Recipes.load("recipes/arith-grpo.yaml", List.of()).data().applyChatTemplateKwargs());
    mentions(
        fails("recipes/arith-grpo.yaml", "data.apply_chat_template_kwargs.messages=[]"),
        "data.apply_chat_template_kwargs",
        "messages");
  }
}
