package dev.javelin.backend.optim;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.javelin.backend.Shape;
import dev.javelin.backend.Tensor;
import dev.javelin.backend.checkpoint.safetensors.SafetensorsFile;
import dev.javelin.backend.graph.Program;
import dev.javelin.backend.reference.ReferenceDevice;
import dev.javelin.backend.testing.RelError;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The AdamW program against torch.optim.AdamW + clip_grad_norm_ (tools/hf_fixtures.py). */
class AdamWTest {
  private static final AdamWConfig CFG = new AdamWConfig(0.9, 0.95, 1e-8, 0.1, 1.0);

  @Test
  void matchesTorchAdamWWithClipping() {
    Map<String, Tensor> fx = fixture();
    Map<String, Shape> shapes = new LinkedHashMap<>();
    shapes.put("w0", Shape.of(3, 4));
    shapes.put("w1", Shape.of(5));
    Program p = OptimizerPrograms.adamW(shapes, CFG);
    Tensor w0 = fx.get("w0.init");
    Tensor w1 = fx.get("w1.init");
    Tensor[] m = {Tensor.F32.zeros(Shape.of(3, 4)), Tensor.F32.zeros(Shape.of(5))};
    Tensor[] v = {Tensor.F32.zeros(Shape.of(3, 4)), Tensor.F32.zeros(Shape.of(5))};
    float[] lrs = ((Tensor.F32) fx.get("lr")).data();
    for (int step = 0; step < 3; step++) {
      List<Tensor> args = new ArrayList<>(List.of(w0, w1));
      args.add(fx.get("w0.grad" + step));
      args.add(fx.get("w1.grad" + step));
      args.addAll(List.of(m[0], m[1], v[0], v[1]));
      args.add(Tensor.scalar(lrs[step]));
      args.add(Tensor.scalar(step + 1));
      List<Tensor> out = ReferenceDevice.evaluate(p, args);
      assertEquals(fx.get("norm" + step).getDouble(0), out.get(0).getDouble(0), 1e-4);
      assertEquals(1.0, out.get(1).getDouble(0));
      w0 = out.get(2);
      w1 = out.get(3);
      m = new Tensor[] {out.get(4), out.get(5)};
      v = new Tensor[] {out.get(6), out.get(7)};
      RelError.assertClose("w0 after step " + step, fx.get("w0.after" + step), w0, 1e-5);
      RelError.assertClose("w1 after step " + step, fx.get("w1.after" + step), w1, 1e-5);
    }
  }

  @Test
  void skipsTheUpdateOnNonFiniteGradients() {
    Map<String, Shape> shapes = Map.of("w", Shape.of(2));
    Program p = OptimizerPrograms.adamW(shapes, CFG);
    Tensor.F32 w = Tensor.of(new float[] {1, 2}, 2);
    Tensor.F32 m = Tensor.of(new float[] {0.1f, 0.2f}, 2);
    Tensor.F32 v = Tensor.of(new float[] {0.3f, 0.4f}, 2);
    for (float bad : new float[] {Float.NaN, Float.POSITIVE_INFINITY}) {
      Tensor.F32 grad = Tensor.of(new float[] {bad, 1}, 2);
      List<Tensor> out =
          ReferenceDevice.evaluate(
              p, List.of(w, grad, m, v, Tensor.scalar(0.1f), Tensor.scalar(3)));
      assertEquals(0.0, out.get(1).getDouble(0), "applied flag");
      assertTrue(!Double.isFinite(out.get(0).getDouble(0)), "reported norm is not finite");
      assertArrayEquals(w.data(), ((Tensor.F32) out.get(2)).data());
      assertArrayEquals(m.data(), ((Tensor.F32) out.get(3)).data());
      assertArrayEquals(v.data(), ((Tensor.F32) out.get(4)).data());
    }
  }

  @Test
  void accumulateAddsMicroBatchGradients() {
    Program p = OptimizerPrograms.accumulate(Map.of("w", Shape.of(2)));
    List<Tensor> out =
        ReferenceDevice.evaluate(
            p, List.of(Tensor.of(new float[] {1, 2}, 2), Tensor.of(new float[] {0.5f, -4}, 2)));
    assertArrayEquals(new float[] {1.5f, -2}, ((Tensor.F32) out.get(0)).data());
  }

  static Map<String, Tensor> fixture() {
    Path file =
        Path.of(
            System.getProperty("javelin.root"),
            "tpu-backend/src/test/resources/hf/adamw.safetensors");
    Map<String, Tensor> out = new LinkedHashMap<>();
    try (SafetensorsFile f = SafetensorsFile.open(file)) {
      for (String n : f.tensors().keySet()) {
        out.put(n, f.read(n));
      }
    }
    return out;
  }
}
