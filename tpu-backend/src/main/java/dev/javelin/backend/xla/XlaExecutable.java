package dev.javelin.backend.xla;

import dev.javelin.backend.DeviceBuffer;
import dev.javelin.backend.Donation;
import dev.javelin.backend.Executable;
import dev.javelin.backend.graph.Node;
import dev.javelin.backend.graph.Program;
import java.util.ArrayList;
import java.util.List;

/**
 * A PJRT loaded executable for one program; closing destroys it. Arguments named by its {@link
 * Donation} are consumed by each run.
 */
final class XlaExecutable implements Executable {
  private final XlaDevice device;
  private final Program program;
  private final Donation donation;
  private long handle;

  XlaExecutable(XlaDevice device, Program program, long handle, Donation donation) {
    this.device = device;
    this.program = program;
    this.handle = handle;
    this.donation = donation;
  }

  @Override
  public Program program() {
    return program;
  }

  /** The PJRT ids of the chips PJRT placed this executable on. */
  List<Integer> chips() {
    List<Integer> ids = new ArrayList<>();
    for (long d : PjrtNative.executableDevices(device.api(), handle)) {
      ids.add(device.client().idOf(d));
    }
    return ids;
  }

  @Override
  public List<DeviceBuffer> run(List<? extends DeviceBuffer> arguments) {
    if (handle == 0) {
      throw new IllegalStateException("executable is closed");
    }
    List<Node> params = program.parameters();
    if (arguments.size() != params.size()) {
      throw new IllegalArgumentException(
          "program takes " + params.size() + " arguments, got " + arguments.size());
    }
    long[] args = new long[arguments.size()];
    for (int i = 0; i < args.length; i++) {
      args[i] = argument(i, params.get(i), arguments.get(i));
    }
    List<Node> outs = program.outputs();
    long[] results = PjrtNative.execute(device.api(), handle, args, 1, outs.size());
    // PJRT has moved donated arguments into outputs; free their now-empty handles
    donation.aliases().keySet().forEach(i -> arguments.get(i).close());
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
    if (!x.shape().equals(param.shape()) || x.dtype() != param.dtype()) {
      throw new IllegalArgumentException(
          "argument "
              + i
              + " is "
              + x.dtype().mlirName()
              + x.shape()
              + " but the program expects "
              + param.dtype().mlirName()
              + param.shape());
    }
    return x.handle();
  }

  @Override
  public void close() {
    if (handle != 0) {
      long h = handle;
      handle = 0;
      device.release(this);
      PjrtNative.executableDestroy(device.api(), h);
    }
  }
}
