package dev.javelin.backend.graph;

import dev.javelin.backend.DType;

/**
 * The primitive operations of a program. Each maps to one StableHLO op (named in its javadoc), so a
 * graph lowers one node to one op. Operands are the node's inputs, in order; the result shape and
 * type live on the {@link Node}.
 */
public sealed interface Op {

  /** A program argument: weights, token ids, masks, scalars. {@code func.func @main} argument. */
  record Parameter(int index, String name) implements Op {}

  /** A scalar constant broadcast to the node's shape. {@code stablehlo.constant} + broadcast. */
  record Constant(double value) implements Op {}

  /** Indices along one dimension: out[..., i, ...] = i. {@code stablehlo.iota}. */
  record Iota(int dimension) implements Op {}

  /** Elementwise one-operand math. */
  record Unary(UnaryKind kind) implements Op {}

  /** Elementwise two-operand math on equal shapes. */
  record Binary(BinaryKind kind) implements Op {}

  /** Elementwise comparison producing {@link DType#PRED}. {@code stablehlo.compare}. */
  record Compare(Direction direction) implements Op {}

  /** {@code select(pred, onTrue, onFalse)}, elementwise. {@code stablehlo.select}. */
  record Select() implements Op {}

  /** Element type conversion. {@code stablehlo.convert}. */
  record Convert(DType to) implements Op {}

  /**
   * Broadcast: operand dimension i becomes result dimension {@code dims[i]} (size equal or 1).
   * {@code stablehlo.broadcast_in_dim}.
   */
  record BroadcastInDim(int[] dims) implements Op {}

  /** Sum or max over the given dimensions, which are removed. {@code stablehlo.reduce}. */
  record Reduce(ReduceKind kind, int[] dims) implements Op {}

  /** Same elements, new shape (row-major). {@code stablehlo.reshape}. */
  record Reshape() implements Op {}

  /**
   * Result dimension i is operand dimension {@code permutation[i]}. {@code stablehlo.transpose}.
   */
  record Transpose(int[] permutation) implements Op {}

  /**
   * Generalised matrix product. Result dims: batch dims, then lhs free dims, then rhs free dims
   * (StableHLO order). {@code stablehlo.dot_general}.
   */
  record DotGeneral(int[] lhsBatch, int[] rhsBatch, int[] lhsContract, int[] rhsContract)
      implements Op {}

  /** Static strided slice {@code [start, limit)}. {@code stablehlo.slice}. */
  record Slice(int[] start, int[] limit, int[] strides) implements Op {}

  /** Concatenation of all operands along one dimension. {@code stablehlo.concatenate}. */
  record Concatenate(int dimension) implements Op {}

  /**
   * Writes operand 1 (update) into operand 0 at start indices given by the remaining scalar i32
   * operands, one per dimension, clamped into range as StableHLO does. {@code
   * stablehlo.dynamic_update_slice}.
   */
  record DynamicUpdateSlice() implements Op {}

  /**
   * Reads a window of the given sizes from operand 0 at start indices given by the remaining scalar
   * i32 operands (clamped). {@code stablehlo.dynamic_slice}.
   */
  record DynamicSlice(int[] sizes) implements Op {}

  /**
   * Writes one entry per batch row: operand 0 (B, ..., S at {@code axis}, ...), operand 1 the
   * update (B, ..., 1 at {@code axis}, ...), operand 2 i32 indices (B); row b of the update goes to
   * index[b] along {@code axis} of row b. A row whose index is outside [0, S) is left unchanged.
   * The KV-cache write of a decode step, where every row is at its own position. {@code
   * stablehlo.scatter} with a replacing update computation.
   */
  record UpdateSlots(int axis) implements Op {}

  /**
   * Row gather for embeddings: operand 0 is a table (N, D...), operand 1 integer ids of any shape
   * S; the result is S + (D...). Ids are clamped into [0, N). {@code stablehlo.gather}.
   */
  record Gather() implements Op {}

  /**
   * The transpose of {@link Gather}: operand 0 ids of shape S, operand 1 updates S + (D...); the
   * result is a zero table (rows, D...) with each update row added at its id. {@code
   * stablehlo.scatter} with add.
   */
  record ScatterAdd(int rows) implements Op {}

  /**
   * Operand {@code index}, unchanged, read through a fence over all operands that the compiler may
   * not look through: values behind it are not merged with equal values computed before it, and
   * nothing that reads it runs before every operand exists. Remat puts recomputed segments behind
   * one, as {@code jax.checkpoint} does, so XLA keeps the recomputation instead of reusing (and
   * holding) the forward values. Identity on the {@code cpu} and {@code ref} devices; {@code
   * stablehlo.optimization_barrier} over all operands, result {@code #index}.
   */
  record OptimizationBarrier(int index) implements Op {}

  /**
   * Result {@code index} of a {@link Loop} over the node's operands (the loop's initial carries,
   * stacked inputs and invariants): its final carries, then its stacked per-iteration outputs. All
   * results of one loop over the same operands are one loop. {@code stablehlo.while}, result {@code
   * #(index + 1)} (result 0 is the trip counter); {@code cpu} and {@code ref} run it unrolled.
   */
  record LoopResult(Loop loop, int index) implements Op {}

  /** Elementwise unary kinds. */
  enum UnaryKind {
    NEG("stablehlo.negate"),
    EXP("stablehlo.exponential"),
    LOG("stablehlo.log"),
    TANH("stablehlo.tanh"),
    LOGISTIC("stablehlo.logistic"),
    RSQRT("stablehlo.rsqrt"),
    SQRT("stablehlo.sqrt"),
    ABS("stablehlo.abs");

    private final String mlir;

    UnaryKind(String mlir) {
      this.mlir = mlir;
    }

    public String mlir() {
      return mlir;
    }
  }

  /** Elementwise binary kinds. */
  enum BinaryKind {
    ADD("stablehlo.add"),
    SUB("stablehlo.subtract"),
    MUL("stablehlo.multiply"),
    DIV("stablehlo.divide"),
    MAX("stablehlo.maximum"),
    MIN("stablehlo.minimum"),
    POW("stablehlo.power");

    private final String mlir;

    BinaryKind(String mlir) {
      this.mlir = mlir;
    }

    public String mlir() {
      return mlir;
    }

    /** This op on doubles (IEEE 754; {@code x^y} as {@link Math#pow}). */
    public double applyF64(double x, double y) {
      return switch (this) {
        case ADD -> x + y;
        case SUB -> x - y;
        case MUL -> x * y;
        case DIV -> x / y;
        case MAX -> Math.max(x, y);
        case MIN -> Math.min(x, y);
        case POW -> Math.pow(x, y);
      };
    }

    /**
     * This op on 32-bit integers as StableHLO defines it: wrapping arithmetic, truncating division
     * with {@code x / 0 = -1}, and {@code x^e = 0} for a negative {@code e} unless {@code |x| = 1}.
     * The CPU engine and the reference oracle both take these semantics from here.
     */
    public int applyI32(int x, int y) {
      return switch (this) {
        case ADD -> x + y;
        case SUB -> x - y;
        case MUL -> x * y;
        case DIV -> y == 0 ? -1 : x / y;
        case MAX -> Math.max(x, y);
        case MIN -> Math.min(x, y);
        case POW -> intPow(x, y);
      };
    }

    private static int intPow(int base, int exp) {
      if (exp < 0) {
        return base == 1 ? 1 : base == -1 ? (exp % 2 == 0 ? 1 : -1) : 0;
      }
      int r = 1;
      for (int i = 0; i < exp; i++) {
        r *= base;
      }
      return r;
    }
  }

  /** Comparison directions, as StableHLO spells them. */
  enum Direction {
    EQ,
    NE,
    LT,
    LE,
    GT,
    GE;

    /** Whether {@code x} compares to {@code y} this way (IEEE 754: NaN is only {@code !=}). */
    public boolean test(double x, double y) {
      return switch (this) {
        case EQ -> x == y;
        case NE -> x != y;
        case LT -> x < y;
        case LE -> x <= y;
        case GT -> x > y;
        case GE -> x >= y;
      };
    }
  }

  /** Reduction kinds. */
  enum ReduceKind {
    SUM,
    MAX
  }
}
