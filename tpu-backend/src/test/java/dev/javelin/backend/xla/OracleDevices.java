package dev.javelin.backend.xla;

import dev.javelin.backend.Device;
import dev.javelin.backend.Devices;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * The three devices a program is checked on, {@code ref} (the oracle), {@code cpu} and {@code
 * xla:cpu} (its compiles cached under {@code target/xla-cache}), open for one test class: register
 * with {@code @RegisterExtension static final OracleDevices DEVICES = new OracleDevices();}.
 */
final class OracleDevices implements BeforeAllCallback, AfterAllCallback {
  private Device ref;
  private Device cpu;
  private Device xla;

  @Override
  public void beforeAll(ExtensionContext context) {
    System.setProperty(CompileCache.PROPERTY, Path.of("target", "xla-cache").toString());
    xla = Devices.open("xla:cpu");
    cpu = Devices.open("cpu");
    ref = Devices.open("ref");
  }

  @Override
  public void afterAll(ExtensionContext context) {
    xla.close();
    cpu.close();
    ref.close();
  }

  Device ref() {
    return ref;
  }

  Device cpu() {
    return cpu;
  }

  Device xla() {
    return xla;
  }

  /** ref, cpu and xla:cpu, in that order. */
  List<Device> all() {
    return List.of(ref, cpu, xla);
  }
}
