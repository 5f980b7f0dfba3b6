package dev.javelin.backend.reference;

import dev.javelin.backend.DeviceBuffer;
import dev.javelin.backend.Executable;
import dev.javelin.backend.graph.Program;
import java.util.ArrayList;
import java.util.List;

/** A program bound to the reference interpreter; checks every argument before running. */
final class ReferenceExecutable implements Executable {
  private final Program program;

  ReferenceExecutable(Program program) {
    this.program = program;
  }

  @Override
  public Program program() {
    return program;
  }

  @Override
  public List<DeviceBuffer> run(List<? extends DeviceBuffer> arguments) {
    List<Value> values = new ArrayList<>(arguments.size());
    checkCount(arguments.size());
    for (int i = 0; i < arguments.size(); i++) {
      DeviceBuffer b = arguments.get(i);
      if (!(b instanceof ReferenceBuffer rb)) {
        throw new IllegalArgumentException(
            "argument " + i + " of '" + program.name() + "' is not a reference-device buffer");
      }
      program.checkArgument(i, rb.dtype(), rb.shape());
      values.add(rb.value());
    }
    List<DeviceBuffer> out = new ArrayList<>();
    for (Value v : Interpreter.run(program, values)) {
      out.add(new ReferenceBuffer(v));
    }
    return out;
  }

  private void checkCount(int n) {
    if (n != program.parameters().size()) {
      throw new IllegalArgumentException(
          "program '"
              + program.name()
              + "' takes "
              + program.parameters().size()
              + " arguments, got "
              + n);
    }
  }
}
