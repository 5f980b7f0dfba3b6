package dev.javelin.backend.cpu;

import dev.javelin.backend.Shape;
import dev.javelin.backend.graph.DotShapes;
import dev.javelin.backend.graph.Node;
import dev.javelin.backend.graph.Op;
import dev.javelin.backend.graph.Program;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;

/**
 * Compiles a program into kernels: one per materialised value, in topological order, with fused
 * elementwise groups turned into {@link BlockProgram}s and matrix operands read through views.
 */
final class Planner {
  private final Program program;
  private final Fusion fusion;
  private final Parallel parallel;
  private final Staging staging;

  Planner(Program program, Parallel parallel, Staging staging) {
    this.program = program;
    this.fusion = new Fusion(program);
    this.parallel = parallel;
    this.staging = staging;
  }

  Fusion fusion() {
    return fusion;
  }

  /** Kernels in execution order. */
  List<Kernel> kernels() {
    List<Kernel> out = new ArrayList<>();
    for (Node n : program.nodes()) {
      Fusion.Role role = fusion.role(n);
      if (role == Fusion.Role.ROOT) {
        out.add(kernel(n));
      } else if (role == Fusion.Role.ALIAS) {
        out.add(new LayoutKernels.Alias(fusion.index(n), fusion.index(n.input(0))));
      }
    }
    return out;
  }

  private Kernel kernel(Node n) {
    int out = fusion.index(n);
    Op op = n.op();
    if (op instanceof Op.DotGeneral d) {
      return gemm(n, d);
    } else if (op instanceof Op.Reduce r) {
      return reduce(n, r);
    } else if (op instanceof Op.Concatenate c) {
      return concatenate(n, c);
    } else if (op instanceof Op.DynamicSlice) {
      List<Node> in = n.inputs();
      return new IndexKernels.DynamicSlice(
          out,
          fusion.index(in.get(0)),
          indices(in.subList(1, in.size())),
          in.get(0).shape(),
          n.shape());
    } else if (op instanceof Op.DynamicUpdateSlice) {
      return dynamicUpdateSlice(n, out);
    } else if (op instanceof Op.UpdateSlots u) {
      return updateSlots(n, u, out);
    } else if (op instanceof Op.Gather) {
      Node table = n.input(0);
      int rows = table.shape().dim(0);
      int rowSize = rows == 0 ? 0 : table.shape().intSize() / rows;
      return new IndexKernels.Gather(
          out,
          fusion.index(table),
          fusion.index(n.input(1)),
          rows,
          rowSize,
          n.input(1).shape().intSize());
    } else if (op instanceof Op.ScatterAdd s) {
      int rowSize = s.rows() == 0 ? 0 : n.shape().intSize() / s.rows();
      return new IndexKernels.ScatterAdd(
          out,
          fusion.index(n.input(0)),
          fusion.index(n.input(1)),
          n.dtype(),
          s.rows(),
          rowSize,
          n.input(0).shape().intSize());
    }
    return new FusedKernel(out, n.shape().intSize(), blockProgram(n, true), parallel);
  }

  private Kernel dynamicUpdateSlice(Node n, int out) {
    List<Node> in = n.inputs();
    Node base = in.get(0);
    boolean constant = base.op() instanceof Op.Constant && !fusion.isMaterialised(base);
    return new IndexKernels.DynamicUpdateSlice(
        out,
        fusion.index(base),
        fusion.index(in.get(1)),
        indices(in.subList(2, in.size())),
        n.shape(),
        in.get(1).shape(),
        n.dtype(),
        constant ? OptionalDouble.of(((Op.Constant) base.op()).value()) : OptionalDouble.empty());
  }

  /** (B, outer, axis, inner) view of the cache: one slot write per batch row. */
  private Kernel updateSlots(Node n, Op.UpdateSlots u, int out) {
    Shape s = n.shape();
    int outer = 1;
    for (int i = 1; i < u.axis(); i++) {
      outer *= s.dim(i);
    }
    int inner = s.intSize() / Math.max(1, s.dim(0) * outer * s.dim(u.axis()));
    return new IndexKernels.UpdateSlots(
        out,
        fusion.index(n.input(0)),
        fusion.index(n.input(1)),
        fusion.index(n.input(2)),
        s.dim(0),
        outer,
        s.dim(u.axis()),
        inner);
  }

  private int[] indices(List<Node> nodes) {
    return nodes.stream().mapToInt(fusion::index).toArray();
  }

  // ------------------------------------------------------------------ fused groups

  /**
   * The steps computing {@code root}. With {@code computeRoot} the root's own op is the last step
   * (a fused kernel); without it the root is the value being read (a reduce's operand).
   */
  private BlockProgram blockProgram(Node root, boolean computeRoot) {
    List<Step> steps = new ArrayList<>();
    Map<Node, Integer> done = new HashMap<>();
    int last = step(root, computeRoot, steps, done);
    if (last != steps.size() - 1) {
      // The result is an earlier step (e.g. a reshape of a loaded value): re-emit it last.
      steps.add(steps.get(last));
    }
    return new BlockProgram(steps);
  }

  private int step(Node n, boolean compute, List<Step> steps, Map<Node, Integer> done) {
    Integer seen = done.get(n);
    if (seen != null) {
      return seen;
    }
    int idx = emit(n, compute, steps, done);
    done.put(n, idx);
    return idx;
  }

  private int emit(Node n, boolean compute, List<Step> steps, Map<Node, Integer> done) {
    Op op = n.op();
    if (!compute && fusion.isMaterialised(n)) {
      return add(steps, new Step.Load(n.dtype(), fusion.index(n)));
    }
    if (op instanceof Op.Reshape) {
      return step(n.input(0), false, steps, done);
    } else if (op instanceof Op.Constant c) {
      return add(steps, new Step.Fill(n.dtype(), c.value()));
    } else if (op instanceof Op.Iota io) {
      int dim = io.dimension();
      return add(steps, new Step.Iota(n.dtype(), n.shape().strides()[dim], n.shape().dim(dim)));
    } else if (Fusion.isView(op)) {
      // n itself may be the materialised root being computed: start from its operand.
      Node base = viewBase(n.input(0));
      if (base.op() instanceof Op.Constant c) {
        return add(steps, new Step.Fill(n.dtype(), c.value()));
      }
      return add(steps, new Step.View(n.dtype(), fusion.index(base), viewThrough(n).merged()));
    }
    List<Integer> in = new ArrayList<>();
    for (Node x : n.inputs()) {
      in.add(step(x, false, steps, done));
    }
    Step s;
    if (op instanceof Op.Unary u) {
      s = new Step.Unary(n.dtype(), u.kind(), in.get(0));
    } else if (op instanceof Op.Binary b) {
      s = new Step.Binary(n.dtype(), b.kind(), in.get(0), in.get(1));
    } else if (op instanceof Op.Compare c) {
      s = new Step.Compare(c.direction(), n.input(0).dtype(), in.get(0), in.get(1));
    } else if (op instanceof Op.Select) {
      s = new Step.Select(n.dtype(), in.get(0), in.get(1), in.get(2));
    } else if (op instanceof Op.Convert c) {
      s = new Step.Convert(c.to(), n.input(0).dtype(), in.get(0));
    } else {
      throw new IllegalStateException("cpu device cannot fuse " + n);
    }
    return add(steps, s);
  }

  private static int add(List<Step> steps, Step s) {
    steps.add(s);
    return steps.size() - 1;
  }

  // ------------------------------------------------------------------ views

  /** The materialised value (or constant) a chain of views reads. */
  private Node viewBase(Node n) {
    Node x = n;
    while (!fusion.isMaterialised(x) && Fusion.isView(x.op())) {
      x = x.input(0);
    }
    return x;
  }

  /** n as an affine view of {@link #viewBase}. */
  private StridedView viewOf(Node n) {
    if (fusion.isMaterialised(n) || n.op() instanceof Op.Constant) {
      return StridedView.identity(n.shape());
    }
    return viewThrough(n);
  }

  /** The view op n applied to its operand's view (n's own storage, if any, is ignored). */
  private StridedView viewThrough(Node n) {
    Op op = n.op();
    StridedView in = viewOf(n.input(0));
    if (op instanceof Op.BroadcastInDim b) {
      return in.broadcast(n.shape(), b.dims());
    } else if (op instanceof Op.Transpose t) {
      return in.transpose(t.permutation());
    } else if (op instanceof Op.Slice s) {
      return in.slice(s.start(), s.strides(), n.shape());
    }
    throw new IllegalStateException("not a view: " + n);
  }

  // ------------------------------------------------------------------ other kernels

  private Kernel reduce(Node n, Op.Reduce r) {
    Node x = n.input(0);
    Shape s = x.shape();
    int[] dims = r.dims();
    if (Fusion.contiguousReduce(r)) {
      int from = dims.length == 0 ? s.rank() : dims[0];
      int to = dims.length == 0 ? s.rank() : dims[dims.length - 1] + 1;
      return new ReduceKernel(
          fusion.index(n),
          r.kind(),
          n.dtype(),
          product(s, 0, from),
          product(s, from, to),
          product(s, to, s.rank()),
          blockProgram(x, false),
          parallel);
    }
    // Reduced dims scattered: read the operand transposed to (kept..., reduced...).
    int[] perm = new int[s.rank()];
    int k = 0;
    for (int d = 0; d < s.rank(); d++) {
      if (!contains(dims, d)) {
        perm[k++] = d;
      }
    }
    for (int d : dims) {
      perm[k++] = d;
    }
    Node base = viewBase(x);
    if (base.op() instanceof Op.Constant || !fusion.isMaterialised(base)) {
      throw new IllegalStateException("reduce operand must be stored: " + x);
    }
    StridedView v = viewOf(x).transpose(perm).merged();
    int reduced = 1;
    for (int d : dims) {
      reduced *= s.dim(d);
    }
    BlockProgram read = new BlockProgram(List.of(new Step.View(x.dtype(), fusion.index(base), v)));
    return new ReduceKernel(
        fusion.index(n),
        r.kind(),
        n.dtype(),
        s.intSize() / Math.max(1, reduced),
        reduced,
        1,
        read,
        parallel);
  }

  private Kernel gemm(Node n, Op.DotGeneral d) {
    GemmOperand a = operand(n.input(0), d.lhsBatch(), d.lhsContract(), false);
    GemmOperand b = operand(n.input(1), d.rhsBatch(), d.rhsContract(), true);
    return new GemmKernel(fusion.index(n), n.dtype(), a, b, parallel, staging);
  }

  /** lhs as (batch, free, contract); rhs as (batch, contract, free). */
  private GemmOperand operand(Node x, int[] batch, int[] contract, boolean rhs) {
    int rank = x.shape().rank();
    int[] free = DotShapes.free(rank, batch, contract);
    int[] order = new int[rank];
    int k = 0;
    for (int dd : batch) {
      order[k++] = dd;
    }
    int[] first = rhs ? contract : free;
    int[] second = rhs ? free : contract;
    for (int dd : first) {
      order[k++] = dd;
    }
    for (int dd : second) {
      order[k++] = dd;
    }
    Node base = viewBase(x);
    StridedView view = viewOf(x).transpose(order);
    return new GemmOperand(
        fusion.index(base), base.shape().intSize(), view, batch.length, first.length);
  }

  private Kernel concatenate(Node n, Op.Concatenate c) {
    int dim = c.dimension();
    int outer = product(n.shape(), 0, dim);
    int[] parts = indices(n.inputs());
    int[] runs = new int[parts.length];
    for (int i = 0; i < runs.length; i++) {
      Shape s = n.input(i).shape();
      runs[i] = product(s, dim, s.rank());
    }
    return new LayoutKernels.Concatenate(fusion.index(n), parts, runs, outer);
  }

  private static int product(Shape s, int from, int to) {
    int p = 1;
    for (int i = from; i < to; i++) {
      p *= s.dim(i);
    }
    return p;
  }

  private static boolean contains(int[] a, int v) {
    for (int x : a) {
      if (x == v) {
        return true;
      }
    }
    return false;
  }
}
