package dev.javelin.backend.xla;

import dev.javelin.backend.DeviceBuffer;
import dev.javelin.backend.Donation;
import dev.javelin.backend.graph.Node;
import dev.javelin.backend.graph.Program;
import dev.javelin.backend.spmd.Mesh;
import dev.javelin.backend.spmd.ProgramSharding;
import java.util.ArrayList;
import java.util.List;

/**
 * A program compiled by XLA's SPMD partitioner into one partition per mesh device. Each run takes
 * {@link ShardedBuffer}s laid out as the program's {@link ProgramSharding} says and returns sharded
 * outputs; every device runs its partition in one PJRT execute call. Arguments named by its {@link
 * Donation} are consumed by each run.
 */
final class PartitionedExecutable extends PjrtExecutable {
  private final ProgramSharding sharding;

  /** The mesh position of each device in the executable's own device order. */
  private final int[] positions;

  PartitionedExecutable(
      XlaDevice device, Program program, ProgramSharding sharding, long handle, Donation donation) {
    super(device, program, handle, donation);
    this.sharding = sharding;
    this.positions = positions(chips(), sharding.mesh());
  }

  private static int[] positions(List<Integer> chips, Mesh mesh) {
    if (chips.size() != mesh.size()) {
      throw new IllegalStateException(
          "PJRT placed the program on " + chips.size() + " devices, the mesh has " + mesh.size());
    }
    int[] pos = new int[chips.size()];
    for (int k = 0; k < pos.length; k++) {
      pos[k] = mesh.deviceIds().indexOf(chips.get(k));
      if (pos[k] < 0) {
        throw new IllegalStateException("PJRT placed the program outside the mesh " + mesh);
      }
    }
    return pos;
  }

  @Override
  public List<DeviceBuffer> run(List<? extends DeviceBuffer> arguments) {
    List<Node> params = parameters(arguments);
    List<ShardedBuffer> args = new ArrayList<>(arguments.size());
    for (int i = 0; i < params.size(); i++) {
      args.add(argument(i, params.get(i), arguments.get(i)));
    }
    int n = positions.length;
    long[] flat = new long[n * args.size()];
    for (int k = 0; k < n; k++) {
      for (int i = 0; i < args.size(); i++) {
        flat[k * args.size() + i] = args.get(i).shardHandle(positions[k]);
      }
    }
    List<Node> outs = program.outputs();
    long[] results = execute(arguments, flat, n);
    List<DeviceBuffer> buffers = new ArrayList<>(outs.size());
    for (int o = 0; o < outs.size(); o++) {
      Node out = outs.get(o);
      XlaBuffer[] shards = new XlaBuffer[n];
      for (int k = 0; k < n; k++) {
        shards[positions[k]] =
            device.adopt(
                results[k * outs.size() + o],
                sharding.outputs().get(o).shardShape(out.shape(), sharding.mesh()),
                out.dtype());
      }
      buffers.add(
          new ShardedBuffer(
              device, out.shape(), sharding.mesh(), sharding.outputs().get(o), List.of(shards)));
    }
    return buffers;
  }

  private ShardedBuffer argument(int i, Node param, DeviceBuffer arg) {
    if (!(arg instanceof ShardedBuffer s) || s.device() != device) {
      throw new IllegalArgumentException(
          "argument "
              + i
              + " of "
              + program.name()
              + " must be a ShardedBuffer of "
              + device.name()
              + " (XlaDevice.upload(tensor, mesh, sharding))");
    }
    checkShape(i, param, s.dtype(), s.shape());
    if (!s.mesh().equals(sharding.mesh()) || !s.sharding().equals(sharding.parameters().get(i))) {
      throw new IllegalArgumentException(
          "argument "
              + i
              + " of "
              + program.name()
              + " is "
              + s.sharding()
              + " on "
              + s.mesh()
              + " but the program expects "
              + sharding.parameters().get(i)
              + " on "
              + sharding.mesh());
    }
    return s;
  }
}
