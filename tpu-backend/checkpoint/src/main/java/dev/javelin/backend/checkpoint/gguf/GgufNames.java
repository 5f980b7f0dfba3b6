package dev.javelin.backend.checkpoint.gguf;

import dev.javelin.backend.Tensor;
import dev.javelin.backend.model.Architecture;
import dev.javelin.backend.model.ModelConfig;
import dev.javelin.backend.model.WeightSpec;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Hugging Face weight names to llama.cpp tensor names, and the rotary row permutation. */
public final class GgufNames {
  private GgufNames() {}

  private static final Pattern LAYER = Pattern.compile("model\\.layers\\.(\\d+)\\.(.+)");

  /**
   * The llama.cpp name of a Hugging Face weight name from {@link WeightSpec}, per-layer names as
   * {@code c}'s architecture gives them.
   */
  public static String ggufName(ModelConfig c, String hfName) {
    String global =
        switch (hfName) {
          case WeightSpec.EMBED -> "token_embd.weight";
          case WeightSpec.FINAL_NORM -> "output_norm.weight";
          case WeightSpec.LM_HEAD -> "output.weight";
          default -> null;
        };
    if (global != null) {
      return global;
    }
    Matcher m = LAYER.matcher(hfName);
    String suffix =
        m.matches()
            ? c.architecture().layerTensors(c, Integer.parseInt(m.group(1))).stream()
                .filter(t -> t.suffix().equals(m.group(2)))
                .map(Architecture.LayerTensor::gguf)
                .findFirst()
                .orElse(null)
            : null;
    if (suffix == null) {
      throw new IllegalArgumentException("no llama.cpp name for weight '" + hfName + "'");
    }
    return "blk." + m.group(1) + "." + suffix;
  }

  /**
   * Undoes llama.cpp's shift of RMSNorm scales: for a family whose norms scale by {@code (offset +
   * w)} (Gemma's {@code 1 + w}) its converter stores {@code w + offset} under every {@code
   * *norm.weight}; other tensors are returned as they are. The f32 subtraction loses the low bits
   * the addition did (at most half an ulp of the stored value).
   */
  public static Tensor.F32 unshiftNorm(ModelConfig c, String hfName, Tensor.F32 t) {
    float offset = (float) c.architecture().block().normOffset();
    if (offset == 0 || !hfName.endsWith("norm.weight")) {
      return t;
    }
    float[] w = t.data().clone();
    for (int i = 0; i < w.length; i++) {
      w[i] -= offset;
    }
    return new Tensor.F32(t.shape(), w);
  }

  /**
   * Undoes llama.cpp's {@code permute(w, n_head)}: within each head, GGUF row {@code 2i + j} is
   * Hugging Face row {@code j·(Dh/2) + i} (pairs interleaved vs. halves split). Works on (rows,
   * cols) matrices and on (rows) bias vectors.
   */
  public static Tensor.F32 unpermuteRotary(Tensor.F32 t, int heads) {
    int rows = t.shape().dim(0);
    int cols = t.shape().rank() == 1 ? 1 : t.shape().intSize() / rows;
    if (rows % heads != 0 || (rows / heads) % 2 != 0) {
      throw new IllegalArgumentException(rows + " rows do not split into " + heads + " even heads");
    }
    int headDim = rows / heads;
    int half = headDim / 2;
    float[] src = t.data();
    float[] dst = new float[src.length];
    for (int h = 0; h < heads; h++) {
      for (int i = 0; i < half; i++) {
        for (int j = 0; j < 2; j++) {
          int from = h * headDim + 2 * i + j;
          int to = h * headDim + j * half + i;
          System.arraycopy(src, from * cols, dst, to * cols, cols);
        }
      }
    }
    return new Tensor.F32(t.shape(), dst);
  }
}
