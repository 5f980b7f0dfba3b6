package com.example;

import dev.javelin.recipes.api.GrpoRun;
import dev.javelin.recipes.api.RunResult;
import dev.javelin.recipes.api.RunSpec;
import java.nio.file.Path;
import java.util.Locale;

/**
 * A tiny GRPO job through Javelin's Java API: a small random-initialised model learns 1-digit sums
 * for 2 steps, scored by a lambda. Run it with {@code mvn compile exec:exec}.
 */
public final class SumsJob {
  private SumsJob() {}

  public static void main(String[] args) {
    Path out = Path.of(args.length > 0 ? args[0] : "target/sums-run");
    RunSpec spec =
        RunSpec.builder()
            .model(m -> m.tokenizer("char").randomInit(32, 1, 2, 24))
            .data(
                d ->
                    d.synthetic("arith", 16, 4)
                        .trainBatchSize(4)
                        .maxPromptLength(16)
                        .maxResponseLength(4))
            .algorithm(a -> a.advEstimator("grpo").learningRate(1e-3).ppoMiniBatchSize(4))
            .rollout(r -> r.n(4).temperature(1.0))
            .trainer(t -> t.totalSteps(2).testFreq(1).samplers(1).outputDir(out))
            // 1 for the exact sum, 0.1 for any answer that starts with a digit, else 0
            .reward(
                "sum",
                in -> {
                  String answer = in.response().strip();
                  if (answer.equals(in.groundTruth())) {
                    return 1.0;
                  }
                  return !answer.isEmpty() && Character.isDigit(answer.charAt(0)) ? 0.1 : 0.0;
                })
            .onStep(
                e ->
                    System.out.printf(
                        Locale.ROOT,
                        "step %d/%d: reward %.3f%n",
                        e.step(),
                        e.totalSteps(),
                        e.metrics().getOrDefault("critic/score/mean", Double.NaN)))
            .build();
    try (GrpoRun run = GrpoRun.start(spec)) {
      RunResult result = run.await();
      System.out.println("final checkpoint: " + result.finalCheckpoint().orElseThrow());
    } finally {
      GrpoRun.shutdown(); // ends Ray's threads, so that the JVM exits
    }
  }
}
