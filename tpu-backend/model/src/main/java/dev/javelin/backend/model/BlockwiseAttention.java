package dev.javelin.backend.model;

import dev.javelin.backend.DType;
import dev.javelin.backend.Shape;
import dev.javelin.backend.graph.GraphBuilder;
import dev.javelin.backend.graph.Loop;
import dev.javelin.backend.graph.Node;
import dev.javelin.backend.graph.Op.Direction;
import dev.javelin.backend.graph.Program;
import java.util.ArrayList;
import java.util.List;

/**
 * Causal self-attention over blocks of keys with an online softmax (the flash-attention
 * recurrence), as one loop in the program: no (T, S) score matrix is ever held, only one (T, block)
 * tile, so memory grows linearly with the sequence. Each block's causal, padding and sliding-window
 * bias is built inside the loop from the key mask and positions, with the same formula as the dense
 * bias ({@link AttentionMasks}), so both paths see the same masked scores.
 *
 * <p>Forward, per key block j (rows r = the G·T queries of one key/value head):
 *
 * <pre>
 *   s   = q·k_jᵀ + bias_j                       // (B, Hkv, GT, blk) f32
 *   m'  = max(m, rowmax s);  p = exp(s - m')
 *   l   = l·exp(m - m') + rowsum p
 *   acc = acc·exp(m - m') + p·v_j               // (B, Hkv, GT, Dh) f32
 * </pre>
 *
 * and the output is acc / l. Its gradient is the loop's own ({@link Loop.Backward}): it keeps only
 * the final m (and reads l's and acc's cotangents), recomputes each tile's p = exp(s - m) in a
 * second loop and accumulates dq there, writing dk_j and dv_j per block, so the backward's memory
 * is linear too. Differentiating the recurrence itself would save every block's running state.
 *
 * <p>The running max m is held as a constant of the gradient: the output acc / l does not depend on
 * it (its contributions through acc and through l cancel), so callers must use only acc / l.
 */
public final class BlockwiseAttention {
  private BlockwiseAttention() {}

  /** Below any score a row can have (masked scores are about -2e9), above f32's lowest. */
  private static final double NO_MAX = -1e30;

  /** The keys' side of every block's bias: (B, S) f32 key mask, (B, S) i32 key positions. */
  public record Keys(Node mask, Node positions) {}

  /**
   * Attention of grouped queries over causal keys. q (B, Hkv, G·T, Dh), already scaled; k, v (B,
   * Hkv, S, Dh) with S = T (self-attention, key i is token i); queryPos (B, T) i32; window an i32
   * scalar: a key is visible while {@code queryPos - keyPos < window}. Returns the context (B, Hkv,
   * G·T, Dh) in v's type.
   */
  public static Node attend(
      GraphBuilder g, Node q, Node k, Node v, Keys keys, Node queryPos, Node window, int block) {
    int s = k.shape().dim(2);
    int blocks = (s + block - 1) / block;
    int padded = blocks * block;
    List<Node> operands = new ArrayList<>();
    Shape rows = Shape.of(q.shape().dim(0), q.shape().dim(1), q.shape().dim(2)); // (B, Hkv, GT)
    operands.add(g.constant(NO_MAX, DType.F32, rows));
    operands.add(g.constant(0, DType.F32, rows));
    operands.add(g.constant(0, DType.F32, q.shape()));
    operands.add(keyBlocks(g, pad(g, k, 2, padded), blocks));
    operands.add(keyBlocks(g, pad(g, v, 2, padded), blocks));
    operands.add(rowBlocks(g, pad(g, g.convert(keys.mask(), DType.F32), 1, padded), blocks));
    operands.add(rowBlocks(g, pad(g, keys.positions(), 1, padded), blocks));
    operands.add(g.reshape(g.iota(DType.I32, Shape.of(padded), 0), blocks, block));
    operands.addAll(List.of(q, queryPos, window));
    Program body = forwardBody(operands, block);
    List<Node> out =
        Loop.of("attention", body, blocks, 3, 5)
            .withBackward(BlockwiseAttention::backward)
            .apply(g, operands);
    Node l = out.get(1);
    Node acc = out.get(2);
    Node ctx = g.div(acc, g.broadcastInDim(l, acc.shape(), 0, 1, 2));
    return g.convert(ctx, v.dtype());
  }

  /** (B, Hkv, S, Dh) into (blocks, B, Hkv, block, Dh): slice j of the loop's input is block j. */
  private static Node keyBlocks(GraphBuilder g, Node x, int blocks) {
    Shape s = x.shape();
    Node split = g.reshape(x, s.dim(0), s.dim(1), blocks, s.dim(2) / blocks, s.dim(3));
    return g.transpose(split, 2, 0, 1, 3, 4);
  }

  /** (B, S) into (blocks, B, block). */
  private static Node rowBlocks(GraphBuilder g, Node x, int blocks) {
    Shape s = x.shape();
    return g.transpose(g.reshape(x, s.dim(0), blocks, s.dim(1) / blocks), 1, 0, 2);
  }

  /** x with zeros appended along {@code axis} up to {@code size} (padding keys are masked). */
  private static Node pad(GraphBuilder g, Node x, int axis, int size) {
    int have = x.shape().dim(axis);
    if (have == size) {
      return x;
    }
    int[] dims = x.shape().dims();
    dims[axis] = size - have;
    return g.concatenate(axis, List.of(x, g.constant(0, x.dtype(), Shape.of(dims))));
  }

  /**
   * One key block as the loop body sees it: k_j, v_j (B, Hkv, blk, Dh), mask, positions, indexes;
   * the five sliced parameters of both loop bodies, in this order.
   */
  private record Tile(Node k, Node v, Node mask, Node positions, Node indexes) {
    static Tile at(List<Node> params, int first) {
      List<Node> p = params.subList(first, first + 5);
      return new Tile(p.get(0), p.get(1), p.get(2), p.get(3), p.get(4));
    }
  }

  /**
   * The queries: q (B, Hkv, GT, Dh), positions (B, T) i32, window (i32 scalar); three consecutive
   * invariants of both loop bodies.
   */
  private record Queries(Node q, Node positions, Node window) {
    static Queries at(List<Node> params, int first) {
      List<Node> p = params.subList(first, first + 3);
      return new Queries(p.get(0), p.get(1), p.get(2));
    }
  }

  /**
   * Parameters: m, l, acc (carries); k_j, v_j, key mask, key positions, key indexes (slices); q,
   * query positions, window (invariants). Outputs: m, l, acc after block j.
   */
  private static Program forwardBody(List<Node> operands, int block) {
    GraphBuilder b = new GraphBuilder("attention.body");
    List<Node> p = Loop.parameters(b, operands, 3, 8);
    Node m = p.get(0);
    Node l = p.get(1);
    Node acc = p.get(2);
    Tile tile = Tile.at(p, 3);
    Node v = tile.v();
    Node s = scores(b, tile, Queries.at(p, 8), block);
    Node next = b.max(m, b.reduceMax(s, 3));
    Node e = b.exp(b.sub(s, b.broadcastInDim(next, s.shape(), 0, 1, 2))); // (B, Hkv, GT, blk)
    Node scale = b.exp(b.sub(m, next));
    Node sum = b.add(b.mul(l, scale), b.reduceSum(e, 3));
    int[] batch = {0, 1};
    Node pv = b.dotGeneral(b.convert(e, v.dtype()), v, batch, batch, ints(3), ints(2), DType.F32);
    Node kept = b.mul(acc, b.broadcastInDim(scale, acc.shape(), 0, 1, 2));
    return b.build(List.of(next, sum, b.add(kept, pv)));
  }

  /** One tile's biased scores (B, Hkv, GT, blk) f32. */
  private static Node scores(GraphBuilder b, Tile tile, Queries queries, int block) {
    int[] batch = {0, 1};
    Node s = b.dotGeneral(queries.q(), tile.k(), batch, batch, ints(3), ints(3), DType.F32);
    int bs = queries.positions().shape().dim(0);
    int t = queries.positions().shape().dim(1);
    Node bias = bias(b, tile, queries, Shape.of(bs, t, block));
    int hkv = s.shape().dim(1);
    int grp = s.shape().dim(2) / t;
    Shape s5 = Shape.of(bs, hkv, grp, t, block);
    Node biased = b.add(b.reshape(s, s5), b.broadcastInDim(bias, s5, 0, 3, 4));
    return b.reshape(biased, s.shape());
  }

  /**
   * The bias (B, T, blk) of one key block, as {@link AttentionMasks#causal} and {@link
   * AttentionMasks#window} build it for all keys: masked where the key comes after the query, is
   * padding, or lies a window or more back.
   */
  private static Node bias(GraphBuilder b, Tile tile, Queries queries, Shape s) {
    Node queryIndex = b.iota(DType.I32, s, 1);
    Node keyIndex = b.broadcastInDim(tile.indexes(), s, 2);
    Node zero = b.constant(0, DType.F32, s);
    Node masked = b.constant(DecoderModel.MASKED, DType.F32, s);
    Node causal = b.select(b.compare(keyIndex, queryIndex, Direction.LE), zero, masked);
    Node bias = b.add(causal, AttentionMasks.keys(b, tile.mask(), s));
    Node queryPos = b.broadcastInDim(queries.positions(), s, 0, 1);
    Node back = b.sub(queryPos, b.broadcastInDim(tile.positions(), s, 0, 2));
    Node near = b.compare(back, b.broadcastInDim(queries.window(), s), Direction.LT);
    return b.select(near, bias, masked);
  }

  /**
   * The loop's gradient: a second loop over the key blocks with dq carried, recomputing each tile's
   * probabilities from the final running max; writes dk_j and dv_j per block.
   */
  private static Node[] backward(
      GraphBuilder g, List<Node> operands, List<Node> results, Node[] dys, boolean[] need) {
    if (dys[0] != null) {
      throw new UnsupportedOperationException(
          "blockwise attention's running max takes no gradient: use only acc / l");
    }
    Node acc = results.get(2);
    Node dl = dys[1] != null ? dys[1] : g.full(results.get(1), 0);
    Node dacc = dys[2] != null ? dys[2] : g.full(acc, 0);
    List<Node> ops = new ArrayList<>();
    ops.add(g.constant(0, DType.F32, acc.shape())); // dq
    ops.addAll(operands.subList(3, 11)); // the five sliced inputs, q, query positions, window
    ops.addAll(List.of(results.get(0), dacc, dl));
    Program body = backwardBody(ops, operands.get(3).shape().dim(3)); // (blocks, B, Hkv, blk, Dh)
    int blocks = operands.get(3).shape().dim(0);
    List<Node> res = Loop.of("attention.vjp", body, blocks, 1, 5).apply(g, ops);
    Node[] out = new Node[operands.size()];
    Node q = operands.get(8);
    out[3] = need[3] ? res.get(1) : null;
    out[4] = need[4] ? res.get(2) : null;
    out[8] = need[8] ? g.convert(res.get(0), q.dtype()) : null;
    return out;
  }

  /**
   * Parameters: dq (carry); k_j, v_j, mask, positions, indexes (slices); q, query positions,
   * window, m, dacc, dl (invariants). Outputs: dq after block j, dk_j, dv_j.
   */
  private static Program backwardBody(List<Node> operands, int block) {
    GraphBuilder b = new GraphBuilder("attention.vjp.body");
    List<Node> p = Loop.parameters(b, operands, 1, 6);
    Node dq = p.get(0);
    Tile tile = Tile.at(p, 1);
    Queries queries = Queries.at(p, 6);
    Node m = p.get(9);
    Node dacc = p.get(10);
    Node dl = p.get(11);
    Node k = tile.k();
    Node v = tile.v();
    Node q = queries.q();
    Node s = scores(b, tile, queries, block);
    Node e = b.exp(b.sub(s, b.broadcastInDim(m, s.shape(), 0, 1, 2))); // (B, Hkv, GT, blk)
    DType cd = v.dtype();
    int[] batch = {0, 1};
    Node daccIn = b.convert(dacc, cd);
    Node dv = b.dotGeneral(b.convert(e, cd), daccIn, batch, batch, ints(2), ints(2), DType.F32);
    Node de = b.dotGeneral(daccIn, v, batch, batch, ints(3), ints(3), DType.F32);
    Node ds = b.mul(e, b.add(de, b.broadcastInDim(dl, s.shape(), 0, 1, 2)));
    Node dsIn = b.convert(ds, cd);
    Node dqj = b.dotGeneral(dsIn, k, batch, batch, ints(3), ints(2), DType.F32);
    Node dk = b.dotGeneral(dsIn, q, batch, batch, ints(2), ints(2), DType.F32);
    return b.build(List.of(b.add(dq, dqj), b.convert(dk, k.dtype()), b.convert(dv, v.dtype())));
  }

  private static int[] ints(int dim) {
    return new int[] {dim};
  }
}
