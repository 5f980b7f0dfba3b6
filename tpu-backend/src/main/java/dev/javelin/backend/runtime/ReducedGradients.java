package dev.javelin.backend.runtime;

import dev.javelin.backend.DeviceBuffer;
import dev.javelin.backend.Shape;
import dev.javelin.backend.Tensor;
import dev.javelin.backend.optim.OptimizerPrograms;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A gang step's gradient sum: this rank's device sum copied to the host (zeros where it computed no
 * micro-batch), summed over the ranks by the {@link GradientReducer}, and uploaded again as the
 * update's gradients. The scalars (loss and load-balancing sums) are summed in the same call.
 */
final class ReducedGradients {
  private ReducedGradients() {}

  /** Consumes {@code local} (closing it); returns the gang's sums on the device. */
  static List<DeviceBuffer> sum(
      PolicyModel model, List<DeviceBuffer> local, double[] scalars, GradientReducer reducer) {
    Map<String, Shape> shapes = model.trainableShapes();
    List<String> names = new ArrayList<>(shapes.keySet());
    float[][] host = new float[names.size()][];
    for (int k = 0; k < names.size(); k++) {
      if (local == null) {
        host[k] = new float[shapes.get(names.get(k)).intSize()];
        continue;
      }
      Tensor t = local.get(k).toHost();
      if (!(t instanceof Tensor.F32 f)) {
        throw new IllegalStateException(
            "gradient of " + names.get(k) + " is " + t.dtype() + ", a gang sums f32 gradients");
      }
      host[k] = f.data();
    }
    if (local != null) {
      local.forEach(DeviceBuffer::close);
    }
    reducer.sum(host, scalars);
    List<DeviceBuffer> out = new ArrayList<>(names.size());
    for (int k = 0; k < names.size(); k++) {
      String n = names.get(k);
      out.add(model.upload(OptimizerPrograms.grad(n), new Tensor.F32(shapes.get(n), host[k])));
    }
    return out;
  }
}
