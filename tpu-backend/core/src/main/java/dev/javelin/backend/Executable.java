package dev.javelin.backend;

import dev.javelin.backend.graph.Program;
import java.util.List;

/** A program compiled for one device. Thread-confined: one run at a time. */
public interface Executable extends AutoCloseable {

  Program program();

  /**
   * Runs the program. Arguments are in the program's parameter order and must match their shapes
   * and types; results are in output order and owned by the caller.
   */
  List<DeviceBuffer> run(List<? extends DeviceBuffer> arguments);

  @Override
  default void close() {}
}
