package dev.javelin.backend.spmd;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The GSPMD (HloSharding) text of a {@link Sharding}, the value of an {@code mhlo.sharding}
 * attribute: {@code {replicated}}, {@code {devices=[4,1]0,1,2,3}}, or with mesh axes that split
 * nothing a trailing replication dimension, {@code {devices=[2,1,2]0,1,2,3
 * last_tile_dim_replicate}}. The device list holds mesh positions (partition ids); the compile
 * options' device assignment maps them to devices.
 */
public final class Gspmd {
  private Gspmd() {}

  /** The sharding string of a rank-{@code rank} value. */
  public static String format(Sharding sharding, Mesh mesh, int rank) {
    Map<Integer, String> splits = sharding.splits();
    if (splits.isEmpty()) {
      return "{replicated}";
    }
    // tile dimensions: one per tensor dimension, then one for the axes that split nothing
    int[] tile = new int[rank];
    int[] axisOfTileDim = new int[rank];
    for (int d = 0; d < rank; d++) {
      String axis = splits.get(d);
      axisOfTileDim[d] = axis == null ? -1 : mesh.axisIndex(axis);
      tile[d] = axis == null ? 1 : mesh.axes().get(axisOfTileDim[d]).size();
    }
    Set<String> used = new HashSet<>(splits.values());
    List<Integer> unused = new ArrayList<>();
    int replicas = 1;
    for (int i = 0; i < mesh.axes().size(); i++) {
      if (!used.contains(mesh.axes().get(i).name())) {
        unused.add(i);
        replicas *= mesh.axes().get(i).size();
      }
    }
    StringBuilder dims = new StringBuilder();
    for (int t : tile) {
      dims.append(dims.length() == 0 ? "" : ",").append(t);
    }
    if (replicas > 1) {
      dims.append(',').append(replicas);
    }
    List<String> devices = new ArrayList<>();
    int tiles = mesh.size() / replicas;
    for (int t = 0; t < tiles; t++) {
      int[] coords = new int[mesh.axes().size()];
      int rest = t;
      for (int d = rank - 1; d >= 0; d--) {
        if (axisOfTileDim[d] >= 0) {
          coords[axisOfTileDim[d]] = rest % tile[d];
        }
        rest /= tile[d];
      }
      for (int r = 0; r < replicas; r++) {
        int left = r;
        for (int k = unused.size() - 1; k >= 0; k--) {
          int axis = unused.get(k);
          coords[axis] = left % mesh.axes().get(axis).size();
          left /= mesh.axes().get(axis).size();
        }
        devices.add(Integer.toString(mesh.position(coords)));
      }
    }
    return "{devices=["
        + dims
        + "]"
        + String.join(",", devices)
        + (replicas > 1 ? " last_tile_dim_replicate" : "")
        + "}";
  }
}
