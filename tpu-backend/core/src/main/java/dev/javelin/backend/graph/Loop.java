package dev.javelin.backend.graph;

import dev.javelin.backend.DType;
import dev.javelin.backend.Shape;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * A counted loop over a body program, as {@code jax.lax.scan}: the body maps (carries, one slice of
 * each stacked input, invariants) to (new carries, one slice of each stacked output). Iteration t
 * reads slice t of every stacked input (dimension 0, of size {@link #trips}) and writes slice t of
 * every stacked output; a reverse loop visits t = trips-1 down to 0. The loop's operands are
 * (initial carries, stacked inputs, invariants) and its results (final carries, stacked outputs),
 * one {@link Op.LoopResult} node each.
 *
 * <p>The loop is compiled as one loop body ({@code stablehlo.while}), so a model whose layers run
 * through one loop compiles in time that does not grow with its depth. Loops compare by identity.
 */
public final class Loop {
  private final String name;
  private final Program body;
  private final int trips;
  private final int carried;
  private final int sliced;
  private final boolean reverse;
  private final Backward backward;
  private Program step;

  /**
   * A loop's own gradient, used in place of differentiating its body: for a loop whose gradient
   * needs less than its saved carries (blockwise attention keeps only its final running max and
   * sum; {@code model.BlockwiseAttention}).
   */
  @FunctionalInterface
  public interface Backward {
    /**
     * The contributions to the loop's operands (null where none) from the cotangents {@code dys} of
     * its {@code results} (null where a result takes none); {@code need} marks the operands whose
     * gradient is wanted.
     */
    Node[] apply(
        GraphBuilder g, List<Node> operands, List<Node> results, Node[] dys, boolean[] need);
  }

  private Loop(
      String name,
      Program body,
      int trips,
      int carried,
      int sliced,
      boolean reverse,
      Backward backward) {
    if (trips < 1 || carried < 0 || sliced < 0 || carried + sliced > body.parameters().size()) {
      throw new IllegalArgumentException("bad loop '" + name + "' over " + body);
    }
    if (body.outputs().size() < carried) {
      throw new IllegalArgumentException("loop body " + body + " returns fewer than its carries");
    }
    this.name = name;
    this.body = body;
    this.trips = trips;
    this.carried = carried;
    this.sliced = sliced;
    this.reverse = reverse;
    this.backward = backward;
  }

  /**
   * A forward loop over {@code body} that differentiates its body (a scan); {@link #withReverse}
   * and {@link #withBackward} change that, {@link #apply} adds it to a graph.
   *
   * @param body parameters: {@code carried} carries, {@code sliced} slices, then invariants;
   *     outputs: the new carries (same shapes and types), then the per-iteration outputs
   */
  public static Loop of(String name, Program body, int trips, int carried, int sliced) {
    return new Loop(name, body, trips, carried, sliced, false, null);
  }

  /** This loop visiting t = trips-1 down to 0 when {@code reverse}. */
  public Loop withReverse(boolean reverse) {
    return new Loop(name, body, trips, carried, sliced, reverse, backward);
  }

  /** This loop with its own gradient in place of differentiating its body. */
  public Loop withBackward(Backward backward) {
    return new Loop(name, body, trips, carried, sliced, reverse, backward);
  }

  /**
   * Adds this loop to {@code g} and returns its results: {@code carried} final carries, then one
   * stack (trips, ...) per body output after the carries.
   *
   * @param operands initial carries, stacked inputs (trips, slice shape...), invariants
   */
  public List<Node> apply(GraphBuilder g, List<Node> operands) {
    check(operands);
    List<Node> results = new ArrayList<>();
    for (int r = 0; r < results(); r++) {
      results.add(g.add(new Op.LoopResult(this, r), operands, shape(r), dtype(r)));
    }
    return results;
  }

  /**
   * A body's parameters in {@code b} for a loop over {@code operands}: one per operand, those in
   * [{@code slicedFrom}, {@code slicedTo}) by their slice's shape (the stacked shape less dimension
   * 0).
   */
  public static List<Node> parameters(
      GraphBuilder b, List<Node> operands, int slicedFrom, int slicedTo) {
    List<Node> out = new ArrayList<>();
    for (int i = 0; i < operands.size(); i++) {
      Node o = operands.get(i);
      Shape s = o.shape();
      boolean sliced = i >= slicedFrom && i < slicedTo;
      out.add(
          b.parameter(
              "in" + i,
              o.dtype(),
              sliced ? Shape.of(Arrays.copyOfRange(s.dims(), 1, s.rank())) : s));
    }
    return out;
  }

  private void check(List<Node> operands) {
    List<Node> params = body.parameters();
    if (operands.size() != params.size()) {
      throw new IllegalArgumentException(
          "loop '" + name + "' takes " + params.size() + " operands, got " + operands.size());
    }
    for (int i = 0; i < params.size(); i++) {
      Node p = params.get(i);
      Node o = operands.get(i);
      Shape want = isSliced(i) ? stacked(p.shape()) : p.shape();
      if (!o.shape().equals(want) || o.dtype() != p.dtype()) {
        throw new IllegalArgumentException(
            "loop '" + name + "' operand " + i + " is " + o + ", body wants " + want + p.dtype());
      }
    }
    for (int i = 0; i < carried; i++) {
      Node out = body.outputs().get(i);
      if (!out.shape().equals(params.get(i).shape()) || out.dtype() != params.get(i).dtype()) {
        throw new IllegalArgumentException("loop '" + name + "' carry " + i + " changes: " + out);
      }
    }
  }

  private boolean isSliced(int operand) {
    return operand >= carried && operand < carried + sliced;
  }

  /** (trips, s...). */
  Shape stacked(Shape s) {
    int[] dims = new int[s.rank() + 1];
    dims[0] = trips;
    for (int i = 0; i < s.rank(); i++) {
      dims[i + 1] = s.dim(i);
    }
    return Shape.of(dims);
  }

  /** Number of results: carries, then stacked outputs. */
  public int results() {
    return body.outputs().size();
  }

  /** The shape of result {@code r}. */
  public Shape shape(int r) {
    Shape s = body.outputs().get(r).shape();
    return r < carried ? s : stacked(s);
  }

  public DType dtype(int r) {
    return body.outputs().get(r).dtype();
  }

  public String name() {
    return name;
  }

  public Program body() {
    return body;
  }

  public int trips() {
    return trips;
  }

  public int carried() {
    return carried;
  }

  public int sliced() {
    return sliced;
  }

  public int invariants() {
    return body.parameters().size() - carried - sliced;
  }

  public boolean reverse() {
    return reverse;
  }

  /** The loop's own gradient rule, or null (a scan's is derived from its body). */
  public Backward backward() {
    return backward;
  }

  /**
   * One iteration as a program over the whole loop state: parameters (i: the i32 trip counter,
   * carries, stacked outputs so far, stacked inputs, invariants), outputs the same state after the
   * iteration (i + 1, ...). Iteration i reads and writes slice i (trips-1-i for a reverse loop)
   * with dynamic slices. The StableHLO printer prints it as the {@code while} body; {@link
   * Loops#unroll} copies it once per iteration.
   */
  public synchronized Program step() {
    if (step == null) {
      step = LoopStep.build(this);
    }
    return step;
  }

  @Override
  public String toString() {
    return "Loop[" + name + " x" + trips + (reverse ? " reversed" : "") + "]";
  }
}
