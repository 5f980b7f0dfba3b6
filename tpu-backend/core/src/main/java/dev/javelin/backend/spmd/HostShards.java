package dev.javelin.backend.spmd;

import dev.javelin.backend.DType;
import dev.javelin.backend.Shape;
import dev.javelin.backend.Tensor;
import java.util.ArrayList;
import java.util.List;
import java.util.function.IntFunction;

/** Splits a host tensor into the blocks of a {@link Sharding} and puts blocks back together. */
public final class HostShards {
  private HostShards() {}

  /** The block of every mesh position, in position order (replicated blocks are copies). */
  public static List<Tensor> split(Tensor global, Sharding sharding, Mesh mesh) {
    sharding.check(global.shape(), mesh, "tensor " + global.describe());
    Shape block = sharding.shardShape(global.shape(), mesh);
    List<Tensor> out = new ArrayList<>(mesh.size());
    for (int p = 0; p < mesh.size(); p++) {
      Tensor shard = Tensor.zeros(global.dtype(), block);
      int[] offsets = sharding.shardOffsets(global.shape(), mesh, p);
      copyBlock(array(global), global.shape(), array(shard), block, offsets, false);
      out.add(shard);
    }
    return out;
  }

  /**
   * The global value from its blocks; {@code shardAt} is asked only for one position per distinct
   * block (see {@link Sharding#isPrimary}).
   */
  public static Tensor gather(
      DType dtype, Shape global, Sharding sharding, Mesh mesh, IntFunction<Tensor> shardAt) {
    Shape block = sharding.shardShape(global, mesh);
    Tensor whole = Tensor.zeros(dtype, global);
    for (int p = 0; p < mesh.size(); p++) {
      if (!sharding.isPrimary(mesh, p)) {
        continue;
      }
      Tensor shard = shardAt.apply(p);
      if (!shard.shape().equals(block) || shard.dtype() != dtype) {
        throw new IllegalArgumentException(
            "block " + p + " is " + shard.describe() + ", expected " + dtype.mlirName() + block);
      }
      copyBlock(
          array(whole), global, array(shard), block, sharding.shardOffsets(global, mesh, p), true);
    }
    return whole;
  }

  /**
   * Copies between a global array and a block at {@code offsets}, one contiguous run of the last
   * dimension at a time; {@code intoGlobal} picks the direction.
   */
  private static void copyBlock(
      Object global,
      Shape globalShape,
      Object block,
      Shape blockShape,
      int[] offsets,
      boolean intoGlobal) {
    int rank = blockShape.rank();
    if (rank == 0) {
      copy(global, 0, block, 0, 1, intoGlobal);
      return;
    }
    int[] gStrides = globalShape.strides();
    int run = blockShape.dim(rank - 1);
    long rows = blockShape.size() / Math.max(run, 1);
    int[] index = new int[rank - 1];
    for (long r = 0; r < rows && run > 0; r++) {
      int g = offsets[rank - 1];
      for (int d = 0; d < rank - 1; d++) {
        g += (offsets[d] + index[d]) * gStrides[d];
      }
      copy(global, g, block, (int) (r * run), run, intoGlobal);
      for (int d = rank - 2; d >= 0; d--) { // next row of the block, last index fastest
        if (++index[d] < blockShape.dim(d)) {
          break;
        }
        index[d] = 0;
      }
    }
  }

  private static void copy(Object global, int g, Object block, int b, int n, boolean intoGlobal) {
    if (intoGlobal) {
      System.arraycopy(block, b, global, g, n);
    } else {
      System.arraycopy(global, g, block, b, n);
    }
  }

  private static Object array(Tensor t) {
    if (t instanceof Tensor.F32 f) {
      return f.data();
    } else if (t instanceof Tensor.BF16 b) {
      return b.data();
    } else if (t instanceof Tensor.F64 d) {
      return d.data();
    } else if (t instanceof Tensor.I32 i) {
      return i.data();
    }
    return ((Tensor.Pred) t).data();
  }
}
