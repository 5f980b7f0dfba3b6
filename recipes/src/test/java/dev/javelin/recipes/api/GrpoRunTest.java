package dev.javelin.recipes.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.javelin.recipes.config.ConfigException;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A run spec built in code, a lambda reward, events, metrics and the final checkpoint. */
class GrpoRunTest {

  static RunSpec.Builder tiny(Path dir) {
    return RunSpec.builder()
        .model(m -> m.tokenizer("char").randomInit(32, 1, 2, 24))
        .data(
            d ->
                d.synthetic("arith", 16, 4)
                    .trainBatchSize(4)
                    .maxPromptLength(16)
                    .maxResponseLength(4))
        .algorithm(a -> a.advEstimator("grpo").learningRate(1e-3).ppoMiniBatchSize(4))
        .rollout(r -> r.n(4).temperature(1.0))
        .trainer(t -> t.totalSteps(2).testFreq(1).samplers(1).outputDir(dir));
  }

  @Test
  void lambdaRewardRunsTwoStepsAndReportsEventsMetricsAndCheckpoint(@TempDir Path dir) {
    AtomicInteger calls = new AtomicInteger();
    List<RunEvent> events = new CopyOnWriteArrayList<>();
    ByteArrayOutputStream console = new ByteArrayOutputStream();
    RunSpec spec =
        tiny(dir.resolve("run"))
            .reward(
                "has-digit",
                in -> {
                  calls.incrementAndGet();
                  return in.response().chars().anyMatch(Character::isDigit) ? 1.0 : 0.0;
                })
            .onStep(events::add)
            .console(new PrintStream(console, true, StandardCharsets.UTF_8))
            .build();
    RunResult result;
    try (GrpoRun run = GrpoRun.start(spec)) {
      result = run.await();
      assertTrue(run.isDone());
      assertEquals(result.metrics(), run.metrics());
    }
    assertTrue(calls.get() >= 2 * 4 * 4, "the lambda scored every rollout: " + calls.get());
    assertEquals(List.of(0, 1, 2), events.stream().map(RunEvent::step).toList());
    assertEquals(2, events.get(2).totalSteps());
    assertTrue(result.metrics().containsKey("critic/score/mean"), result.metrics().toString());
    assertEquals(2, result.summary().lastStep());
    Path ckpt = result.finalCheckpoint().orElseThrow();
    assertEquals("global_step_2", ckpt.getFileName().toString());
    assertTrue(
        Files.isRegularFile(ckpt.resolve("config.json")) || Files.isDirectory(ckpt),
        ckpt.toString());
    String printed = console.toString(StandardCharsets.UTF_8);
    assertTrue(
        printed.contains("(spec built in code): 16 train / 4 val prompts, 2 steps"), printed);
    assertNotNull(result.runDir());
  }

  @Test
  void aBadValueFailsAtBuildNamingTheKey(@TempDir Path dir) {
    ConfigException e =
        assertThrows(
            ConfigException.class, () -> tiny(dir).algorithm(a -> a.ppoMiniBatchSize(3)).build());
    assertTrue(
        e.getMessage().contains("actor_rollout_ref.actor.ppo_mini_batch_size"), e.getMessage());
    ConfigException unknown =
        assertThrows(ConfigException.class, () -> tiny(dir).set("trainer.totl_steps", 2).build());
    assertTrue(unknown.getMessage().contains("trainer.totl_steps"), unknown.getMessage());
  }

  @Test
  void aRecipeFileFillsTheSpecAndTheBuilderOverridesIt(@TempDir Path dir) {
    RunSpec spec =
        RunSpec.fromRecipe("arith-grpo")
            .model(m -> m.randomInit(32, 1, 2, 24))
            .trainer(t -> t.experimentName("0.5").outputDir(dir))
            .build();
    assertEquals("0.5", spec.recipe().trainer().experimentName(), "a number-like string stays one");
    assertEquals(8, spec.recipe().rollout().n(), "from the recipe file");
    assertEquals(dir, spec.recipe().trainer().defaultLocalDir());
  }
}
