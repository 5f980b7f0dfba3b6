package dev.javelin.backend.cpu;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.javelin.backend.DType;
import dev.javelin.backend.DeviceBuffer;
import dev.javelin.backend.Executable;
import dev.javelin.backend.Tensor;
import dev.javelin.backend.graph.Program;
import dev.javelin.backend.reference.ReferenceDevice;
import dev.javelin.backend.testing.Tensors;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Runs a program on the cpu device and on the reference device and compares every output. Each
 * program runs twice on the cpu device, so reused buffers from the first run must not leak into the
 * second.
 */
final class CpuCheck {
  /** f32 tolerance: error scaled by max(1, |expected|). */
  static final double F32_TOL = 1e-5;

  /** bf16 outputs: at most this share of elements may differ from the reference (see Tensors). */
  static final double BF16_DIFFERING = 0.02;

  /** Two workers even on a one-core machine, so the parallel paths are always exercised. */
  static final CpuDevice CPU = new CpuDevice(2);

  private CpuCheck() {}

  static List<Tensor> runCpu(Executable e, List<Tensor> inputs) {
    List<DeviceBuffer> args = new ArrayList<>();
    for (Tensor t : inputs) {
      args.add(CPU.upload(t));
    }
    List<Tensor> out = new ArrayList<>();
    for (DeviceBuffer b : e.run(args)) {
      out.add(b.toHost());
      b.close();
    }
    return out;
  }

  static List<Tensor> matches(Program p, Tensor... inputs) {
    return matches(p, F32_TOL, List.of(inputs));
  }

  static List<Tensor> matches(Program p, double tol, List<Tensor> inputs) {
    List<Tensor> expected = ReferenceDevice.evaluate(p, inputs);
    try (Executable e = CPU.compile(p)) {
      List<Tensor> first = runCpu(e, inputs);
      List<Tensor> second = runCpu(e, inputs);
      assertEquals(expected.size(), first.size(), p.name() + ": output count");
      for (int i = 0; i < expected.size(); i++) {
        String what = p.name() + " output " + i;
        assertEquals(expected.get(i).dtype(), first.get(i).dtype(), what + " dtype");
        if (expected.get(i).dtype() == DType.BF16) {
          Tensors.assertBf16Agree(expected.get(i), first.get(i), BF16_DIFFERING, what);
        } else {
          Tensors.assertClose(expected.get(i), first.get(i), tol, what);
        }
        assertEquals(
            Arrays.toString(Tensors.toDoubles(first.get(i))),
            Arrays.toString(Tensors.toDoubles(second.get(i))),
            what + ": second run differs from the first");
      }
      return first;
    }
  }
}
