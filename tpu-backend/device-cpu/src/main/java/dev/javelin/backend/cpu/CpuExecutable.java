package dev.javelin.backend.cpu;

import dev.javelin.backend.DeviceBuffer;
import dev.javelin.backend.Donation;
import dev.javelin.backend.Executable;
import dev.javelin.backend.graph.Node;
import dev.javelin.backend.graph.Program;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A program compiled for the cpu device: kernels in order over a buffer plan. Slot arrays are
 * allocated on the first run and reused by every later one, so a run allocates only its outputs.
 */
final class CpuExecutable implements Executable {
  private final Program program;
  private final List<Node> nodes;
  private final List<Kernel> kernels;
  private final BufferPlan plan;
  private final int[] parameterValues;
  private final int[] outputValues;
  private final Staging staging = new Staging();
  private final ArrayPool pool;
  private final KernelProfile profile;
  private String[] traceKeys;

  CpuExecutable(
      Program program,
      Donation donation,
      Parallel parallel,
      ArrayPool pool,
      KernelProfile profile) {
    this.pool = pool;
    this.profile = profile;
    this.program = program;
    this.nodes = program.nodes();
    Planner planner = new Planner(program, parallel, staging);
    Fusion fusion = planner.fusion();
    this.kernels = planner.kernels();
    this.parameterValues = program.parameters().stream().mapToInt(fusion::index).toArray();
    this.outputValues = program.outputs().stream().mapToInt(fusion::index).toArray();
    Set<Integer> outs = new HashSet<>();
    for (int v : outputValues) {
      outs.add(v);
    }
    Map<Integer, Integer> donated = new HashMap<>();
    donation
        .aliases()
        .forEach(
            (p, o) -> {
              int out = outputValues[o];
              if (Arrays.stream(outputValues).filter(v -> v == out).count() == 1) {
                donated.put(out, parameterValues[p]);
              }
            });
    this.plan = new BufferPlan(nodes, fusion, kernels, outs, donated);
  }

  @Override
  public Program program() {
    return program;
  }

  @Override
  public List<DeviceBuffer> run(List<? extends DeviceBuffer> arguments) {
    Frame frame = new Frame(nodes.size());
    bindArguments(frame, arguments);
    // Work arrays come from the device's bounded pool for the length of one run and go back after
    // it, so the many executables of a continuous-batching sampler (one per shape) do not each
    // hold their intermediates for ever.
    Object[] slots = takeSlots();
    try {
      List<CpuBuffer> consumed = bindStorage(frame, slots);
      runKernels(frame);
      List<DeviceBuffer> out = collectOutputs(frame);
      consumed.forEach(CpuBuffer::consume);
      return out;
    } finally {
      for (int s = 0; s < slots.length; s++) {
        pool.give(plan.slotTypes.get(s), plan.slotSizes.get(s), slots[s]);
      }
    }
  }

  private Object[] takeSlots() {
    Object[] slots = new Object[plan.slotTypes.size()];
    for (int s = 0; s < slots.length; s++) {
      slots[s] = pool.take(plan.slotTypes.get(s), plan.slotSizes.get(s));
    }
    return slots;
  }

  private void runKernels(Frame frame) {
    KernelTrace trace = KernelTrace.get();
    if (trace != null) {
      for (int i = 0; i < kernels.size(); i++) {
        long c0 = KernelTrace.threadCpuNanos();
        long t0 = System.nanoTime();
        kernels.get(i).run(frame);
        long wall = System.nanoTime() - t0;
        trace.add(traceKey(i), wall, KernelTrace.threadCpuNanos() - c0);
      }
    } else if (profile.enabled()) {
      for (Kernel k : kernels) {
        long t0 = System.nanoTime();
        k.run(frame);
        profile.add(k, System.nanoTime() - t0);
      }
    } else {
      for (Kernel k : kernels) {
        k.run(frame);
      }
    }
  }

  private String traceKey(int kernel) {
    if (traceKeys == null) {
      traceKeys = new String[kernels.size()];
    }
    if (traceKeys[kernel] == null) {
      traceKeys[kernel] = program.name() + "#" + kernel + " " + kernels.get(kernel);
    }
    return traceKeys[kernel];
  }

  private List<DeviceBuffer> collectOutputs(Frame frame) {
    List<DeviceBuffer> results = new ArrayList<>(outputValues.length);
    Set<Integer> handedOut = new HashSet<>();
    for (int v : outputValues) {
      Node node = nodes.get(v);
      Object array = frame.values[v];
      boolean fresh = plan.kinds[v] == BufferPlan.Kind.OUTPUT && handedOut.add(v);
      if (!fresh) {
        Object copy = pool.take(node.dtype(), node.shape().intSize());
        System.arraycopy(array, 0, copy, 0, node.shape().intSize());
        array = copy;
      }
      results.add(CpuBuffer.wrap(node.dtype(), node.shape(), array, pool));
    }
    return results;
  }

  private void bindArguments(Frame frame, List<? extends DeviceBuffer> arguments) {
    if (arguments.size() != parameterValues.length) {
      throw new IllegalArgumentException(
          "program '"
              + program.name()
              + "' takes "
              + parameterValues.length
              + " arguments, got "
              + arguments.size());
    }
    for (int i = 0; i < parameterValues.length; i++) {
      Node p = nodes.get(parameterValues[i]);
      DeviceBuffer b = arguments.get(i);
      if (!(b instanceof CpuBuffer cb)) {
        throw new IllegalArgumentException(
            "argument " + i + " of '" + program.name() + "' is not a cpu buffer: " + b);
      }
      if (b.dtype() != p.dtype() || !b.shape().equals(p.shape())) {
        throw new IllegalArgumentException(
            String.format(
                "argument %d (%s) of '%s' must be %s%s, got %s%s",
                i, p.op(), program.name(), p.dtype(), p.shape(), b.dtype(), b.shape()));
      }
      frame.values[parameterValues[i]] = cb.array();
      frame.arguments[parameterValues[i]] = cb;
    }
  }

  /** Binds slots and output arrays; returns the donated arguments whose arrays became outputs. */
  private List<CpuBuffer> bindStorage(Frame frame, Object[] slots) {
    List<CpuBuffer> consumed = new ArrayList<>();
    for (int v = 0; v < nodes.size(); v++) {
      switch (plan.kinds[v]) {
        case SLOT -> frame.values[v] = slots[plan.slotOf[v]];
        case OUTPUT -> {
          int p = plan.reusesArgument[v];
          if (p >= 0 && boundOnce(frame, p)) {
            frame.values[v] = frame.values[p];
            consumed.add(frame.arguments[p]);
          } else {
            Node n = nodes.get(v);
            frame.values[v] = pool.take(n.dtype(), n.shape().intSize());
          }
        }
        default -> {}
      }
    }
    return consumed;
  }

  /** Whether parameter value p's array is bound to no other parameter (it is safe to overwrite). */
  private boolean boundOnce(Frame frame, int p) {
    for (int q : parameterValues) {
      if (q != p && frame.values[q] == frame.values[p]) {
        return false;
      }
    }
    return true;
  }

  /** The kernels in order, one per line: what fused with what, and how products are laid out. */
  String describe() {
    StringBuilder sb = new StringBuilder(program.toString()).append('\n');
    for (Kernel k : kernels) {
      sb.append("  ").append(k).append('\n');
    }
    return sb.append("  slots: ")
        .append(plan.slotTypes.size())
        .append(" holding ")
        .append(plan.slotElements())
        .append(" elements\n")
        .toString();
  }

  int kernelCount() {
    return kernels.size();
  }

  @Override
  public void close() {
    staging.close();
  }
}
