package dev.javelin.backend.reference;

import dev.javelin.backend.Device;
import dev.javelin.backend.DeviceProvider;

/** Provides the {@code ref} device; pure Java, so always available. */
public final class ReferenceDeviceProvider implements DeviceProvider {

  @Override
  public boolean supports(String spec) {
    return "ref".equals(spec);
  }

  @Override
  public Device open(String spec) {
    if (!supports(spec)) {
      throw new IllegalArgumentException("reference provider cannot open '" + spec + "'");
    }
    return new ReferenceDevice();
  }
}
