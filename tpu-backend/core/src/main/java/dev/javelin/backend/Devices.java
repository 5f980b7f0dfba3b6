package dev.javelin.backend;

import java.util.ArrayList;
import java.util.List;
import java.util.ServiceLoader;
import java.util.logging.Logger;

/** Opens a device by spec through the {@link DeviceProvider}s on the class path. */
public final class Devices {
  private static final Logger LOG = Logger.getLogger(Devices.class.getName());

  private Devices() {}

  /**
   * Opens the device named by {@code spec}. Fails with every provider's reason when none can serve
   * it.
   *
   * @param spec {@code cpu}, {@code ref}, {@code xla:cpu}, {@code xla:gpu} or {@code tpu}; the PJRT
   *     ones optionally bound to chips, e.g. {@code tpu@0-3} or {@code xla:cpu@2}
   */
  public static Device open(String spec) {
    List<String> reasons = new ArrayList<>();
    for (DeviceProvider provider : ServiceLoader.load(DeviceProvider.class)) {
      if (!provider.supports(spec)) {
        continue;
      }
      var reason = provider.unavailableReason(spec);
      if (reason.isPresent()) {
        LOG.info(
            () -> "device provider " + provider.getClass().getName() + " skipped: " + reason.get());
        reasons.add(provider.getClass().getSimpleName() + ": " + reason.get());
        continue;
      }
      return provider.open(spec);
    }
    throw new IllegalArgumentException(
        "no device provider can open '"
            + spec
            + "'"
            + (reasons.isEmpty()
                ? " (known specs: cpu, ref, xla:cpu, xla:gpu, tpu; the last three take @<chips>)"
                : ": " + reasons));
  }
}
