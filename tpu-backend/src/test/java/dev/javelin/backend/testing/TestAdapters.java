package dev.javelin.backend.testing;

import dev.javelin.backend.Tensor;
import dev.javelin.backend.model.LoraAdapters;
import dev.javelin.backend.model.LoraConfig;
import dev.javelin.backend.model.ModelConfig;
import java.util.Map;
import java.util.Random;

/**
 * LoRA adapters for tests that need them to matter: fresh adapters have B = 0 and change nothing.
 */
public final class TestAdapters {
  private TestAdapters() {}

  /**
   * Adapters initialised with {@code seed}, then every B drawn from N(0, std²) with {@code bSeed}.
   */
  public static Map<String, Tensor.F32> withNonZeroB(
      LoraConfig lora, ModelConfig c, long seed, long bSeed, double std) {
    Map<String, Tensor.F32> ad = LoraAdapters.init(lora, c, seed);
    Random r = new Random(bSeed);
    for (LoraConfig.Adapter a : lora.adapters(c)) {
      float[] b = ad.get(a.b()).data();
      for (int i = 0; i < b.length; i++) {
        b[i] = (float) (std * r.nextGaussian());
      }
    }
    return ad;
  }
}
