package dev.javelin.backend.checkpoint.gguf;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.javelin.backend.Shape;
import dev.javelin.backend.Tensor;
import dev.javelin.backend.model.ModelConfig;
import org.junit.jupiter.api.Test;

class GgufNamesTest {
  @Test
  void mapsHuggingFaceNames() {
    ModelConfig c = ModelConfig.tiny(); // a Qwen2 block: q/k/v biases
    assertEquals("token_embd.weight", GgufNames.ggufName(c, "model.embed_tokens.weight"));
    assertEquals("output_norm.weight", GgufNames.ggufName(c, "model.norm.weight"));
    assertEquals("output.weight", GgufNames.ggufName(c, "lm_head.weight"));
    assertEquals(
        "blk.12.attn_q.weight", GgufNames.ggufName(c, "model.layers.12.self_attn.q_proj.weight"));
    assertEquals(
        "blk.0.attn_k.bias", GgufNames.ggufName(c, "model.layers.0.self_attn.k_proj.bias"));
    assertEquals(
        "blk.3.attn_output.weight",
        GgufNames.ggufName(c, "model.layers.3.self_attn.o_proj.weight"));
    assertEquals(
        "blk.3.ffn_norm.weight",
        GgufNames.ggufName(c, "model.layers.3.post_attention_layernorm.weight"));
    assertEquals(
        "blk.1.ffn_down.weight", GgufNames.ggufName(c, "model.layers.1.mlp.down_proj.weight"));
    assertThrows(
        IllegalArgumentException.class, () -> GgufNames.ggufName(c, "model.rotary.inv_freq"));
  }

  /**
   * llama.cpp's permute, written as the converter does: (H, 2, Dh/2, C) -> swap -> (H, Dh/2, 2, C).
   */
  private static float[] permute(float[] w, int heads, int rows, int cols) {
    int half = rows / heads / 2;
    float[] out = new float[w.length];
    for (int h = 0; h < heads; h++) {
      for (int j = 0; j < 2; j++) {
        for (int i = 0; i < half; i++) {
          int from = (h * 2 + j) * half + i;
          int to = (h * half + i) * 2 + j;
          System.arraycopy(w, from * cols, out, to * cols, cols);
        }
      }
    }
    return out;
  }

  @Test
  void unpermuteInvertsTheConverterPermutation() {
    int heads = 3;
    int rows = 3 * 8;
    int cols = 5;
    float[] hf = new float[rows * cols];
    for (int i = 0; i < hf.length; i++) {
      hf[i] = i;
    }
    Tensor.F32 gguf = new Tensor.F32(Shape.of(rows, cols), permute(hf, heads, rows, cols));
    assertArrayEquals(hf, GgufNames.unpermuteRotary(gguf, heads).data());
    float[] bias = new float[rows];
    for (int i = 0; i < rows; i++) {
      bias[i] = i;
    }
    Tensor.F32 b = new Tensor.F32(Shape.of(rows), permute(bias, heads, rows, 1));
    assertArrayEquals(bias, GgufNames.unpermuteRotary(b, heads).data());
  }
}
