package dev.javelin.backend.runtime;

import dev.javelin.backend.DeviceBuffer;
import dev.javelin.backend.Shape;
import dev.javelin.backend.Tensor;
import dev.javelin.backend.batch.TokenLogProbs;
import dev.javelin.backend.graph.VjpPrograms;
import java.util.ArrayList;
import java.util.List;

/**
 * A host loss's cotangents, checked against the batch and uploaded as the split backward takes
 * them.
 */
final class CotangentUploads {
  private CotangentUploads() {}

  /**
   * Cotangents (B, C) checked, then padded to the program's C' columns and uploaded; the
   * load-balancing loss's, where the split takes one, is the scalar {@code aux}.
   */
  static List<DeviceBuffer> of(
      PolicyModel model,
      VjpPrograms split,
      PolicyOptimizer.Cotangents cot,
      int b,
      int c,
      int padded,
      float aux) {
    Shape want = Shape.of(b, c);
    for (int idx : split.cotangentOutputs()) {
      if (idx == 2) {
        continue;
      }
      Tensor.F32 dy = idx == 0 ? cot.dLogp() : cot.dEntropy();
      if (dy == null || !dy.shape().equals(want)) {
        throw new IllegalArgumentException(
            (idx == 0 ? "dLogp" : "dEntropy")
                + " must be "
                + want
                + ", got "
                + (dy == null ? "null" : dy.shape()));
      }
    }
    List<DeviceBuffer> dys = new ArrayList<>();
    for (int idx : split.cotangentOutputs()) {
      Tensor dy =
          idx == 2
              ? Tensor.scalar(aux)
              : TokenLogProbs.padColumns(idx == 0 ? cot.dLogp() : cot.dEntropy(), padded);
      dys.add(model.upload("cotangent." + idx, dy));
    }
    return dys;
  }
}
