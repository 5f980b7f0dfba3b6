package dev.javelin.sampler;

import dev.javelin.backend.Devices;
import dev.javelin.backend.checkpoint.ModelCheckpoint;
import dev.javelin.backend.model.LlamaFamily;
import dev.javelin.backend.model.ModelConfig;
import dev.javelin.backend.runtime.PolicyModel;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/** A micro random policy on the CPU device, and request builders, for engine tests. */
final class TinyPolicy {
  static final ModelConfig CONFIG =
      new ModelConfig(40, 64, 128, 2, 4, 2, 16, 10_000, 1e-6, true, true, 64, LlamaFamily.QWEN2);

  private TinyPolicy() {}

  static ModelCheckpoint checkpoint(long seed) {
    return ModelCheckpoint.random(CONFIG, seed, 0.3);
  }

  static PolicyModel model(long seed) {
    return PolicyModel.of(Devices.open("cpu"), checkpoint(seed));
  }

  static SamplerEngine engine(long seed, int maxSlots) {
    return new SamplerEngine(model(seed), new SamplerConfig(maxSlots), 0);
  }

  /** {@code n} requests with random prompts of 2..9 tokens (ids 1..39). */
  static List<GenerationRequest> requests(int n, SamplingParams params) {
    Random rnd = new Random(17);
    List<GenerationRequest> out = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      int[] prompt = new int[2 + rnd.nextInt(8)];
      for (int j = 0; j < prompt.length; j++) {
        prompt[j] = 1 + rnd.nextInt(CONFIG.vocabSize() - 1);
      }
      out.add(new GenerationRequest("req" + i, "prompt" + i / 4, prompt, params, 7_000 + i));
    }
    return out;
  }
}
