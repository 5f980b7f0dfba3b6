package dev.javelin.backend.xla;

import dev.javelin.backend.DType;
import dev.javelin.backend.DeviceBuffer;
import dev.javelin.backend.Donation;
import dev.javelin.backend.Executable;
import dev.javelin.backend.Shape;
import dev.javelin.backend.graph.Node;
import dev.javelin.backend.graph.Program;
import java.util.ArrayList;
import java.util.List;

/**
 * A PJRT loaded executable for one program: what the one-chip and the partitioned forms share
 * (argument checks, freeing donated arguments, the handle's lifecycle).
 */
abstract class PjrtExecutable extends PjrtHandle implements Executable {
  final Program program;
  final Donation donation;

  PjrtExecutable(XlaDevice device, Program program, long handle, Donation donation) {
    super(device, handle);
    this.program = program;
    this.donation = donation;
  }

  @Override
  public final Program program() {
    return program;
  }

  @Override
  final String what() {
    return "executable " + program.name();
  }

  @Override
  final void destroy(long h) {
    PjrtNative.executableDestroy(device.api(), h);
  }

  /** The PJRT ids of the chips PJRT placed this executable on, in the order execute takes them. */
  final List<Integer> chips() {
    List<Integer> ids = new ArrayList<>();
    for (long d : PjrtNative.executableDevices(device.api(), handle())) {
      ids.add(device.client().idOf(d));
    }
    return ids;
  }

  /** Runs the executable over {@code args} (one per device, flattened); returns output handles. */
  final long[] execute(List<? extends DeviceBuffer> arguments, long[] args, int devices) {
    long[] results =
        PjrtNative.execute(device.api(), handle(), args, devices, program.outputs().size());
    // PJRT has moved donated arguments into outputs; free their now-empty handles
    donation.aliases().keySet().forEach(i -> arguments.get(i).close());
    return results;
  }

  /** The program's parameters, checked to match {@code arguments} in number. */
  final List<Node> parameters(List<? extends DeviceBuffer> arguments) {
    handle(); // a closed executable says so before anything else
    List<Node> params = program.parameters();
    if (arguments.size() != params.size()) {
      throw new IllegalArgumentException(
          "program takes " + params.size() + " arguments, got " + arguments.size());
    }
    return params;
  }

  /** Argument {@code i} must have the parameter's dtype and shape. */
  static void checkShape(int i, Node param, DType dtype, Shape shape) {
    if (!shape.equals(param.shape()) || dtype != param.dtype()) {
      throw new IllegalArgumentException(
          "argument "
              + i
              + " is "
              + dtype.mlirName()
              + shape
              + " but the program expects "
              + param.dtype().mlirName()
              + param.shape());
    }
  }
}
