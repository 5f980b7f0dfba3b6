package dev.javelin.backend.graph;

import dev.javelin.backend.DType;
import dev.javelin.backend.Shape;
import dev.javelin.backend.graph.Op.BinaryKind;
import dev.javelin.backend.graph.Op.Direction;
import dev.javelin.backend.graph.Op.ReduceKind;
import dev.javelin.backend.graph.Op.UnaryKind;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Builds a program one primitive op at a time, checking and inferring shapes as it goes, so a wrong
 * model is caught where it is written rather than when it runs. Operands must come from this
 * builder.
 *
 * <p>The op set's one front door, one short method per primitive op; {@link ShapeRules} holds the
 * typing rule of each.
 */
public final class GraphBuilder {
  private final String name;
  private final List<Node> parameters = new ArrayList<>();
  private int nextId;
  private int segments;
  private int openSegment = -1;
  private final LoopResults loopResults = new LoopResults();

  public GraphBuilder(String name) {
    this.name = name;
  }

  public String name() {
    return name;
  }

  /** Finishes the program with the given outputs. */
  public Program build(List<Node> outputs) {
    return new Program(name, parameters, outputs);
  }

  public Program build(Node... outputs) {
    return build(List.of(outputs));
  }

  /**
   * Adds a node; used by the methods below and by graph transformations such as autodiff. A {@link
   * Op.LoopResult} adds every result of its loop at once (or returns the one already added over the
   * same operands): the results of one loop are one op, and a gradient added later that reads
   * another result of the loop (a scan's saved carries) finds it among the forward values.
   */
  public Node add(Op op, List<Node> inputs, Shape shape, DType dtype) {
    if (op instanceof Op.LoopResult r) {
      return loopResults.of(r, inputs, this::node);
    }
    return node(op, inputs, shape, dtype);
  }

  private Node node(Op op, List<Node> inputs, Shape shape, DType dtype) {
    return new Node(nextId++, op, inputs, shape, dtype, openSegment);
  }

  /**
   * Opens a recomputation segment (a decoder block, a chunk of the LM head): nodes added until
   * {@link #endSegment} belong to it, and under {@link Remat#BLOCKS} the backward pass recomputes
   * them from the segment's inputs just before it needs them, like {@code jax.checkpoint} around
   * the block. Segments do not nest. Devices and the StableHLO lowering ignore them.
   */
  public void beginSegment() {
    if (openSegment >= 0) {
      throw new IllegalStateException("segment " + openSegment + " is still open");
    }
    openSegment = segments++;
  }

  /** Closes the open segment; {@code outputs} are kept for the backward pass, not recomputed. */
  public void endSegment(Node... outputs) {
    if (openSegment < 0) {
      throw new IllegalStateException("no segment is open");
    }
    for (Node n : outputs) {
      if (n.segment() == openSegment) {
        n.setSegment(Node.KEPT);
      }
    }
    openSegment = -1;
  }

  // ---------------------------------------------------------------- leaves

  public Node parameter(String paramName, DType dtype, Shape shape) {
    Node p = add(new Op.Parameter(parameters.size(), paramName), List.of(), shape, dtype);
    parameters.add(p);
    return p;
  }

  public Node constant(double value, DType dtype, Shape shape) {
    return add(new Op.Constant(value), List.of(), shape, dtype);
  }

  /** An f32 scalar constant. */
  public Node scalar(double value) {
    return constant(value, DType.F32, Shape.scalar());
  }

  /** A constant of x's type and shape. */
  public Node full(Node like, double value) {
    return constant(value, like.dtype(), like.shape());
  }

  public Node iota(DType dtype, Shape shape, int dimension) {
    ShapeRules.checkAxis(shape, dimension);
    return add(new Op.Iota(dimension), List.of(), shape, dtype);
  }

  /**
   * Marks {@code x} (dimension 0 the batch) as an activation a sharded program keeps split over the
   * batch axis ({@link Node#batchMajor}); returns x. The value is unchanged on every device.
   */
  public Node batchMajor(Node x) {
    if (x.shape().rank() == 0) {
      throw new IllegalArgumentException("a scalar has no batch dimension: " + x);
    }
    x.markBatchMajor();
    return x;
  }

  /**
   * Marks {@code x} as a constant for differentiation and returns it: {@link Autodiff} sends no
   * gradient into or through it, at any use. No op is added, so devices and the StableHLO lowering
   * are unaffected. Typical use: the max subtracted for a stable softmax or log-sum-exp, whose
   * exact gradient contribution is zero. (Asking for the gradient with respect to a stopped node
   * itself still gives it; only its inputs are cut off.)
   */
  public Node stopGradient(Node x) {
    x.stopGradient();
    return x;
  }

  /**
   * The values of {@code xs}, each read through one shared fence ({@link Op.OptimizationBarrier}):
   * the results are equal to {@code xs} but the compiler may neither merge computations on them
   * with computations on {@code xs} nor start those computations before all of {@code xs} exist.
   */
  public List<Node> optimizationBarrier(List<Node> xs) {
    if (xs.isEmpty()) {
      throw new IllegalArgumentException("optimization_barrier needs at least one operand");
    }
    List<Node> out = new ArrayList<>(xs.size());
    for (int i = 0; i < xs.size(); i++) {
      Node x = xs.get(i);
      out.add(add(new Op.OptimizationBarrier(i), xs, x.shape(), x.dtype()));
    }
    return out;
  }

  // ------------------------------------------------------------ elementwise

  public Node unary(UnaryKind kind, Node x) {
    ShapeRules.requireFloating(x, kind.name());
    return add(new Op.Unary(kind), List.of(x), x.shape(), x.dtype());
  }

  public Node neg(Node x) {
    return x.dtype().isFloating()
        ? unary(UnaryKind.NEG, x)
        : add(new Op.Unary(UnaryKind.NEG), List.of(x), x.shape(), x.dtype());
  }

  public Node exp(Node x) {
    return unary(UnaryKind.EXP, x);
  }

  public Node log(Node x) {
    return unary(UnaryKind.LOG, x);
  }

  public Node tanh(Node x) {
    return unary(UnaryKind.TANH, x);
  }

  public Node logistic(Node x) {
    return unary(UnaryKind.LOGISTIC, x);
  }

  public Node rsqrt(Node x) {
    return unary(UnaryKind.RSQRT, x);
  }

  public Node sqrt(Node x) {
    return unary(UnaryKind.SQRT, x);
  }

  public Node abs(Node x) {
    return unary(UnaryKind.ABS, x);
  }

  public Node binary(BinaryKind kind, Node a, Node b) {
    ShapeRules.requireSameShapeAndType(a, b, kind.name());
    return add(new Op.Binary(kind), List.of(a, b), a.shape(), a.dtype());
  }

  public Node add(Node a, Node b) {
    return binary(BinaryKind.ADD, a, b);
  }

  public Node sub(Node a, Node b) {
    return binary(BinaryKind.SUB, a, b);
  }

  public Node mul(Node a, Node b) {
    return binary(BinaryKind.MUL, a, b);
  }

  public Node div(Node a, Node b) {
    return binary(BinaryKind.DIV, a, b);
  }

  public Node max(Node a, Node b) {
    return binary(BinaryKind.MAX, a, b);
  }

  public Node min(Node a, Node b) {
    return binary(BinaryKind.MIN, a, b);
  }

  public Node pow(Node a, Node b) {
    return binary(BinaryKind.POW, a, b);
  }

  public Node compare(Node a, Node b, Direction direction) {
    ShapeRules.requireSameShapeAndType(a, b, "compare " + direction);
    return add(new Op.Compare(direction), List.of(a, b), a.shape(), DType.PRED);
  }

  public Node select(Node pred, Node onTrue, Node onFalse) {
    ShapeRules.checkSelect(pred, onTrue, onFalse);
    return add(new Op.Select(), List.of(pred, onTrue, onFalse), onTrue.shape(), onTrue.dtype());
  }

  public Node convert(Node x, DType to) {
    return x.dtype() == to ? x : add(new Op.Convert(to), List.of(x), x.shape(), to);
  }

  // ---------------------------------------------------------------- shapes

  /** StableHLO broadcast_in_dim: operand dim i maps to result dim {@code dims[i]}. */
  public Node broadcastInDim(Node x, Shape out, int... dims) {
    ShapeRules.checkBroadcast(x, out, dims);
    return add(new Op.BroadcastInDim(dims.clone()), List.of(x), out, x.dtype());
  }

  /** Numpy-style broadcast: x's dims align with the trailing dims of {@code out}. */
  public Node broadcastTo(Node x, Shape out) {
    if (x.shape().equals(out)) {
      return x;
    }
    return broadcastInDim(x, out, ShapeRules.trailingDims(x, out));
  }

  public Node reduce(Node x, ReduceKind kind, int... dims) {
    int[] sorted = dims.clone();
    Arrays.sort(sorted);
    return add(
        new Op.Reduce(kind, sorted), List.of(x), ShapeRules.reduced(x, dims, sorted), x.dtype());
  }

  public Node reduceSum(Node x, int... dims) {
    return reduce(x, ReduceKind.SUM, dims);
  }

  public Node reduceMax(Node x, int... dims) {
    return reduce(x, ReduceKind.MAX, dims);
  }

  public Node reshape(Node x, Shape out) {
    if (out.size() != x.shape().size()) {
      throw new IllegalArgumentException("cannot reshape " + x.shape() + " to " + out);
    }
    return x.shape().equals(out) ? x : add(new Op.Reshape(), List.of(x), out, x.dtype());
  }

  public Node reshape(Node x, int... dims) {
    return reshape(x, Shape.of(dims));
  }

  public Node transpose(Node x, int... permutation) {
    Shape out = ShapeRules.transposed(x, permutation);
    return add(new Op.Transpose(permutation.clone()), List.of(x), out, x.dtype());
  }

  // ---------------------------------------------------------------- matmul

  /**
   * StableHLO dot_general; result dims are batch, lhs free, rhs free; result type the operands'.
   */
  public Node dotGeneral(
      Node lhs, Node rhs, int[] lhsBatch, int[] rhsBatch, int[] lhsContract, int[] rhsContract) {
    return dotGeneral(lhs, rhs, lhsBatch, rhsBatch, lhsContract, rhsContract, lhs.dtype());
  }

  /**
   * dot_general with a result type: the operands' type, or f32 for bf16 operands (products and sums
   * in f32, StableHLO's f32 result type; the mixed-precision matmul).
   */
  public Node dotGeneral(
      Node lhs,
      Node rhs,
      int[] lhsBatch,
      int[] rhsBatch,
      int[] lhsContract,
      int[] rhsContract,
      DType result) {
    Op.DotGeneral op =
        new Op.DotGeneral(
            lhsBatch.clone(), rhsBatch.clone(), lhsContract.clone(), rhsContract.clone());
    return add(op, List.of(lhs, rhs), ShapeRules.dotGeneral(lhs, rhs, op, result), result);
  }

  /** (..., M, K) x (K, N) -> (..., M, N): a matrix product with a shared right operand. */
  public Node matmul(Node x, Node w) {
    int r = x.shape().rank();
    return dotGeneral(x, w, new int[0], new int[0], new int[] {r - 1}, new int[] {0});
  }

  /**
   * (..., M, K) x (N, K)^T -> (..., M, N): the {@code nn.Linear} layout of Hugging Face weights.
   */
  public Node matmulTransposed(Node x, Node w) {
    int r = x.shape().rank();
    return dotGeneral(x, w, new int[0], new int[0], new int[] {r - 1}, new int[] {1});
  }

  // ------------------------------------------------------- slicing, indexing

  public Node slice(Node x, int[] start, int[] limit, int[] strides) {
    Shape out = ShapeRules.sliced(x, start, limit, strides);
    return add(
        new Op.Slice(start.clone(), limit.clone(), strides.clone()), List.of(x), out, x.dtype());
  }

  /** Contiguous slice of one axis: {@code x[..., from:to, ...]}. */
  public Node sliceAxis(Node x, int axis, int from, int to) {
    int[] start = new int[x.shape().rank()];
    int[] limit = x.shape().dims();
    int[] strides = new int[start.length];
    Arrays.fill(strides, 1);
    start[axis] = from;
    limit[axis] = to;
    return slice(x, start, limit, strides);
  }

  public Node concatenate(int dimension, List<Node> parts) {
    Shape out = ShapeRules.concatenated(dimension, parts);
    return add(new Op.Concatenate(dimension), parts, out, parts.get(0).dtype());
  }

  public Node dynamicUpdateSlice(Node operand, Node update, List<Node> starts) {
    ShapeRules.checkDynamicUpdateSlice(operand, update, starts);
    List<Node> in = new ArrayList<>();
    in.add(operand);
    in.add(update);
    in.addAll(starts);
    return add(new Op.DynamicUpdateSlice(), in, operand.shape(), operand.dtype());
  }

  public Node dynamicSlice(Node operand, List<Node> starts, int... sizes) {
    ShapeRules.checkDynamicSlice(operand, starts, sizes);
    List<Node> in = new ArrayList<>();
    in.add(operand);
    in.addAll(starts);
    return add(new Op.DynamicSlice(sizes.clone()), in, Shape.of(sizes), operand.dtype());
  }

  /**
   * {@code operand} with {@code update}'s row b written at {@code index[b]} along {@code axis}
   * (rows whose index is outside the axis are left unchanged); see {@link Op.UpdateSlots}.
   */
  public Node updateSlots(Node operand, Node update, Node index, int axis) {
    ShapeRules.checkUpdateSlots(operand, update, index, axis);
    return add(
        new Op.UpdateSlots(axis),
        List.of(operand, update, index),
        operand.shape(),
        operand.dtype());
  }

  /** Embedding lookup: table (N, D...) gathered by integer ids S gives S + (D...). */
  public Node gather(Node table, Node ids) {
    Shape out = ShapeRules.gathered(table, ids);
    return add(new Op.Gather(), List.of(table, ids), out, table.dtype());
  }

  /** The transpose of {@link #gather}: each update row added into a zero (rows, D...) table. */
  public Node scatterAdd(Node ids, Node updates, int rows) {
    Shape out = ShapeRules.scattered(ids, updates, rows);
    return add(new Op.ScatterAdd(rows), List.of(ids, updates), out, updates.dtype());
  }
}
