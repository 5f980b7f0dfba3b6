package dev.javelin.backend.graph;

/**
 * VJP of {@code y = dot_general(a, b)}, whose dims are (batch, a-free, b-free). Each cotangent is
 * another dot_general of ȳ with the other operand, contracting the free dims that operand
 * contributed; its result dims come out in some order of the target's dims, fixed by a transpose.
 * Both operand orders are tried and the one needing no transpose is preferred, so the common {@code
 * x·Wᵀ} layouts give plain matrix products.
 */
final class DotVjp {
  private DotVjp() {}

  /** ā for y = dot_general(a, b). */
  static Node lhs(GraphBuilder g, Op.DotGeneral d, Node y, Node dy) {
    Side a = Side.lhs(d, y);
    Side b = Side.rhs(d, y);
    return cotangent(g, dy, a, b, a.batch.length + a.free.length);
  }

  /** b̄ for y = dot_general(a, b). */
  static Node rhs(GraphBuilder g, Op.DotGeneral d, Node y, Node dy) {
    Side a = Side.lhs(d, y);
    Side b = Side.rhs(d, y);
    return cotangent(g, dy, b, a, a.batch.length);
  }

  /**
   * The cotangent of operand {@code target} given the {@code other} operand.
   *
   * @param otherFreeAt where the other operand's free dims start in ȳ
   */
  private static Node cotangent(
      GraphBuilder g, Node yBar, Side target, Side other, int otherFreeAt) {
    // An f32 product of bf16 operands: its cotangent goes back to bf16, the operands' type.
    Node dy = g.convert(yBar, other.operand.dtype());
    int nb = target.batch.length;
    int[] dyBatch = range(0, nb);
    int[] dyOtherFree = range(otherFreeAt, otherFreeAt + other.free.length);
    // The other operand's contracting dims, ascending (what a dot leaves of it), each mapped to the
    // target dim it was contracted with.
    int[] fromOther = new int[other.contract.length];
    int[] otherRemaining = DotShapes.free(other.operand.shape().rank(), other.batch, other.free);
    for (int i = 0; i < otherRemaining.length; i++) {
      fromOther[i] = target.contract[indexOf(other.contract, otherRemaining[i])];
    }
    // Form 1: dot(ȳ, O) -> (batch, target free, fromOther); form 2: dot(O, ȳ) -> (batch,
    // fromOther, target free). Entry p names the target dim that result dim p holds.
    int[] order1 = concat(target.batch, target.free, fromOther);
    int[] order2 = concat(target.batch, fromOther, target.free);
    boolean second = !isIdentity(order1) && isIdentity(order2);
    Node product =
        second
            ? g.dotGeneral(other.operand, dy, other.batch, dyBatch, other.free, dyOtherFree)
            : g.dotGeneral(dy, other.operand, dyBatch, other.batch, dyOtherFree, other.free);
    int[] order = second ? order2 : order1;
    return isIdentity(order) ? product : g.transpose(product, StructuralVjp.inverse(order));
  }

  /** One operand of a dot_general with its batch, free and contracting dims. */
  @SuppressWarnings("ArrayRecordComponent") // a private view of an op's dims; never compared
  private record Side(Node operand, int[] batch, int[] free, int[] contract) {
    static Side lhs(Op.DotGeneral d, Node y) {
      Node a = y.input(0);
      return new Side(
          a,
          d.lhsBatch(),
          DotShapes.free(a.shape().rank(), d.lhsBatch(), d.lhsContract()),
          d.lhsContract());
    }

    static Side rhs(Op.DotGeneral d, Node y) {
      Node b = y.input(1);
      return new Side(
          b,
          d.rhsBatch(),
          DotShapes.free(b.shape().rank(), d.rhsBatch(), d.rhsContract()),
          d.rhsContract());
    }
  }

  private static int indexOf(int[] a, int v) {
    for (int i = 0; i < a.length; i++) {
      if (a[i] == v) {
        return i;
      }
    }
    throw new IllegalStateException("dim " + v + " not found");
  }

  private static int[] range(int from, int to) {
    int[] r = new int[to - from];
    for (int i = 0; i < r.length; i++) {
      r[i] = from + i;
    }
    return r;
  }

  private static int[] concat(int[] a, int[] b, int[] c) {
    int[] r = new int[a.length + b.length + c.length];
    System.arraycopy(a, 0, r, 0, a.length);
    System.arraycopy(b, 0, r, a.length, b.length);
    System.arraycopy(c, 0, r, a.length + b.length, c.length);
    return r;
  }

  private static boolean isIdentity(int[] order) {
    for (int i = 0; i < order.length; i++) {
      if (order[i] != i) {
        return false;
      }
    }
    return true;
  }
}
