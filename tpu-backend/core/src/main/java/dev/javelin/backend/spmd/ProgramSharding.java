package dev.javelin.backend.spmd;

import dev.javelin.backend.Shape;
import java.util.List;
import java.util.Optional;

/**
 * The layout of a program's arguments and results on a mesh: what a device that partitions programs
 * needs besides the graph. Of the intermediate values, those marked {@linkplain
 * dev.javelin.backend.graph.Node#batchMajor batch-major} are constrained to lie split over {@code
 * batchAxis}; the rest are left to the partitioner.
 *
 * @param parameters one sharding per parameter, in argument order
 * @param outputs one sharding per output, in result order
 * @param batchAxis the mesh axis that splits the batch, or null (none does)
 */
public record ProgramSharding(
    Mesh mesh, List<Sharding> parameters, List<Sharding> outputs, String batchAxis) {

  public ProgramSharding {
    parameters = List.copyOf(parameters);
    outputs = List.copyOf(outputs);
    if (batchAxis != null) {
      mesh.axisSize(batchAxis); // names an axis of the mesh
    }
  }

  /** Arguments and results laid out, intermediate values all left to the partitioner. */
  public ProgramSharding(Mesh mesh, List<Sharding> parameters, List<Sharding> outputs) {
    this(mesh, parameters, outputs, null);
  }

  /**
   * The layout of a batch-major value of {@code shape}: dimension 0 over the batch axis where it
   * divides evenly; empty where no axis splits the batch or it does not divide.
   */
  public Optional<Sharding> batchMajor(Shape shape) {
    return batchSplit(mesh, batchAxis, shape);
  }

  /** Dimension 0 of {@code shape} over {@code axis} of {@code mesh} where it divides evenly. */
  public static Optional<Sharding> batchSplit(Mesh mesh, String axis, Shape shape) {
    return batchSplit(mesh, axis, shape, 0);
  }

  /** Dimension {@code dim} of {@code shape} over {@code axis} where it divides evenly. */
  public static Optional<Sharding> batchSplit(Mesh mesh, String axis, Shape shape, int dim) {
    if (axis == null || shape.rank() <= dim || shape.dim(dim) % mesh.axisSize(axis) != 0) {
      return Optional.empty();
    }
    return Optional.of(Sharding.split(dim, axis));
  }

  /**
   * Checks counts and every sharding against the value's shape.
   *
   * @param program names the program in messages
   */
  public void check(String program, List<Shape> parameterShapes, List<Shape> outputShapes) {
    if (parameters.size() != parameterShapes.size() || outputs.size() != outputShapes.size()) {
      throw new IllegalArgumentException(
          "program '"
              + program
              + "' has "
              + parameterShapes.size()
              + " parameters and "
              + outputShapes.size()
              + " outputs but its sharding lists "
              + parameters.size()
              + " and "
              + outputs.size());
    }
    for (int i = 0; i < parameters.size(); i++) {
      parameters.get(i).check(parameterShapes.get(i), mesh, program + " parameter " + i);
    }
    for (int i = 0; i < outputs.size(); i++) {
      outputs.get(i).check(outputShapes.get(i), mesh, program + " output " + i);
    }
  }
}
