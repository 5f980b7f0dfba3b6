package dev.javelin.backend.xla;

import java.io.ByteArrayOutputStream;

/**
 * Serializes the {@code xla.CompileOptionsProto} we compile with, by hand (no protobuf runtime):
 * {@code executable_build_options (3) { num_replicas (4) = 1, num_partitions (5) = 1 }}.
 */
final class CompileOptions {
  private static final int COMPILE_OPTIONS_EXECUTABLE_BUILD_OPTIONS = 3;
  private static final int BUILD_OPTIONS_NUM_REPLICAS = 4;
  private static final int BUILD_OPTIONS_NUM_PARTITIONS = 5;

  private CompileOptions() {}

  /** One replica, one partition: a single-device program. */
  static byte[] singleDevice() {
    ByteArrayOutputStream build = new ByteArrayOutputStream();
    varintField(build, BUILD_OPTIONS_NUM_REPLICAS, 1);
    varintField(build, BUILD_OPTIONS_NUM_PARTITIONS, 1);
    byte[] inner = build.toByteArray();
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    varint(out, (COMPILE_OPTIONS_EXECUTABLE_BUILD_OPTIONS << 3) | 2); // length-delimited
    varint(out, inner.length);
    out.write(inner, 0, inner.length);
    return out.toByteArray();
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
