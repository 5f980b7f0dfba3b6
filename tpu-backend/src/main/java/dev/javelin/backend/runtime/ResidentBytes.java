package dev.javelin.backend.runtime;

import dev.javelin.backend.DeviceBuffer;
import java.util.Collection;

/** Device memory that buffers hold on one chip of a mesh, measured from the buffers. */
final class ResidentBytes {
  private ResidentBytes() {}

  /**
   * Bytes of {@code buffers} on the chip at mesh position {@code position}: each sharded buffer's
   * block there as the device reports it; an unsharded buffer counts its whole size at position 0.
   */
  static long of(Collection<DeviceBuffer> buffers, int position) {
    long sum = 0;
    for (DeviceBuffer b : buffers) {
      sum += b.bytesOnChip(position);
    }
    return sum;
  }
}
