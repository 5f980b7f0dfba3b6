package dev.javelin.backend.spmd;

import java.util.ArrayList;
import java.util.List;

/**
 * The sizes of a {@link ShardPlan} mesh's axes, before chips are chosen: data-parallel replicas,
 * FSDP shards and tensor-parallel ranks. {@link #over} lays it on a device's chips, {@code tp}
 * fastest so that a tensor-parallel group takes neighbouring chips.
 *
 * @param dp {@value ShardPlan#DP}, at least 1
 * @param fsdp {@value ShardPlan#FSDP}, at least 1
 * @param tp {@value ShardPlan#TP}, at least 1
 */
public record MeshShape(int dp, int fsdp, int tp) {
  /** One chip: no mesh axis splits anything. */
  public static final MeshShape ONE = new MeshShape(1, 1, 1);

  public MeshShape {
    if (dp < 1 || fsdp < 1 || tp < 1) {
      throw new IllegalArgumentException(
          "mesh sizes must be >= 1, got dp=" + dp + " fsdp=" + fsdp + " tp=" + tp);
    }
  }

  /** Tensor parallelism alone, as samplers use it. */
  public static MeshShape tensorParallel(int tp) {
    return new MeshShape(1, 1, tp);
  }

  /** Chips the mesh needs. */
  public int chips() {
    return dp * fsdp * tp;
  }

  /**
   * The mesh over the first {@link #chips()} of {@code chips} (a device's PJRT ids, as unsharded
   * programs run on its first chip). Axes of size 1 are left out; with none left it is a one-chip
   * mesh, the unsharded path.
   */
  public Mesh over(List<Integer> chips) {
    if (chips.size() < chips()) {
      throw new IllegalArgumentException(
          "mesh " + this + " needs " + chips() + " chips, the device has " + chips);
    }
    List<Mesh.Axis> axes = new ArrayList<>();
    if (dp > 1) {
      axes.add(new Mesh.Axis(ShardPlan.DP, dp));
    }
    if (fsdp > 1) {
      axes.add(new Mesh.Axis(ShardPlan.FSDP, fsdp));
    }
    if (tp > 1) {
      axes.add(new Mesh.Axis(ShardPlan.TP, tp));
    }
    if (axes.isEmpty()) {
      axes.add(new Mesh.Axis(ShardPlan.DP, 1));
    }
    return new Mesh(axes, chips.subList(0, chips()));
  }

  @Override
  public String toString() {
    return "dp=" + dp + ",fsdp=" + fsdp + ",tp=" + tp;
  }
}
