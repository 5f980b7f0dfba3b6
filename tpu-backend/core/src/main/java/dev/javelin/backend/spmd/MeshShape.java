package dev.javelin.backend.spmd;

import java.util.ArrayList;
import java.util.List;

/**
 * The sizes of a model mesh's axes, before chips are chosen: data-parallel replicas, FSDP shards
 * and tensor-parallel ranks (the axes {@code program.ShardPlan} lays a model's values over). {@link
 * #over} lays it on a device's chips, {@code tp} fastest so that a tensor-parallel group takes
 * neighbouring chips.
 *
 * @param dp {@value #DP}, at least 1
 * @param fsdp {@value #FSDP}, at least 1
 * @param tp {@value #TP}, at least 1
 */
public record MeshShape(int dp, int fsdp, int tp) {
  /** The name of the data-parallel axis. */
  public static final String DP = "dp";

  /** The name of the FSDP axis. */
  public static final String FSDP = "fsdp";

  /** The name of the tensor-parallel axis. */
  public static final String TP = "tp";

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
      axes.add(new Mesh.Axis(DP, dp));
    }
    if (fsdp > 1) {
      axes.add(new Mesh.Axis(FSDP, fsdp));
    }
    if (tp > 1) {
      axes.add(new Mesh.Axis(TP, tp));
    }
    if (axes.isEmpty()) {
      axes.add(new Mesh.Axis(DP, 1));
    }
    return new Mesh(axes, chips.subList(0, chips()));
  }

  @Override
  public String toString() {
    return "dp=" + dp + ",fsdp=" + fsdp + ",tp=" + tp;
  }
}
