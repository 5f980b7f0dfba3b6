package dev.javelin.backend.xla;

import java.util.HashMap;
import java.util.Map;
import java.util.logging.Logger;

/**
 * The PJRT client of one plugin, shared by every {@link XlaDevice} opened on that plugin in this
 * process and destroyed when the last of them closes. Sharing matters on accelerators: a TPU
 * runtime gives its chips to one client per process, so a trainer and samplers in one JVM (Ray
 * local mode) must not each create their own. PJRT clients are thread-safe.
 */
final class PjrtClient {
  private static final Logger LOG = Logger.getLogger(PjrtClient.class.getName());
  private static final Map<PjrtPlugin, PjrtClient> OPEN = new HashMap<>();

  private final PjrtPlugin plugin;
  private final long handle;
  private final long[] devices;
  private final String platform;
  private final String platformVersion;
  private int users;

  private PjrtClient(
      PjrtPlugin plugin, long handle, long[] devices, String platform, String platformVersion) {
    this.plugin = plugin;
    this.handle = handle;
    this.devices = devices;
    this.platform = platform;
    this.platformVersion = platformVersion;
  }

  /** The plugin's client, created on first use; pair with {@link #release}. */
  static synchronized PjrtClient acquire(PjrtPlugin plugin) {
    PjrtClient c = OPEN.get(plugin);
    if (c == null) {
      c = create(plugin);
      OPEN.put(plugin, c);
    }
    c.users++;
    return c;
  }

  private static PjrtClient create(PjrtPlugin plugin) {
    long client = PjrtNative.clientCreate(plugin.api(), new String[0], new long[0]);
    try {
      long[] devices = PjrtNative.addressableDevices(plugin.api(), client);
      if (devices.length == 0) {
        throw new IllegalStateException("PJRT plugin " + plugin.path() + " has no devices");
      }
      String platform = PjrtNative.platformName(plugin.api(), client);
      String version = PjrtNative.platformVersion(plugin.api(), client);
      LOG.info(
          () ->
              "created a PJRT client on "
                  + plugin.path().getFileName()
                  + ": platform "
                  + platform
                  + ", "
                  + devices.length
                  + " devices");
      return new PjrtClient(plugin, client, devices, platform, version);
    } catch (RuntimeException e) {
      PjrtNative.clientDestroy(plugin.api(), client);
      throw e;
    }
  }

  /** Gives this client back; the last user destroys it. */
  void release() {
    synchronized (PjrtClient.class) {
      if (users <= 0) {
        return;
      }
      users--;
      if (users == 0) {
        OPEN.remove(plugin);
        PjrtNative.clientDestroy(plugin.api(), handle);
      }
    }
  }

  long handle() {
    return handle;
  }

  /** The client's first addressable device. */
  long firstDevice() {
    return devices[0];
  }

  int deviceCount() {
    return devices.length;
  }

  String platform() {
    return platform;
  }

  String platformVersion() {
    return platformVersion;
  }
}
