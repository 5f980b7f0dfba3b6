package dev.javelin.backend;

import dev.javelin.backend.graph.Program;
import dev.javelin.backend.spmd.Mesh;
import dev.javelin.backend.spmd.Sharding;
import java.util.List;

/**
 * Where programs run: {@code cpu} (the host engine), {@code ref} (naive reference kernels), or an
 * XLA device through PJRT. A device compiles programs once and keeps tensors resident between runs.
 */
public interface Device extends AutoCloseable {

  /** The spec this device was opened with, e.g. {@code cpu} or {@code xla:cpu}. */
  String name();

  /** Compiles a program; callers cache the result per shape bucket. */
  Executable compile(Program program);

  /**
   * Compiles a program whose runs may update the donated arguments in place (see {@link Donation}).
   * The default ignores the donation: outputs are fresh buffers and the arguments stay intact,
   * which is correct, only not in place.
   */
  default Executable compile(Program program, Donation donation) {
    donation.validate(program);
    return compile(program);
  }

  /**
   * The PJRT ids of the chips this device is bound to (what a mesh may use); a host device is one
   * chip, 0.
   */
  default List<Integer> chips() {
    return List.of(0);
  }

  /**
   * Whether this device compiles programs partitioned over a mesh of its {@link #chips()} (and
   * uploads values split across them); a host device runs on one chip.
   */
  default boolean partitionsOverMeshes() {
    return false;
  }

  /** Copies a host tensor to the device. */
  DeviceBuffer upload(Tensor tensor);

  /**
   * Copies a host tensor split by {@code sharding} over {@code mesh}: each chip receives its block.
   * Only a device that {@link #partitionsOverMeshes()} takes a mesh of more than one chip.
   */
  default DeviceBuffer upload(Tensor tensor, Mesh mesh, Sharding sharding) {
    if (mesh.size() > 1) {
      throw new UnsupportedOperationException(
          "device '" + name() + "' runs on one chip: a mesh of " + mesh.size() + " needs xla:*");
    }
    return upload(tensor);
  }

  @Override
  default void close() {}
}
