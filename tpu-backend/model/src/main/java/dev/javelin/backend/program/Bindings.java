package dev.javelin.backend.program;

import dev.javelin.backend.DeviceBuffer;
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
    for (int i = 0; i < program.parameters().size(); i++) {
      String name = ((Op.Parameter) program.parameters().get(i).op()).name();
      DeviceBuffer b = named.get(name);
      if (b == null) {
        throw new IllegalArgumentException(
            "program '" + program.name() + "' needs argument '" + name + "'");
      }
      program.checkArgument(i, b.dtype(), b.shape());
      args.add(b);
    }
    return args;
  }
}
