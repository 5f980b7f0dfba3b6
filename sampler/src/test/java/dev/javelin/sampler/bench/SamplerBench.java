package dev.javelin.sampler.bench;

import dev.javelin.backend.Devices;
import dev.javelin.backend.checkpoint.ModelCheckpoint;
import dev.javelin.backend.model.LlamaFamily;
import dev.javelin.backend.model.ModelConfig;
import dev.javelin.backend.runtime.PolicyModel;
import dev.javelin.sampler.GenerationRequest;
import dev.javelin.sampler.SamplerConfig;
import dev.javelin.sampler.SamplerEngine;
import dev.javelin.sampler.SamplerMetrics;
import dev.javelin.sampler.SamplingParams;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;

/**
 * Sampler throughput on the CPU device with the arith-sized model (d = 128, 4 layers, 4 heads, char
 * vocabulary of 89, ~0.8M parameters). Scenarios: {@code arith} = one GRPO step's rollouts (32
 * prompts × 8, 9-token prompts, up to 8 new tokens); {@code long} = 64 requests of 32-token prompts
 * and up to 96 new tokens with EOS stops (ragged finishes, refills from a 32-row batch). Usage:
 * {@code SamplerBench [warmup] [iters]}.
 */
public final class SamplerBench {
  static final ModelConfig ARITH =
      new ModelConfig(
          89, 128, 352, 4, 4, 4, 32, 10_000, 1e-6, true, false, 64 + 128, LlamaFamily.LLAMA);

  private record Scenario(
      String name, int requests, int prompt, int maxNew, int slots, boolean greedy) {}

  private SamplerBench() {}

  public static void main(String[] args) {
    int warmup = args.length > 0 ? Integer.parseInt(args[0]) : 3;
    int iters = args.length > 1 ? Integer.parseInt(args[1]) : 10;
    System.out.printf(
        Locale.ROOT,
        "model: %.2fM params, cores %d%n",
        ARITH.parameterCount() / 1e6,
        Runtime.getRuntime().availableProcessors());
    List<Scenario> scenarios =
        List.of(
            new Scenario("arith", 256, 9, 8, 256, false),
            new Scenario("val", 500, 9, 8, 256, true),
            new Scenario("long", 64, 32, 96, 32, false));
    for (Scenario s : scenarios) {
      try (SamplerEngine engine =
          new SamplerEngine(
              PolicyModel.of(Devices.open("cpu"), ModelCheckpoint.random(ARITH, 1, 0.02)),
              new SamplerConfig(s.slots()),
              0)) {
        run(engine, s, warmup, iters);
      }
    }
  }

  private static void run(SamplerEngine engine, Scenario s, int warmup, int iters) {
    double[] seconds = new double[iters];
    double[] tps = new double[iters];
    SamplerMetrics last = null;
    for (int i = -warmup; i < iters; i++) {
      last = engine.generate(requests(s, i)).metrics();
      if (i >= 0) {
        seconds[i] = last.seconds();
        tps[i] = last.tokensPerSecond();
      }
    }
    Arrays.sort(seconds);
    Arrays.sort(tps);
    System.out.printf(
        Locale.ROOT,
        "%-6s %3d req x (%d prompt + <=%d new), %d rows: median %.1f ms/call (min %.1f),"
            + " %.0f tokens/s median (max %.0f); last call: %d tokens, %d prefills + %d decode steps%n",
        s.name(),
        s.requests(),
        s.prompt(),
        s.maxNew(),
        last.rows(),
        1e3 * seconds[iters / 2],
        1e3 * seconds[0],
        tps[iters / 2],
        tps[iters - 1],
        last.responseTokens(),
        last.prefills(),
        last.decodeSteps());
  }

  private static List<GenerationRequest> requests(Scenario s, int iteration) {
    SplittableRandom rnd = new SplittableRandom(iteration);
    SamplingParams params =
        s.greedy()
            ? SamplingParams.greedy(s.maxNew(), 2)
            : SamplingParams.sample(1.0, s.maxNew(), 2);
    List<GenerationRequest> out = new ArrayList<>();
    for (int i = 0; i < s.requests(); i++) {
      int[] prompt = rnd.ints(s.prompt(), 3, ARITH.vocabSize()).toArray();
      out.add(new GenerationRequest("r" + i, "p" + i / 8, prompt, params, rnd.nextLong()));
    }
    return out;
  }
}
