package dev.javelin.backend.reference;

import dev.javelin.backend.graph.Node;
import dev.javelin.backend.graph.Op;
import dev.javelin.backend.graph.Program;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** Evaluates a program node by node in topological order with the naive kernels. */
final class Interpreter {
  private Interpreter() {}

  /** Runs {@code program} on argument values (already checked) and returns its outputs. */
  static List<Value> run(Program program, List<Value> arguments) {
    Map<Node, Value> values = new HashMap<>();
    for (Node n : program.nodes()) {
      Value v;
      if (n.op() instanceof Op.Parameter p) {
        v = arguments.get(p.index());
      } else {
        List<Value> in = new ArrayList<>(n.inputs().size());
        for (Node i : n.inputs()) {
          in.add(values.get(i));
        }
        v = evaluate(n, in);
      }
      values.put(n, v);
    }
    List<Value> out = new ArrayList<>();
    for (Node o : program.outputs()) {
      out.add(values.get(o));
    }
    return out;
  }

  private static Value evaluate(Node n, List<Value> in) {
    Op op = n.op();
    if (op instanceof Op.Constant c) {
      return ElementwiseKernels.constant(c.value(), n.dtype(), n.shape());
    } else if (op instanceof Op.Iota i) {
      return ElementwiseKernels.iota(n.dtype(), n.shape(), i.dimension());
    } else if (op instanceof Op.Unary u) {
      return ElementwiseKernels.unary(u.kind(), in.get(0));
    } else if (op instanceof Op.Binary b) {
      return ElementwiseKernels.binary(b.kind(), in.get(0), in.get(1));
    } else if (op instanceof Op.Compare c) {
      return ElementwiseKernels.compare(c.direction(), in.get(0), in.get(1));
    } else if (op instanceof Op.Select) {
      return ElementwiseKernels.select(in.get(0), in.get(1), in.get(2));
    } else if (op instanceof Op.Convert c) {
      return ElementwiseKernels.convert(in.get(0), c.to());
    }
    return evaluateStructural(n, in);
  }

  private static Value evaluateStructural(Node n, List<Value> in) {
    Op op = n.op();
    if (op instanceof Op.BroadcastInDim b) {
      return LayoutKernels.broadcastInDim(in.get(0), n.shape(), b.dims());
    } else if (op instanceof Op.Reduce r) {
      return LayoutKernels.reduce(in.get(0), r.kind(), r.dims(), n.shape());
    } else if (op instanceof Op.Reshape) {
      return LayoutKernels.reshape(in.get(0), n.shape());
    } else if (op instanceof Op.Transpose t) {
      return LayoutKernels.transpose(in.get(0), t.permutation(), n.shape());
    } else if (op instanceof Op.DotGeneral d) {
      return DotKernel.dotGeneral(d, in.get(0), in.get(1), n.shape(), n.dtype());
    } else if (op instanceof Op.Slice s) {
      return LayoutKernels.slice(in.get(0), s.start(), s.strides(), n.shape());
    } else if (op instanceof Op.Concatenate c) {
      return LayoutKernels.concatenate(in, c.dimension(), n.shape());
    } else if (op instanceof Op.DynamicUpdateSlice) {
      return IndexKernels.dynamicUpdateSlice(in.get(0), in.get(1), in.subList(2, in.size()));
    } else if (op instanceof Op.DynamicSlice) {
      return IndexKernels.dynamicSlice(in.get(0), in.subList(1, in.size()), n.shape());
    } else if (op instanceof Op.UpdateSlots u) {
      return IndexKernels.updateSlots(in.get(0), in.get(1), in.get(2), u.axis());
    } else if (op instanceof Op.Gather) {
      return IndexKernels.gather(in.get(0), in.get(1), n.shape());
    } else if (op instanceof Op.ScatterAdd) {
      return IndexKernels.scatterAdd(in.get(0), in.get(1), n.shape());
    }
    throw new UnsupportedOperationException("reference device cannot evaluate " + n);
  }
}
