package dev.javelin.recipes.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class RecipeLoaderTest {
  static final Schema SCHEMA =
      Schema.builder()
          .add(KeySpec.of("data.train_batch_size", KeyType.INT, 32, "prompts per step"))
          .add(
              KeySpec.of("actor_rollout_ref.actor.optim.lr", KeyType.DOUBLE, 1e-6, "learning rate"))
          .add(KeySpec.of("actor_rollout_ref.actor.use_kl_loss", KeyType.BOOL, false, "KL loss"))
          .add(
              KeySpec.of(
                  "algorithm.adv_estimator", KeyType.oneOf("grpo", "rloo"), "grpo", "estimator"))
          .add(KeySpec.optional("data.train_files", KeyType.STRING_LIST, "training files"))
          .add(KeySpec.optional("custom_reward_function.reward_kwargs", KeyType.MAP, "kwargs"))
          .add(KeySpec.required("trainer.project_name", KeyType.STRING, "project name"))
          .build();
  final RecipeLoader loader = new RecipeLoader(SCHEMA);

  @Test
  void nestedYamlBecomesDottedKeysWithDefaults() {
    Settings s =
        loader.loadString(
            """
            data:
              train_batch_size: 64
              train_files: [a.jsonl, b.jsonl]
            custom_reward_function:
              reward_kwargs: {score: 2.0, format_score: 0.1}
            trainer: {project_name: demo}
            """,
            "test.yaml",
            List.of());
    assertEquals(64, s.getInt("data.train_batch_size"));
    assertEquals(List.of("a.jsonl", "b.jsonl"), s.getStrings("data.train_files"));
    assertEquals(
        Map.of("score", 2.0, "format_score", 0.1),
        s.getMap("custom_reward_function.reward_kwargs"));
    assertEquals(1e-6, s.getDouble("actor_rollout_ref.actor.optim.lr"));
    assertFalse(s.getBool("actor_rollout_ref.actor.use_kl_loss"));
    assertEquals("grpo", s.getString("algorithm.adv_estimator"));
  }

  @Test
  void overridesWinAndAreTyped() {
    Settings s =
        loader.loadString(
            "trainer: {project_name: demo}\ndata: {train_batch_size: 8}",
            "t.yaml",
            List.of(
                "data.train_batch_size=16",
                "actor_rollout_ref.actor.optim.lr=3e-4",
                "actor_rollout_ref.actor.use_kl_loss=true",
                "algorithm.adv_estimator=rloo"));
    assertEquals(16, s.getInt("data.train_batch_size"));
    assertEquals(3e-4, s.getDouble("actor_rollout_ref.actor.optim.lr"));
    assertTrue(s.getBool("actor_rollout_ref.actor.use_kl_loss"));
    assertEquals("rloo", s.getString("algorithm.adv_estimator"));
  }

  @Test
  void unknownKeySuggestsTheClosest() {
    var e =
        assertThrows(
            ConfigException.class,
            () ->
                loader.loadString(
                    "trainer: {project_name: x}", "t.yaml", List.of("data.train_batch_sise=3")));
    assertTrue(e.getMessage().contains("data.train_batch_sise"), e.getMessage());
    assertTrue(e.getMessage().contains("did you mean 'data.train_batch_size'"), e.getMessage());
    assertTrue(e.getMessage().contains("command-line override"), e.getMessage());
  }

  @Test
  void wrongTypesAndBadChoicesNameTheKey() {
    var e =
        assertThrows(
            ConfigException.class,
            () ->
                loader.loadString(
                    "trainer: {project_name: x}\ndata: {train_batch_size: lots}",
                    "r.yaml",
                    List.of()));
    assertTrue(e.getMessage().contains("'data.train_batch_size' in r.yaml"), e.getMessage());
    assertTrue(e.getMessage().contains("expected an integer"), e.getMessage());
    var c =
        assertThrows(
            ConfigException.class,
            () ->
                loader.loadString(
                    "trainer: {project_name: x}",
                    "r.yaml",
                    List.of("algorithm.adv_estimator=grop")));
    assertTrue(c.getMessage().contains("did you mean 'grpo'"), c.getMessage());
  }

  @Test
  void requiredKeysMissingFilesAndBadYamlStopWithAMessage() {
    var e = assertThrows(ConfigException.class, () -> loader.loadString("{}", "r.yaml", List.of()));
    assertTrue(e.getMessage().contains("trainer.project_name"), e.getMessage());
    var f =
        assertThrows(
            ConfigException.class, () -> loader.load(Path.of("no/such/recipe.yaml"), List.of()));
    assertTrue(f.getMessage().contains("no/such/recipe.yaml"), f.getMessage());
    assertThrows(ConfigException.class, () -> loader.loadString("a: [1, 2", "r.yaml", List.of()));
    assertThrows(ConfigException.class, () -> loader.loadString("- 1\n- 2", "r.yaml", List.of()));
    assertThrows(
        ConfigException.class,
        () -> loader.loadString("trainer: {project_name: x}", "r.yaml", List.of("novalue")));
  }

  @Test
  void suggestionsPreferTrailingSegmentMatches() {
    assertEquals(
        "actor_rollout_ref.actor.optim.lr",
        Suggestions.closest("lr", SCHEMA.names()).orElseThrow());
    assertTrue(Suggestions.closest("completely_unrelated_key", SCHEMA.names()).isEmpty());
  }
}
