package dev.javelin.backend.graph;

import dev.javelin.backend.DType;
import dev.javelin.backend.Shape;
import java.util.List;

/**
 * One value of a program: an operation applied to earlier nodes. Nodes are immutable and compared
 * by identity; {@code id} is unique within its graph and increases in creation order, which is a
 * topological order.
 */
public final class Node {
  private final int id;
  private final Op op;
  private final List<Node> inputs;
  private final Shape shape;
  private final DType dtype;
  private volatile boolean gradientStopped;
  private volatile boolean batchMajor;
  private volatile int segment;

  Node(int id, Op op, List<Node> inputs, Shape shape, DType dtype, int segment) {
    this.id = id;
    this.op = op;
    this.inputs = List.copyOf(inputs);
    this.shape = shape;
    this.dtype = dtype;
    this.segment = segment;
  }

  public int id() {
    return id;
  }

  public Op op() {
    return op;
  }

  public List<Node> inputs() {
    return inputs;
  }

  public Node input(int i) {
    return inputs.get(i);
  }

  public Shape shape() {
    return shape;
  }

  public DType dtype() {
    return dtype;
  }

  /**
   * Whether {@link Autodiff} treats this value as a constant: no cotangent flows into it or through
   * it, as if every use were wrapped in {@code jax.lax.stop_gradient}. Set with {@link
   * GraphBuilder#stopGradient}.
   */
  public boolean gradientStopped() {
    return gradientStopped;
  }

  void stopGradient() {
    gradientStopped = true;
  }

  /**
   * Whether this value is an activation whose dimension 0 is the batch (the hidden states between
   * decoder blocks and their cotangents): a sharded program constrains it to lie split over the
   * mesh's batch axis, so the partitioner does not gather the whole batch onto every chip. Set with
   * {@link GraphBuilder#batchMajor}.
   */
  public boolean batchMajor() {
    return batchMajor;
  }

  void markBatchMajor() {
    batchMajor = true;
  }

  /**
   * The recomputation segment this value belongs to, or -1: under {@link Remat#BLOCKS} the backward
   * pass recomputes a segment's inner values from its inputs instead of keeping them. A segment's
   * outputs belong to none and are {@linkplain #kept kept}. Set with {@link
   * GraphBuilder#beginSegment}.
   */
  public int segment() {
    return Math.max(segment, -1);
  }

  /**
   * Whether this value is a segment's output, which {@link Remat#BLOCKS} keeps for the backward.
   */
  public boolean kept() {
    return segment == KEPT;
  }

  static final int KEPT = -2;

  /** Sets the raw segment (a segment id, -1 or {@link #KEPT}). */
  void setSegment(int s) {
    segment = s;
  }

  @Override
  public String toString() {
    return "%" + id + " = " + op.getClass().getSimpleName() + shape + dtype.mlirName();
  }
}
