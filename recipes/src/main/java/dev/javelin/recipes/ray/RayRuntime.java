package dev.javelin.recipes.ray;

import dev.javelin.recipes.config.ConfigException;
import dev.javelin.recipes.config.TrainerSection;
import dev.javelin.recipes.config.TrainerSection.RayMode;
import dev.javelin.rewards.RewardSpec;
import io.ray.api.Ray;
import java.io.File;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.logging.Logger;

/**
 * Starts this JVM's Ray runtime as {@code trainer.ray} says: local mode (everything in this JVM) or
 * a driver connected to a running cluster, whose worker JVMs load our classes from the job's code
 * search path (this JVM's class path) and get the JVM options Ray's serializer needs on Java 17.
 */
public final class RayRuntime {
  private static final Logger LOG = Logger.getLogger(RayRuntime.class.getName());

  /** Java 17 closes these packages; Ray's serializer reflects into them in every worker. */
  static final List<String> OPENS = JvmOpens.packages();

  private RayRuntime() {}

  /**
   * Starts Ray unless this JVM already did (Ray.init happens once per JVM).
   *
   * @return whether this call started it
   */
  static boolean ensureStarted(TrainerSection trainer, RewardSpec reward) {
    boolean cluster = trainer.ray() == RayMode.CLUSTER;
    requireHead(trainer); // whatever this JVM already runs
    if (Ray.isInitialized()) {
      return false;
    }
    JvmOpens.requireOpen();
    if (cluster) {
      String address = address(trainer);
      System.setProperty(
          "ray.job.code-search-path",
          String.join(
              File.pathSeparator,
              CodeSearchPath.forRecipe(System.getProperty("java.class.path"), reward)));
      List<String> options = workerJvmOptions();
      for (int i = 0; i < options.size(); i++) {
        System.setProperty("ray.job.jvm-options." + i, options.get(i));
      }
      initDriver(address, TrainerSection.RAY_ADDRESS.name() + " / RAY_ADDRESS");
      LOG.info("Ray driver connected to the cluster at " + address);
    } else {
      System.setProperty("ray.local-mode", "true");
      Ray.init();
      LOG.info("Ray started in local mode (one JVM)");
    }
    return true;
  }

  /**
   * Ends the Ray runtime of this JVM (local mode's worker threads, or the driver's connection), so
   * that a program's JVM can exit once it is done with every run; a later run starts it again.
   */
  public static void shutdown() {
    if (Ray.isInitialized()) {
      Ray.shutdown();
    }
  }

  /**
   * For {@code trainer.ray=cluster}: fails at once ({@link ClusterUnreachableException}, exit 3)
   * when no head answers at the address, so a command finds out before it loads data or warms up.
   */
  public static void requireHead(TrainerSection trainer) {
    if (trainer.ray() == RayMode.CLUSTER) {
      requireReachable(
          address(trainer),
          "--ray-address / " + TrainerSection.RAY_ADDRESS.name() + " / RAY_ADDRESS");
    }
  }

  /**
   * Connects this JVM as a driver of the cluster at {@code address} without job code (what {@code
   * javelin status} needs), unless Ray already runs here (a test that also trains). Nothing
   * listening there fails at once, before Ray's native client would wait a minute and log.
   *
   * @throws ClusterUnreachableException when the cluster cannot be joined, saying what to check
   */
  public static void connectDriver(String address) {
    if (address.contains("://")) {
      throw new ConfigException(
          "status --address '" + address + "': expected the GCS address host:port, not a URL");
    }
    requireReachable(address, "--address / RAY_ADDRESS");
    if (Ray.isInitialized()) {
      return;
    }
    initDriver(address, "--address / RAY_ADDRESS");
  }

  /** {@code Ray.init} as a cluster driver; {@code named} says where the address came from. */
  private static void initDriver(String address, String named) {
    System.setProperty("ray.local-mode", "false");
    System.setProperty("ray.address", address);
    if (isLoopback(address) && System.getProperty("ray.node-ip") == null) {
      // A loopback head's raylet listens on 127.0.0.1 only; without this the driver looks for
      // it at the machine's address and its core worker aborts.
      System.setProperty("ray.node-ip", "127.0.0.1");
    }
    long before = System.currentTimeMillis();
    try {
      Ray.init();
    } catch (UnsatisfiedLinkError | RuntimeException e) {
      throw new ClusterUnreachableException(
          "cannot connect to the Ray cluster at "
              + address
              + " ("
              + named
              + "): is the head up (tools/setup/ray-cluster.sh status) and is the ray_dist.jar of"
              + " the head's own Ray version first on the class path (./javelin adds .venv-ray's,"
              + " or RAY_DIST_JAR)? "
              + e,
          e);
    } finally {
      ExtractedLibraries.removeUnder(
          Path.of("/tmp/ray"), before, System.currentTimeMillis()); // Ray's own fixed path
    }
  }

  /** Whether {@code address} (host:port) names this machine's loopback interface. */
  static boolean isLoopback(String address) {
    int colon = address.lastIndexOf(':');
    String host = colon < 0 ? address : address.substring(0, colon);
    return host.equals("127.0.0.1") || host.equals("localhost") || host.equals("[::1]");
  }

  /**
   * Fails fast, with what to do, when nothing listens at the head's address: Ray's native client
   * would wait 60 s and then end the process with a message about its own log files. {@code named}
   * says where the address came from.
   */
  static void requireReachable(String address, String named) {
    int colon = address.lastIndexOf(':');
    String host = colon > 0 ? address.substring(0, colon) : address;
    int port;
    try {
      port = colon > 0 ? Integer.parseInt(address.substring(colon + 1)) : 6379;
    } catch (NumberFormatException e) {
      throw new ConfigException(
          named + ": '" + address + "' is not host:port (e.g. 127.0.0.1:6379)");
    }
    try (Socket s = new Socket()) {
      s.connect(new InetSocketAddress(host, port), 3000);
    } catch (IOException | IllegalArgumentException e) {
      throw new ClusterUnreachableException(
          "no Ray head answers at "
              + address
              + " ("
              + named
              + ": "
              + e.getMessage()
              + "); start one with tools/setup/ray-cluster.sh start, or pass the address of a"
              + " running head",
          e);
    }
  }

  /** Whether this JVM's Ray runs in local mode. */
  static boolean localMode() {
    return Boolean.parseBoolean(System.getProperty("ray.local-mode", "false"));
  }

  /** The GCS address: {@code trainer.ray_address}, else the {@code RAY_ADDRESS} variable. */
  static String address(TrainerSection trainer) {
    String a = trainer.rayAddress();
    if (a == null) {
      a = System.getenv("RAY_ADDRESS");
    }
    if (a == null || a.isBlank()) {
      throw new ConfigException(
          TrainerSection.RAY_ADDRESS.name()
              + ": "
              + TrainerSection.RAY.assign(RayMode.CLUSTER.key())
              + " needs the cluster's address (host:port of the head, e.g. 127.0.0.1:6379): set"
              + " it, pass --ray-address, or export RAY_ADDRESS");
    }
    a = a.strip();
    if (a.contains("://")) {
      throw new ConfigException(
          TrainerSection.RAY_ADDRESS.name()
              + ": '"
              + a
              + "' is a URL; the driver needs the head's GCS address host:port (e.g."
              + " 127.0.0.1:6379), not the dashboard");
    }
    return a;
  }

  /**
   * Options for every worker JVM of the job: the opens list and a heap ({@code
   * javelin.ray.worker-heap} property or {@code JAVELIN_WORKER_HEAP}, default 2g).
   */
  static List<String> workerJvmOptions() {
    String heap =
        System.getProperty("javelin.ray.worker-heap", System.getenv("JAVELIN_WORKER_HEAP"));
    List<String> out = new ArrayList<>();
    for (String p : OPENS) {
      out.add("--add-opens=java.base/" + p + "=ALL-UNNAMED");
    }
    out.add("-Xmx" + (heap == null || heap.isBlank() ? "2g" : heap.strip()));
    return out;
  }
}
