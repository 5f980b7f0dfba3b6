package dev.javelin.backend.xla;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Plugin discovery order and messages, and the version gate. */
class PluginDiscoveryTest {

  @Test
  void explicitPathWins(@TempDir Path dir) throws IOException {
    Path so = Files.createFile(dir.resolve("my_plugin.so"));
    Path venv = fakeVenv(dir, "libtpu/libtpu.so");
    var found =
        new PluginDiscovery(Map.of(PluginDiscovery.ENV_PLUGIN, so.toString()), List.of(venv))
            .find("tpu");
    assertEquals(Optional.of(so), found.plugin());
  }

  @Test
  void findsPackagedPluginsPerSpec(@TempDir Path dir) throws IOException {
    Path venv = fakeVenv(dir, "libtpu/libtpu.so", "jax_plugins/xla_cuda12/xla_cuda_plugin.so");
    var discovery = new PluginDiscovery(Map.of(), List.of(venv));
    assertTrue(discovery.find("tpu").plugin().orElseThrow().endsWith("libtpu/libtpu.so"));
    assertTrue(discovery.find("xla:gpu").plugin().orElseThrow().toString().contains("xla_cuda12"));
    assertTrue(discovery.find("xla:cpu").plugin().isEmpty());
  }

  @Test
  void missingPluginListsEverythingTried(@TempDir Path dir) {
    var found =
        new PluginDiscovery(
                Map.of(PluginDiscovery.ENV_PLUGIN, "/nope/x.so"), List.of(dir.resolve("venv")))
            .find("xla:cpu");
    String msg = found.describe("xla:cpu");
    assertTrue(found.plugin().isEmpty());
    assertTrue(msg.contains("/nope/x.so (no such file)"), msg);
    assertTrue(msg.contains("no virtualenv"), msg);
    assertTrue(msg.contains("pjrt-cpu.txt"), msg);
  }

  @Test
  void refusesOlderOrOtherMajorPlugins() {
    PjrtPlugin old = new PjrtPlugin(Path.of("old.so"), 0, 900, 0, 54);
    var e = assertThrows(IllegalStateException.class, () -> old.checkVersion(0, 81));
    assertTrue(e.getMessage().contains("speaks API 0.54 but Javelin binds 0.81"), e.getMessage());
    assertThrows(
        IllegalStateException.class,
        () -> new PjrtPlugin(Path.of("next.so"), 0, 900, 1, 0).checkVersion(0, 81));
    new PjrtPlugin(Path.of("new.so"), 0, 1200, 0, 115).checkVersion(0, 81);
  }

  @Test
  void badLibraryFailsWithTheLoaderMessage() {
    assertTrue(PjrtNative.load().isEmpty(), () -> PjrtNative.load().get());
    var e = assertThrows(PjrtException.class, () -> PjrtNative.loadPlugin("/nope/libx.so"));
    assertTrue(e.getMessage().contains("/nope/libx.so"), e.getMessage());
  }

  private static Path fakeVenv(Path dir, String... libs) throws IOException {
    Path sp = dir.resolve("venv/lib/python3.11/site-packages");
    for (String lib : libs) {
      Files.createDirectories(sp.resolve(lib).getParent());
      Files.createFile(sp.resolve(lib));
    }
    return dir.resolve("venv");
  }
}
