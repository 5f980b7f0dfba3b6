package dev.javelin.backend.xla;

import java.nio.file.Path;
import java.util.concurrent.ConcurrentHashMap;
import java.util.logging.Logger;

/**
 * A loaded and initialized PJRT plugin (one per library path per process: plugins may be
 * initialized only once).
 *
 * @param path the shared library
 * @param api the {@code PJRT_Api*} table
 * @param tableSize the table's {@code struct_size} in bytes
 * @param major the plugin's PJRT API major version
 * @param minor the plugin's PJRT API minor version
 */
public record PjrtPlugin(Path path, long api, long tableSize, int major, int minor) {
  private static final Logger LOG = Logger.getLogger(PjrtPlugin.class.getName());
  private static final ConcurrentHashMap<Path, PjrtPlugin> LOADED = new ConcurrentHashMap<>();

  /** Loads (once) and initializes the plugin at {@code path}, refusing incompatible versions. */
  public static PjrtPlugin load(Path path) {
    PjrtNative.load()
        .ifPresent(
            reason -> {
              throw new IllegalStateException(reason);
            });
    return LOADED.computeIfAbsent(path.toAbsolutePath().normalize(), PjrtPlugin::open);
  }

  private static PjrtPlugin open(Path path) {
    long api = PjrtNative.loadPlugin(path.toString());
    long[] v = PjrtNative.apiVersion(api);
    PjrtPlugin plugin = new PjrtPlugin(path, api, v[0], (int) v[1], (int) v[2]);
    plugin.checkVersion(PjrtNative.headerMajorVersion(), PjrtNative.headerMinorVersion());
    PjrtNative.pluginInitialize(api);
    LOG.info(() -> "loaded PJRT plugin " + path + " (API " + plugin.version() + ")");
    return plugin;
  }

  /**
   * Refuses a plugin whose major version differs from ours or whose minor version is older than the
   * header we bind: our args structs carry that header's sizes.
   */
  void checkVersion(int boundMajor, int boundMinor) {
    if (major != boundMajor || minor < boundMinor) {
      throw new IllegalStateException(
          "PJRT plugin "
              + path
              + " speaks API "
              + version()
              + " but Javelin binds "
              + boundMajor
              + "."
              + boundMinor
              + " and supports plugins of major "
              + boundMajor
              + ", minor >= "
              + boundMinor
              + "; install a newer plugin (see tools/requirements/pjrt-cpu.txt)");
    }
  }

  public String version() {
    return major + "." + minor;
  }
}
