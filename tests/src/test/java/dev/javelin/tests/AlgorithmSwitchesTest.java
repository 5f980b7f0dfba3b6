package dev.javelin.tests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.javelin.recipes.cli.Commands;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Algorithm switches set from a recipe, each checked on a few tiny steps (plain objects, no Ray):
 * the switch changes what it should and nothing else.
 */
class AlgorithmSwitchesTest {
  private static final Commands QUIET =
      new Commands(new PrintStream(OutputStream.nullOutputStream()));

  private static Path run(Path tmp, String name, int steps, String... extra) throws Exception {
    Path dir = tmp.resolve(name);
    List<String> o = new ArrayList<>(List.of("trainer.ray=off"));
    o.addAll(List.of(extra));
    QUIET.run("recipes/arith-grpo.yaml", TinyRuns.tiny(dir, steps, o.toArray(new String[0])));
    return dir;
  }

  @Test
  void overlongPenaltyIsAddedToEveryScore(@TempDir Path tmp) throws Exception {
    Path base = run(tmp, "base", 1);
    // max_response_length = 3, buffer 2: a 2-token response loses 0.25, a 3-token one 0.5.
    Path shaped =
        run(
            tmp,
            "shaped",
            1,
            "reward_model.overlong_buffer.enable=true",
            "reward_model.overlong_buffer.len=2",
            "reward_model.overlong_buffer.penalty_factor=0.5",
            "reward_model.overlong_buffer.log=true");
    double penalty = TinyRuns.series(shaped, "reward/overlong_reward/mean").get(1);
    double fraction = TinyRuns.series(shaped, "reward/overlong/fraction").get(1);
    assertTrue(penalty < 0 && penalty >= -0.5, "mean penalty " + penalty);
    assertTrue(fraction > 0 && fraction <= 1, "overlong fraction " + fraction);
    // Step 1 generates the same responses in both runs; only the penalty separates the scores.
    double before = TinyRuns.series(base, "critic/score/mean").get(1);
    double after = TinyRuns.series(shaped, "critic/score/mean").get(1);
    assertEquals(before + penalty, after, 1e-9);
    assertTrue(TinyRuns.series(base, "reward/overlong_reward/mean").isEmpty());
  }

  @Test
  void klInRewardReportsBetaAndThePenalty(@TempDir Path tmp) throws Exception {
    Path fixed =
        run(tmp, "fixed", 3, "algorithm.use_kl_in_reward=true", "algorithm.kl_ctrl.kl_coef=0.1");
    Map<Integer, Double> kl = TinyRuns.series(fixed, "actor/reward_kl_penalty");
    Map<Integer, Double> beta = TinyRuns.series(fixed, "actor/reward_kl_penalty_coeff");
    assertEquals(3, kl.size(), "one KL value per step");
    beta.values().forEach(b -> assertEquals(0.1, b, 0.0));
    // Step 1: π_old is π_ref, so the in-reward KL is 0; after an update they differ.
    assertEquals(0.0, kl.get(1), 1e-6);
    assertTrue(kl.get(3) > 0, "KL after two updates " + kl);
    Path adaptive =
        run(
            tmp,
            "adaptive",
            2,
            "algorithm.use_kl_in_reward=true",
            "algorithm.kl_ctrl.type=adaptive",
            "algorithm.kl_ctrl.kl_coef=0.1",
            "algorithm.kl_ctrl.horizon=64",
            "algorithm.kl_ctrl.target_kl=0.5");
    Map<Integer, Double> b = TinyRuns.series(adaptive, "actor/reward_kl_penalty_coeff");
    // KL ≈ 0 < target: e = −0.2, β ← β·(1 − 0.2·64/64) over the 64 responses of step 1.
    assertEquals(0.1, b.get(1), 0.0);
    assertEquals(0.08, b.get(2), 1e-6);
    assertFalse(TinyRuns.series(run(tmp, "off", 1), "actor/reward_kl_penalty").size() > 0);
  }

  @Test
  void entropyBonusEntersTheGradient(@TempDir Path tmp) throws Exception {
    Path plain = run(tmp, "plain", 1);
    Path bonus = run(tmp, "bonus", 1, "actor_rollout_ref.actor.entropy_coeff=0.5");
    // Same batch, same weights: the losses' parts agree, the gradient carries −0.5·∇H.
    assertEquals(
        TinyRuns.series(plain, "actor/pg_loss").get(1),
        TinyRuns.series(bonus, "actor/pg_loss").get(1),
        1e-9);
    assertEquals(
        TinyRuns.series(plain, "actor/entropy").get(1),
        TinyRuns.series(bonus, "actor/entropy").get(1),
        1e-9);
    double g0 = TinyRuns.series(plain, "actor/grad_norm").get(1);
    double g1 = TinyRuns.series(bonus, "actor/grad_norm").get(1);
    assertTrue(Math.abs(g0 - g1) > 1e-6 * Math.max(1, g0), "grad_norm " + g0 + " vs " + g1);
  }

  @Test
  void everyEstimatorTrainsFromARecipe(@TempDir Path tmp) throws Exception {
    for (String est :
        List.of(
            "grpo_passk",
            "rloo",
            "opo",
            "gpg",
            "reinforce_plus_plus",
            "reinforce_plus_plus_baseline")) {
      Path dir = run(tmp, est, 1, "algorithm.adv_estimator=" + est);
      double loss = TinyRuns.series(dir, "actor/pg_loss").get(1);
      assertTrue(Double.isFinite(loss), est + " pg_loss " + loss);
    }
  }

  @Test
  void remaxSubtractsTheGreedyBaselineOfTheSameStep(@TempDir Path tmp) throws Exception {
    // One-token responses: each response's advantage is its score minus its prompt's greedy
    // baseline score, so the advantages' mean is the scores' mean minus the baselines' mean.
    Path dir = run(tmp, "remax", 2, "algorithm.adv_estimator=remax", "data.max_response_length=1");
    for (int step = 1; step <= 2; step++) {
      double score = TinyRuns.series(dir, "critic/score/mean").get(step);
      double baseline = TinyRuns.series(dir, "critic/remax_baseline/mean").get(step);
      double adv = TinyRuns.series(dir, "critic/advantages/mean").get(step);
      assertEquals(score - baseline, adv, 1e-5, "step " + step);
      assertTrue(TinyRuns.series(dir, "timing_s/gen_max").get(step) >= 0, "greedy pass timed");
      assertTrue(Double.isFinite(TinyRuns.series(dir, "actor/pg_loss").get(step)));
    }
    Path grpo = run(tmp, "grpo", 1, "data.max_response_length=1");
    assertTrue(TinyRuns.series(grpo, "critic/remax_baseline/mean").isEmpty());
    assertTrue(TinyRuns.series(grpo, "timing_s/gen_max").isEmpty());
  }
}
