package dev.javelin.backend.xla;

import dev.javelin.backend.DeviceBuffer;
import dev.javelin.backend.Donation;
import dev.javelin.backend.graph.Node;
import dev.javelin.backend.graph.Program;
import java.util.ArrayList;
import java.util.List;

/**
 * A PJRT loaded executable for one program; closing destroys it. Arguments named by its {@link
 * Donation} are consumed by each run.
 */
final class XlaExecutable extends PjrtExecutable {
  XlaExecutable(XlaDevice device, Program program, long handle, Donation donation) {
    super(device, program, handle, donation);
  }

  @Override
  public List<DeviceBuffer> run(List<? extends DeviceBuffer> arguments) {
    List<Node> params = parameters(arguments);
    long[] args = new long[arguments.size()];
    for (int i = 0; i < args.length; i++) {
      args[i] = argument(i, params.get(i), arguments.get(i));
    }
    List<Node> outs = program.outputs();
    long[] results = execute(arguments, args, 1);
    List<DeviceBuffer> buffers = new ArrayList<>(results.length);
    for (int i = 0; i < results.length; i++) {
      buffers.add(device.adopt(results[i], outs.get(i).shape(), outs.get(i).dtype()));
    }
    return buffers;
  }

  private long argument(int i, Node param, DeviceBuffer arg) {
    if (!(arg instanceof XlaBuffer x) || x.device() != device) {
      throw new IllegalArgumentException("argument " + i + " is not a buffer of " + device.name());
    }
    checkShape(i, param, x.dtype(), x.shape());
    return x.handle();
  }
}
