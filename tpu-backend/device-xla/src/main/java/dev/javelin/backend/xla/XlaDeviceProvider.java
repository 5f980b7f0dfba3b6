package dev.javelin.backend.xla;

import dev.javelin.backend.Device;
import dev.javelin.backend.DeviceProvider;
import java.util.Optional;

/**
 * Serves {@code xla:cpu}, {@code xla:gpu} and {@code tpu} through a PJRT plugin found by {@link
 * PluginDiscovery}; unavailable (with the places tried) when no plugin or no JNI shim is present.
 */
public final class XlaDeviceProvider implements DeviceProvider {

  @Override
  public boolean supports(String spec) {
    return PluginDiscovery.supports(spec);
  }

  @Override
  public Optional<String> unavailableReason(String spec) {
    Optional<String> shim = PjrtNative.load();
    if (shim.isPresent()) {
      return shim;
    }
    PluginDiscovery.Result found = PluginDiscovery.fromProcess().find(spec);
    return found.plugin().isPresent() ? Optional.empty() : Optional.of(found.describe(spec));
  }

  @Override
  public Device open(String spec) {
    PluginDiscovery.Result found = PluginDiscovery.fromProcess().find(spec);
    return XlaDevice.open(
        spec,
        PjrtPlugin.load(
            found.plugin().orElseThrow(() -> new IllegalStateException(found.describe(spec)))));
  }
}
