package dev.javelin.backend.cpu;

import dev.javelin.backend.Device;
import dev.javelin.backend.DeviceProvider;
import java.util.Optional;

/** Serves the {@code cpu} spec when OpenBLAS loads on this machine. */
public final class CpuDeviceProvider implements DeviceProvider {

  @Override
  public boolean supports(String spec) {
    return "cpu".equals(spec);
  }

  @Override
  public Optional<String> unavailableReason(String spec) {
    return Blas.load();
  }

  @Override
  public Device open(String spec) {
    Blas.load()
        .ifPresent(
            reason -> {
              throw new IllegalStateException("cannot open cpu device: " + reason);
            });
    return CpuDevice.withDefaultThreads();
  }
}
