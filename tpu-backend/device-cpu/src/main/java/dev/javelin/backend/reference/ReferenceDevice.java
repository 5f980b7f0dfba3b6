package dev.javelin.backend.reference;

import dev.javelin.backend.Device;
import dev.javelin.backend.DeviceBuffer;
import dev.javelin.backend.Executable;
import dev.javelin.backend.Tensor;
import dev.javelin.backend.graph.Barriers;
import dev.javelin.backend.graph.Program;
import java.util.ArrayList;
import java.util.List;

/**
 * The oracle device, spec {@code ref}: naive, obviously-correct kernels for every op, f32 and f64.
 * Elements are computed in double precision and rounded to the element type once per op, so f32
 * results are as accurate as an f32 op can be. Slow by design; every fast kernel is tested against
 * it.
 */
public final class ReferenceDevice implements Device {

  @Override
  public String name() {
    return "ref";
  }

  @Override
  public Executable compile(Program program) {
    return new ReferenceExecutable(Barriers.strip(program));
  }

  @Override
  public DeviceBuffer upload(Tensor tensor) {
    return new ReferenceBuffer(Value.fromTensor(tensor));
  }

  /** Convenience for tests: uploads host tensors, runs the program, and downloads the results. */
  public static List<Tensor> evaluate(Program program, List<? extends Tensor> arguments) {
    ReferenceDevice device = new ReferenceDevice();
    List<DeviceBuffer> in = new ArrayList<>();
    for (Tensor t : arguments) {
      in.add(device.upload(t));
    }
    List<Tensor> out = new ArrayList<>();
    for (DeviceBuffer b : device.compile(program).run(in)) {
      out.add(b.toHost());
    }
    return out;
  }
}
