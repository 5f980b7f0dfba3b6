package dev.javelin.backend.xla;

import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import java.util.TreeMap;
import java.util.logging.Logger;

/**
 * The PJRT client of one plugin, shared by every {@link XlaDevice} opened on that plugin in this
 * process and destroyed when the last of them closes. Sharing matters on accelerators: a TPU
 * runtime gives its chips to one client per process, so a trainer and samplers in one JVM (Ray
 * local mode) must not each create their own. PJRT clients are thread-safe.
 */
final class PjrtClient {
  /**
   * How many devices the {@code xla:cpu} client creates (the CPU plugin's {@code cpu_device_count}
   * create option); unset, the plugin's default (one).
   */
  static final String CPU_DEVICES_PROPERTY = "javelin.xla.cpu.devices";

  private static final String CPU_DEVICE_COUNT_OPTION = "cpu_device_count";

  /** The CPU plugin's thread-pool size variable ({@link #sizeCpuPool}). */
  static final String POOL_ENV = "PJRT_NPROC";

  private static final Logger LOG = Logger.getLogger(PjrtClient.class.getName());
  private static final Map<PjrtPlugin, PjrtClient> OPEN = new HashMap<>();

  private final PjrtPlugin plugin;
  private final long handle;
  private final long[] devices;
  private final long[] deviceIds;
  private final Map<String, Long> options;
  private final String platform;
  private final String platformVersion;
  private int users;

  private PjrtClient(
      PjrtPlugin plugin,
      long handle,
      long[] devices,
      Map<String, Long> options,
      String platform,
      String platformVersion) {
    this.plugin = plugin;
    this.handle = handle;
    this.devices = devices;
    this.deviceIds = PjrtNative.deviceIds(plugin.api(), devices);
    this.options = options;
    this.platform = platform;
    this.platformVersion = platformVersion;
  }

  /**
   * The plugin's client, created on first use with the create options {@code spec} asks for (see
   * {@link #CPU_DEVICES_PROPERTY}); pair with {@link #release}.
   */
  static synchronized PjrtClient acquire(PjrtPlugin plugin, String spec) {
    Map<String, Long> options = createOptions(spec);
    PjrtClient c = OPEN.get(plugin);
    if (c != null && !c.options.equals(options)) {
      throw new IllegalStateException(
          "the PJRT client of "
              + plugin.path().getFileName()
              + " is already open with options "
              + c.options
              + ", not "
              + options
              + "; close every device on it before changing -D"
              + CPU_DEVICES_PROPERTY);
    }
    if (c == null) {
      c = create(plugin, options);
      OPEN.put(plugin, c);
    }
    c.users++;
    return c;
  }

  /** {@code cpu_device_count} from {@link #CPU_DEVICES_PROPERTY} for {@code xla:cpu}. */
  static Map<String, Long> createOptions(String spec) {
    String value = System.getProperty(CPU_DEVICES_PROPERTY);
    if (value == null || !ChipSpec.pluginOf(spec).equals("xla:cpu")) {
      return Map.of();
    }
    if (!value.trim().matches("[0-9]{1,4}") || Integer.parseInt(value.trim()) < 1) {
      throw new IllegalArgumentException(
          "-D" + CPU_DEVICES_PROPERTY + "=" + value + ": expected a device count from 1 to 9999");
    }
    return Map.of(CPU_DEVICE_COUNT_OPTION, Long.parseLong(value.trim()));
  }

  private static PjrtClient create(PjrtPlugin plugin, Map<String, Long> options) {
    Long cpuDevices = options.get(CPU_DEVICE_COUNT_OPTION);
    if (cpuDevices != null && cpuDevices > 1) {
      sizeCpuPool(cpuDevices);
    }
    TreeMap<String, Long> sorted = new TreeMap<>(options);
    long client =
        PjrtNative.clientCreate(
            plugin.api(),
            sorted.keySet().toArray(new String[0]),
            sorted.values().stream().mapToLong(Long::longValue).toArray());
    try {
      long[] devices = PjrtNative.addressableDevices(plugin.api(), client);
      if (devices.length == 0) {
        throw new IllegalStateException("PJRT plugin " + plugin.path() + " has no devices");
      }
      String[] nameAndVersion = new String[2];
      PjrtNative.platform(plugin.api(), client, nameAndVersion);
      String platform = nameAndVersion[0];
      String version = nameAndVersion[1];
      LOG.info(
          () ->
              "created a PJRT client on "
                  + plugin.path().getFileName()
                  + ": platform "
                  + platform
                  + ", "
                  + devices.length
                  + " devices");
      return new PjrtClient(plugin, client, devices, options, platform, version);
    } catch (RuntimeException e) {
      PjrtNative.clientDestroy(plugin.api(), client);
      throw e;
    }
  }

  /**
   * The CPU plugin runs each partition's collectives on its intra-op thread pool, which it sizes
   * from {@code PJRT_NPROC} (else {@code NPROC}, else the cores). With fewer workers than
   * partitions, the partitions waiting in an all-reduce hold every worker and the others never
   * arrive: measured as a deadlock (the plugin aborts after 40 s) of 4-device FSDP train steps on 2
   * cores. So the pool gets one worker more than there are devices, unless the user sized it.
   */
  private static void sizeCpuPool(long devices) {
    if (System.getenv(POOL_ENV) != null || System.getenv("NPROC") != null) {
      return;
    }
    String n = Long.toString(Math.max(Runtime.getRuntime().availableProcessors(), devices + 1));
    PjrtNative.setenv(POOL_ENV, n);
    LOG.info(() -> "xla:cpu with " + devices + " devices: " + POOL_ENV + "=" + n);
  }

  /** Whether any plugin's client is open in this process. */
  static synchronized boolean anyOpen() {
    return !OPEN.isEmpty();
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

  int deviceCount() {
    return devices.length;
  }

  /** The PJRT ids of the addressable devices, in the client's order. */
  long[] deviceIds() {
    return deviceIds.clone();
  }

  /** The handle of the addressable device with PJRT id {@code id}. */
  long device(int id) {
    for (int i = 0; i < deviceIds.length; i++) {
      if (deviceIds[i] == id) {
        return devices[i];
      }
    }
    throw new IllegalArgumentException(
        "device id "
            + id
            + " is not one of the "
            + plugin.path().getFileName()
            + " client's devices "
            + Arrays.toString(deviceIds)
            + (platform.equals("cpu")
                ? " (more CPU devices: -D" + CPU_DEVICES_PROPERTY + "=N)"
                : ""));
  }

  /** The PJRT id of an addressable device handle. */
  int idOf(long deviceHandle) {
    for (int i = 0; i < devices.length; i++) {
      if (devices[i] == deviceHandle) {
        return (int) deviceIds[i];
      }
    }
    throw new IllegalStateException("device handle " + deviceHandle + " is not addressable");
  }

  String platform() {
    return platform;
  }

  String platformVersion() {
    return platformVersion;
  }
}
