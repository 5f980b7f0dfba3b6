package dev.javelin.backend.model;

import dev.javelin.backend.Shape;
import dev.javelin.backend.Tensor;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Random;

/** Fresh adapters and merging them into the base weights, on the host. */
public final class LoraAdapters {
  private LoraAdapters() {}

  /**
   * A and B of every adapter, by name: A Kaiming-uniform as PEFT draws it ({@code a = √5}, so
   * bounds ±1/√in), B zeros, so a fresh adapter leaves the model's output unchanged.
   */
  public static Map<String, Tensor.F32> init(LoraConfig lora, ModelConfig c, long seed) {
    Random rnd = new Random(seed);
    Map<String, Tensor.F32> out = new LinkedHashMap<>();
    for (LoraConfig.Adapter a : lora.adapters(c)) {
      float[] data = new float[a.rank() * a.in()];
      double bound = 1.0 / Math.sqrt(a.in());
      for (int i = 0; i < data.length; i++) {
        data[i] = (float) ((2 * rnd.nextDouble() - 1) * bound);
      }
      out.put(a.a(), new Tensor.F32(Shape.of(a.rank(), a.in()), data));
      out.put(a.b(), Tensor.F32.zeros(Shape.of(a.out(), a.rank())));
    }
    return out;
  }

  /** Checks that {@code adapters} holds exactly A and B of every adapter, at their shapes. */
  public static void check(LoraConfig lora, ModelConfig c, Map<String, ? extends Tensor> adapters) {
    int n = 0;
    for (LoraConfig.Adapter a : lora.adapters(c)) {
      need(adapters, a.a(), Shape.of(a.rank(), a.in()));
      need(adapters, a.b(), Shape.of(a.out(), a.rank()));
      n += 2;
    }
    if (adapters.size() != n) {
      throw new IllegalArgumentException(
          "adapters hold " + adapters.size() + " tensors, LoRA config needs " + n);
    }
  }

  private static void need(Map<String, ? extends Tensor> m, String name, Shape shape) {
    Tensor t = m.get(name);
    if (t == null || !t.shape().equals(shape)) {
      throw new IllegalArgumentException(
          "adapter '" + name + "' must be " + shape + ", got " + (t == null ? "none" : t.shape()));
    }
  }

  /**
   * A and {@code scale · B} of every adapter, in adapter order: what a weight sync of adapters
   * carries, so the receiver needs neither alpha nor r ({@link LoraConfig#ofScaled}). Merging these
   * with a scale of 1 gives bit for bit what {@link #merge} gives with the real B: both multiply
   * each B entry by the same f32 scale once.
   */
  public static Map<String, Tensor.F32> scaledForSync(
      LoraConfig lora, ModelConfig c, Map<String, Tensor.F32> ad) {
    Map<String, Tensor.F32> out = new LinkedHashMap<>();
    float scale = (float) lora.scale();
    for (LoraConfig.Adapter a : lora.adapters(c)) {
      float[] b = ad.get(a.b()).data().clone(); // (out, r)
      for (int i = 0; i < b.length; i++) {
        b[i] = scale * b[i];
      }
      out.put(a.a(), ad.get(a.a()));
      out.put(a.b(), new Tensor.F32(Shape.of(a.out(), a.rank()), b));
    }
    return out;
  }

  /**
   * The base weights with every adapter folded in: {@code W + scale · B A} (out, in). Other weights
   * are shared, not copied.
   */
  public static Map<String, Tensor.F32> merge(
      LoraConfig lora, ModelConfig c, Map<String, Tensor.F32> base, Map<String, Tensor.F32> ad) {
    Map<String, Tensor.F32> out = new LinkedHashMap<>(base);
    float scale = (float) lora.scale();
    for (LoraConfig.Adapter a : lora.adapters(c)) {
      float[] w = base.get(a.base()).data().clone(); // (out, in)
      float[] am = ad.get(a.a()).data(); // (r, in)
      float[] bm = ad.get(a.b()).data(); // (out, r)
      int r = a.rank();
      int in = a.in();
      for (int o = 0; o < a.out(); o++) {
        int row = o * in;
        for (int k = 0; k < r; k++) {
          float s = scale * bm[o * r + k];
          if (s == 0) {
            continue;
          }
          int ak = k * in;
          for (int j = 0; j < in; j++) {
            w[row + j] += s * am[ak + j];
          }
        }
      }
      out.put(a.base(), new Tensor.F32(Shape.of(a.out(), in), w));
    }
    return out;
  }
}
