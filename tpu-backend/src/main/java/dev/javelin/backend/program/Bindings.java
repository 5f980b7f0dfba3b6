package dev.javelin.backend.program;

import dev.javelin.backend.DeviceBuffer;
import dev.javelin.backend.graph.Node;
import dev.javelin.backend.graph.Op;
import dev.javelin.backend.graph.Program;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** Orders named device buffers as a program's arguments, checking names, shapes and types. */
public final class Bindings {
  private Bindings() {}

  /** The argument list of {@code program} taken by parameter name from {@code named}. */
  public static List<DeviceBuffer> bind(
      Program program, Map<String, ? extends DeviceBuffer> named) {
    List<DeviceBuffer> args = new ArrayList<>(program.parameters().size());
    for (Node p : program.parameters()) {
      String name = ((Op.Parameter) p.op()).name();
      DeviceBuffer b = named.get(name);
      if (b == null) {
        throw new IllegalArgumentException(
            "program '" + program.name() + "' needs argument '" + name + "'");
      }
      if (!b.shape().equals(p.shape()) || b.dtype() != p.dtype()) {
        throw new IllegalArgumentException(
            "argument '"
                + name
                + "' of program '"
                + program.name()
                + "' must be "
                + p.dtype().mlirName()
                + p.shape()
                + ", got "
                + b.dtype().mlirName()
                + b.shape());
      }
      args.add(b);
    }
    return args;
  }
}
