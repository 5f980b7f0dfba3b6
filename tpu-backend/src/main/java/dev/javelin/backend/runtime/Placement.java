package dev.javelin.backend.runtime;

import dev.javelin.backend.Device;
import dev.javelin.backend.DeviceBuffer;
import dev.javelin.backend.Donation;
import dev.javelin.backend.Executable;
import dev.javelin.backend.Tensor;
import dev.javelin.backend.graph.Program;
import dev.javelin.backend.model.ModelConfig;
import dev.javelin.backend.program.ShardPlan;
import dev.javelin.backend.spmd.Mesh;
import java.util.List;
import java.util.Map;

/**
 * Where a model's values and programs go: one device, or a mesh of its chips laid out by a {@link
 * ShardPlan}. Holds the model's bounded cache of compiled programs ({@link ProgramLru}).
 */
final class Placement implements AutoCloseable {
  private final Device device;
  private final Mesh mesh; // null: one chip
  private final ShardPlan plan; // null: one chip
  private final Map<String, Executable> compiled =
      ProgramLru.map(ProgramLru.MAX_PROGRAMS, Executable::close);

  /** {@code mesh} may be null; a one-chip mesh places everything on {@code device} as it is. */
  Placement(Device device, Mesh mesh, ModelConfig config) {
    boolean sharded = mesh != null && mesh.size() > 1;
    if (sharded && !device.partitionsOverMeshes()) {
      throw new IllegalArgumentException(
          "device '"
              + device.name()
              + "' runs on one chip: a mesh of "
              + mesh.size()
              + " ("
              + mesh
              + ") needs an xla:* device");
    }
    this.device = device;
    this.mesh = mesh;
    this.plan = sharded ? ShardPlan.of(mesh, config) : null;
  }

  Mesh mesh() {
    return mesh;
  }

  /**
   * The program compiled for {@code spec}, compiled now if absent, with its {@link Donation}. On a
   * mesh it is compiled with the plan's layout ({@link ShardPlan#program(Program, List, Map)}:
   * output i lies as the value {@code spec.outputNames().get(i)}, parameter p as {@code
   * spec.parameterRoles().get(p)} where the map has it), under a key naming the mesh.
   */
  Executable executable(ProgramSpec spec) {
    String at = plan == null ? spec.key() : spec.key() + "@" + mesh;
    Executable e = compiled.get(at);
    if (e == null) {
      Program p = spec.build().get();
      if (plan != null) {
        p = p.withSharding(plan.program(p, spec.outputNames(), spec.parameterRoles()));
      }
      e = device.compile(p, spec.donation().apply(p));
      compiled.put(at, e);
    }
    return e;
  }

  /**
   * Uploads the value programs name {@code name}: to the device, or on a mesh split as the plan
   * lays that value out.
   */
  DeviceBuffer upload(String name, Tensor tensor) {
    if (plan == null) {
      return device.upload(tensor);
    }
    return device.upload(tensor, mesh, plan.of(name, tensor.shape()));
  }

  @Override
  public void close() {
    compiled.values().forEach(Executable::close);
    compiled.clear();
  }
}
