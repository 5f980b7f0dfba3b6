package dev.javelin.backend;

import java.util.Optional;

/**
 * Service-provider interface for devices, found with {@link java.util.ServiceLoader} (register in
 * {@code META-INF/services/dev.javelin.backend.DeviceProvider}). A provider that cannot run here
 * says why, and {@link Devices} logs that reason instead of failing obscurely.
 */
public interface DeviceProvider {

  /** Whether this provider serves the spec, e.g. {@code cpu} or {@code xla:gpu}. */
  boolean supports(String spec);

  /**
   * Empty when usable here; otherwise the reason (missing native library, no plugin found, ...). A
   * provider that needs nothing from the machine keeps this default.
   */
  default Optional<String> unavailableReason(String spec) {
    return Optional.empty();
  }

  Device open(String spec);
}
