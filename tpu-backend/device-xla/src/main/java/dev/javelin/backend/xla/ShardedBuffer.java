package dev.javelin.backend.xla;

import dev.javelin.backend.DType;
import dev.javelin.backend.DeviceBuffer;
import dev.javelin.backend.Shape;
import dev.javelin.backend.Tensor;
import dev.javelin.backend.spmd.HostShards;
import dev.javelin.backend.spmd.Mesh;
import dev.javelin.backend.spmd.Sharding;
import java.util.ArrayList;
import java.util.List;

/**
 * A value laid out over a mesh: one PJRT buffer per mesh position, each holding that position's
 * block of the global value. {@link #shape()} is the global shape; {@link #toHost()} gathers the
 * blocks (reading each distinct block once). Closing frees every block.
 */
public final class ShardedBuffer implements DeviceBuffer {
  private final XlaDevice device;
  private final Shape shape;
  private final Mesh mesh;
  private final Sharding sharding;
  private final List<XlaBuffer> shards;

  /** {@code shards}: one block per mesh position, in the mesh's order (never empty). */
  ShardedBuffer(
      XlaDevice device, Shape shape, Mesh mesh, Sharding sharding, List<XlaBuffer> shards) {
    if (shards.size() != mesh.size()) {
      throw new IllegalArgumentException(
          shards.size() + " blocks for a mesh of " + mesh.size() + " devices");
    }
    this.device = device;
    this.shape = shape;
    this.mesh = mesh;
    this.sharding = sharding;
    this.shards = List.copyOf(shards);
  }

  /** Splits {@code tensor} on the host and uploads each block to its mesh device. */
  static ShardedBuffer upload(XlaDevice device, Tensor tensor, Mesh mesh, Sharding sharding) {
    List<Tensor> blocks = HostShards.split(tensor, sharding, mesh);
    List<XlaBuffer> shards = new ArrayList<>(blocks.size());
    try {
      for (int p = 0; p < blocks.size(); p++) {
        long handle = device.client().device(mesh.deviceIds().get(p));
        shards.add(device.uploadTo(handle, blocks.get(p)));
      }
    } catch (RuntimeException e) {
      shards.forEach(XlaBuffer::close);
      throw e;
    }
    return new ShardedBuffer(device, tensor.shape(), mesh, sharding, shards);
  }

  @Override
  public Shape shape() {
    return shape;
  }

  @Override
  public DType dtype() {
    return shards.get(0).dtype(); // every block has the value's element type
  }

  public Mesh mesh() {
    return mesh;
  }

  public Sharding sharding() {
    return sharding;
  }

  /** The shape of each block. */
  public Shape shardShape() {
    return sharding.shardShape(shape, mesh);
  }

  /** The block at mesh position {@code position}, copied to the host. */
  public Tensor shardToHost(int position) {
    return shards.get(position).toHost();
  }

  /** Bytes the block at {@code position} occupies on its device, as the plugin reports them. */
  @Override
  public long bytesOnChip(int position) {
    return shards.get(position).onDeviceBytes();
  }

  /** The PJRT id of the device holding the block at {@code position}. */
  public int deviceId(int position) {
    return shards.get(position).chip();
  }

  XlaDevice device() {
    return device;
  }

  /** The PJRT buffer handle of the block at {@code position}. */
  long shardHandle(int position) {
    return shards.get(position).handle();
  }

  @Override
  public Tensor toHost() {
    return HostShards.gather(dtype(), shape, sharding, mesh, this::shardToHost);
  }

  @Override
  public void close() {
    shards.forEach(XlaBuffer::close);
  }

  @Override
  public String toString() {
    return "ShardedBuffer[" + dtype().mlirName() + shape + " " + sharding + " on " + mesh + "]";
  }
}
