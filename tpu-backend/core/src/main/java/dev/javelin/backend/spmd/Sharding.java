package dev.javelin.backend.spmd;

import dev.javelin.backend.Shape;
import java.util.Collections;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * How one value is laid out over a {@link Mesh}: whole on every device, or some tensor dimensions
 * split into equal blocks over mesh axes (each axis splits at most one dimension). Mesh axes that
 * split no dimension replicate the blocks, so {@code split(0, "fsdp")} on an {@code fsdp=2,tp=2}
 * mesh puts each half of the rows on two devices.
 */
public sealed interface Sharding {

  /** The whole value on every device. */
  record Replicated() implements Sharding {}

  /**
   * Dimension {@code d} split over mesh axis {@code axisOfDim.get(d)}.
   *
   * @param axisOfDim tensor dimension to mesh axis name; not empty, axes distinct
   */
  record Split(SortedMap<Integer, String> axisOfDim) implements Sharding {
    public Split {
      if (axisOfDim.isEmpty()) {
        throw new IllegalArgumentException("a split sharding splits at least one dimension");
      }
      if (new HashSet<>(axisOfDim.values()).size() != axisOfDim.size()) {
        throw new IllegalArgumentException("a mesh axis splits two dimensions: " + axisOfDim);
      }
      if (axisOfDim.firstKey() < 0) {
        throw new IllegalArgumentException("negative dimension in " + axisOfDim);
      }
      axisOfDim = Collections.unmodifiableSortedMap(new TreeMap<>(axisOfDim));
    }

    /** This sharding with dimension {@code dim} also split over {@code axis}. */
    public Split and(int dim, String axis) {
      TreeMap<Integer, String> m = new TreeMap<>(axisOfDim);
      if (m.put(dim, axis) != null) {
        throw new IllegalArgumentException("dimension " + dim + " is already split: " + this);
      }
      return new Split(m);
    }

    @Override
    public String toString() {
      return "split" + axisOfDim;
    }
  }

  static Sharding replicated() {
    return new Replicated();
  }

  /** Dimension {@code dim} split over mesh axis {@code axis}. */
  static Split split(int dim, String axis) {
    return new Split(new TreeMap<>(Map.of(dim, axis)));
  }

  /** The split dimensions (empty when replicated). */
  default SortedMap<Integer, String> splits() {
    return this instanceof Split s ? s.axisOfDim() : Collections.emptySortedMap();
  }

  /**
   * Checks this sharding for a value of {@code shape} on {@code mesh}: dimensions in range, axes on
   * the mesh, each split dimension a multiple of its axis size.
   *
   * @param what names the value in the message, e.g. {@code parameter 'w'}
   */
  default void check(Shape shape, Mesh mesh, String what) {
    for (Map.Entry<Integer, String> e : splits().entrySet()) {
      int d = e.getKey();
      if (d >= shape.rank()) {
        throw new IllegalArgumentException(
            what + " of shape " + shape + " has no dimension " + d + " to split (" + this + ")");
      }
      int n = mesh.axisSize(e.getValue());
      if (shape.dim(d) % n != 0) {
        throw new IllegalArgumentException(
            what
                + ": dimension "
                + d
                + " of "
                + shape
                + " does not split evenly over mesh axis "
                + e.getValue()
                + "="
                + n);
      }
    }
  }

  /** The block each device holds. */
  default Shape shardShape(Shape global, Mesh mesh) {
    int[] dims = global.dims();
    splits().forEach((d, axis) -> dims[d] /= mesh.axisSize(axis));
    return Shape.of(dims);
  }

  /** Where the block of mesh position {@code position} starts in the global value. */
  default int[] shardOffsets(Shape global, Mesh mesh, int position) {
    int[] coords = mesh.coordinates(position);
    int[] off = new int[global.rank()];
    Shape block = shardShape(global, mesh);
    splits().forEach((d, axis) -> off[d] = coords[mesh.axisIndex(axis)] * block.dim(d));
    return off;
  }

  /**
   * Whether position {@code position} holds the first copy of its block (coordinate 0 on every axis
   * that splits nothing), so a gather reads each block once.
   */
  default boolean isPrimary(Mesh mesh, int position) {
    int[] coords = mesh.coordinates(position);
    Set<String> used = new HashSet<>(splits().values());
    for (int i = 0; i < coords.length; i++) {
      if (!used.contains(mesh.axes().get(i).name()) && coords[i] != 0) {
        return false;
      }
    }
    return true;
  }
}
