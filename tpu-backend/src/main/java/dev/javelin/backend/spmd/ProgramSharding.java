package dev.javelin.backend.spmd;

import dev.javelin.backend.Shape;
import java.util.List;

/**
 * The layout of a program's arguments and results on a mesh: what a device that partitions programs
 * needs besides the graph. Intermediate values are left to the partitioner.
 *
 * @param parameters one sharding per parameter, in argument order
 * @param outputs one sharding per output, in result order
 */
public record ProgramSharding(Mesh mesh, List<Sharding> parameters, List<Sharding> outputs) {

  public ProgramSharding {
    parameters = List.copyOf(parameters);
    outputs = List.copyOf(outputs);
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
