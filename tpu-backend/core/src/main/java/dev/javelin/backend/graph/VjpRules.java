package dev.javelin.backend.graph;

import dev.javelin.backend.graph.Op.Direction;

/**
 * The VJP rule of every primitive op: given {@code y = op(x_1..x_n)} and its cotangent {@code ȳ},
 * the contribution {@code x̄_i = ȳ · ∂y/∂x_i} for each input that needs one. Elementwise rules live
 * here; rules that move elements live in {@link StructuralVjp}.
 *
 * <p>Ties in max/min (elementwise or reduced) split the cotangent evenly, as JAX and PyTorch do.
 */
final class VjpRules {
  private VjpRules() {}

  /** Contributions per input; {@code null} where {@code need[i]} is false or no gradient flows. */
  static Node[] apply(GraphBuilder g, Node y, Node dy, boolean[] need) {
    Op op = y.op();
    Node[] out = new Node[y.inputs().size()];
    if (op instanceof Op.Unary u) {
      out[0] = unary(g, u.kind(), y, dy);
    } else if (op instanceof Op.Binary b) {
      binary(g, b.kind(), y, dy, need, out);
    } else if (op instanceof Op.Select) {
      Node zero = g.full(dy, 0);
      out[1] = need[1] ? g.select(y.input(0), dy, zero) : null;
      out[2] = need[2] ? g.select(y.input(0), zero, dy) : null;
    } else if (op instanceof Op.Convert) {
      Node x = y.input(0);
      out[0] = x.dtype().isFloating() ? g.convert(dy, x.dtype()) : null;
    } else if (op instanceof Op.OptimizationBarrier b) {
      out[b.index()] = need[b.index()] ? dy : null;
    } else if (op instanceof Op.Compare
        || op instanceof Op.Constant
        || op instanceof Op.Iota
        || op instanceof Op.Parameter) {
      return out;
    } else {
      StructuralVjp.apply(g, y, dy, need, out);
    }
    return out;
  }

  private static Node unary(GraphBuilder g, Op.UnaryKind kind, Node y, Node dy) {
    Node x = y.input(0);
    return switch (kind) {
      case NEG -> g.neg(dy);
      case EXP -> g.mul(dy, y);
      case LOG -> g.div(dy, x);
      case TANH -> g.mul(dy, g.sub(g.full(y, 1), g.mul(y, y))); // 1 - tanh²
      case LOGISTIC -> g.mul(dy, g.mul(y, g.sub(g.full(y, 1), y))); // σ(1 - σ)
      case RSQRT -> g.mul(dy, g.mul(g.full(y, -0.5), g.mul(y, g.mul(y, y)))); // -x^(-3/2) / 2
      case SQRT -> g.div(g.mul(dy, g.full(y, 0.5)), y);
      case ABS -> g.mul(dy, g.sub(indicator(g, x, Direction.GT), indicator(g, x, Direction.LT)));
    };
  }

  private static void binary(
      GraphBuilder g, Op.BinaryKind kind, Node y, Node dy, boolean[] need, Node[] out) {
    Node a = y.input(0);
    Node b = y.input(1);
    switch (kind) {
      case ADD -> {
        out[0] = dy;
        out[1] = dy;
      }
      case SUB -> {
        out[0] = dy;
        out[1] = need[1] ? g.neg(dy) : null;
      }
      case MUL -> {
        out[0] = need[0] ? g.mul(dy, b) : null;
        out[1] = need[1] ? g.mul(dy, a) : null;
      }
      case DIV -> {
        out[0] = need[0] ? g.div(dy, b) : null;
        out[1] = need[1] ? g.neg(g.div(g.mul(dy, y), b)) : null; // -ȳ·a/b²
      }
      case MAX, MIN -> {
        Node wa = tieSplitWeight(g, a, b, kind == Op.BinaryKind.MAX ? Direction.GT : Direction.LT);
        out[0] = need[0] ? g.mul(dy, wa) : null;
        out[1] = need[1] ? g.mul(dy, g.sub(g.full(wa, 1), wa)) : null;
      }
      case POW -> pow(g, y, dy, need, out);
    }
  }

  /** Weight of the first operand: 1 where it wins, 1/2 on ties, 0 where it loses. */
  private static Node tieSplitWeight(GraphBuilder g, Node a, Node b, Direction wins) {
    Node win = g.convert(g.compare(a, b, wins), a.dtype());
    Node tie = g.convert(g.compare(a, b, Direction.EQ), a.dtype());
    return g.add(win, g.mul(tie, g.full(tie, 0.5)));
  }

  /** y = aᵇ: ā = ȳ·b·aᵇ⁻¹ (0 where b = 0), b̄ = ȳ·y·ln a (0 where a = 0). */
  private static void pow(GraphBuilder g, Node y, Node dy, boolean[] need, Node[] out) {
    Node a = y.input(0);
    Node b = y.input(1);
    Node zero = g.full(y, 0);
    if (need[0]) {
      Node da = g.mul(dy, g.mul(b, g.pow(a, g.sub(b, g.full(b, 1)))));
      out[0] = g.select(g.compare(b, zero, Direction.EQ), zero, da);
    }
    if (need[1]) {
      Node db = g.mul(dy, g.mul(y, g.log(a)));
      out[1] = g.select(g.compare(a, zero, Direction.EQ), zero, db);
    }
  }

  /** 1 where {@code x <direction> 0}, else 0, in x's type. */
  private static Node indicator(GraphBuilder g, Node x, Direction direction) {
    return g.convert(g.compare(x, g.full(x, 0), direction), x.dtype());
  }
}
