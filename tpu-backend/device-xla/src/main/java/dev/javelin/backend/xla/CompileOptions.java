package dev.javelin.backend.xla;

import java.io.ByteArrayOutputStream;
import java.util.List;

/**
 * Serializes the {@code xla.CompileOptionsProto} we compile with, by hand (no protobuf runtime).
 * Field numbers, from openxla/xla {@code xla/pjrt/proto/compile_options.proto} and {@code
 * xla/xla_data.proto}:
 *
 * <ul>
 *   <li>{@code CompileOptionsProto.executable_build_options = 3}
 *   <li>{@code ExecutableBuildOptionsProto}: {@code num_replicas = 4}, {@code num_partitions = 5},
 *       {@code use_spmd_partitioning = 6}, {@code device_assignment = 9}
 *   <li>{@code DeviceAssignmentProto}: {@code replica_count = 1}, {@code computation_count = 2},
 *       {@code computation_devices = 3} (repeated {@code ComputationDevice}, whose {@code
 *       replica_device_ids = 1})
 * </ul>
 */
final class CompileOptions {
  private static final int COMPILE_OPTIONS_EXECUTABLE_BUILD_OPTIONS = 3;
  private static final int BUILD_OPTIONS_NUM_REPLICAS = 4;
  private static final int BUILD_OPTIONS_NUM_PARTITIONS = 5;
  private static final int BUILD_OPTIONS_USE_SPMD_PARTITIONING = 6;
  private static final int BUILD_OPTIONS_DEVICE_ASSIGNMENT = 9;
  private static final int ASSIGNMENT_REPLICA_COUNT = 1;
  private static final int ASSIGNMENT_COMPUTATION_COUNT = 2;
  private static final int ASSIGNMENT_COMPUTATION_DEVICES = 3;
  private static final int COMPUTATION_DEVICE_REPLICA_DEVICE_IDS = 1;

  private CompileOptions() {}

  /**
   * One replica, one partition: a single-device program, assigned to device {@code deviceId} (so
   * PJRT runs it there, not on the client's first device).
   */
  static byte[] singleDevice(int deviceId) {
    ByteArrayOutputStream build = new ByteArrayOutputStream();
    varintField(build, BUILD_OPTIONS_NUM_REPLICAS, 1);
    varintField(build, BUILD_OPTIONS_NUM_PARTITIONS, 1);
    bytesField(build, BUILD_OPTIONS_DEVICE_ASSIGNMENT, assignment(List.of(deviceId)));
    return wrap(COMPILE_OPTIONS_EXECUTABLE_BUILD_OPTIONS, build.toByteArray());
  }

  /**
   * One replica, one SPMD partition per device: partition {@code p} (mesh position {@code p}, the
   * id that sharding strings use) runs on device {@code deviceIds.get(p)}.
   */
  static byte[] partitioned(List<Integer> deviceIds) {
    ByteArrayOutputStream build = new ByteArrayOutputStream();
    varintField(build, BUILD_OPTIONS_NUM_REPLICAS, 1);
    varintField(build, BUILD_OPTIONS_NUM_PARTITIONS, deviceIds.size());
    varintField(build, BUILD_OPTIONS_USE_SPMD_PARTITIONING, 1);
    bytesField(build, BUILD_OPTIONS_DEVICE_ASSIGNMENT, assignment(deviceIds));
    return wrap(COMPILE_OPTIONS_EXECUTABLE_BUILD_OPTIONS, build.toByteArray());
  }

  /** One replica, partition {@code p} on device {@code deviceIds.get(p)}. */
  private static byte[] assignment(List<Integer> deviceIds) {
    ByteArrayOutputStream assignment = new ByteArrayOutputStream();
    varintField(assignment, ASSIGNMENT_REPLICA_COUNT, 1);
    varintField(assignment, ASSIGNMENT_COMPUTATION_COUNT, deviceIds.size());
    for (int id : deviceIds) {
      ByteArrayOutputStream computation = new ByteArrayOutputStream();
      varintField(computation, COMPUTATION_DEVICE_REPLICA_DEVICE_IDS, id);
      bytesField(assignment, ASSIGNMENT_COMPUTATION_DEVICES, computation.toByteArray());
    }
    return assignment.toByteArray();
  }

  private static byte[] wrap(int field, byte[] inner) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    bytesField(out, field, inner);
    return out.toByteArray();
  }

  private static void bytesField(ByteArrayOutputStream out, int field, byte[] bytes) {
    varint(out, ((long) field << 3) | 2); // length-delimited
    varint(out, bytes.length);
    out.write(bytes, 0, bytes.length);
  }

  private static void varintField(ByteArrayOutputStream out, int field, long value) {
    varint(out, (long) field << 3); // wire type 0
    varint(out, value);
  }

  private static void varint(ByteArrayOutputStream out, long value) {
    long v = value;
    while ((v & ~0x7FL) != 0) {
      out.write((int) ((v & 0x7F) | 0x80));
      v >>>= 7;
    }
    out.write((int) v);
  }
}
