package dev.javelin.tests.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The head the build starts ({@code tools/setup/ray-cluster.sh}) listens on loopback only: every
 * listening TCP socket that a process of the head owns (GCS, raylet, dashboard and its agents, the
 * client server, workers) is bound to 127.0.0.1 or ::1, read from {@code /proc/net/tcp} and {@code
 * /proc/net/tcp6} and mapped to processes through their {@code /proc/PID/fd} socket links.
 */
class LoopbackHeadClusterIT {
  private static final String LISTEN = "0A";

  /** A listening socket: its address as the kernel shows it, its port, its socket inode. */
  record Listening(String address, int port, long inode) {
    boolean loopback() {
      return address.equals("0100007F") // 127.0.0.1, little-endian
          || address.equals("00000000000000000000000001000000") // ::1
          || address.equals("0000000000000000FFFF00000100007F"); // ::ffff:127.0.0.1
    }
  }

  @Test
  void everyListeningSocketOfTheHeadIsOnLoopback() throws IOException {
    int gcsPort = Integer.parseInt(ClusterRuns.address().replaceAll(".*:", ""));
    int dashboardPort = URI.create(ClusterRuns.dashboard()).getPort();
    List<Listening> sockets = new ArrayList<>();
    sockets.addAll(listening(Path.of("/proc/net/tcp")));
    sockets.addAll(listening(Path.of("/proc/net/tcp6")));
    Map<Long, Long> owner = socketOwners();

    long gcs =
        pidOn(gcsPort, sockets, owner)
            .orElseThrow(
                () -> new AssertionError("no process listens on the head's port " + gcsPort));
    String tempRoot = tempRoot(cmdline(gcs));
    Map<Integer, String> headPorts = new TreeMap<>();
    List<String> open = new ArrayList<>();
    for (Listening s : sockets) {
      Long pid = owner.get(s.inode());
      if (pid == null || !isHeads(cmdline(pid), tempRoot, gcsPort)) {
        continue;
      }
      headPorts.put(s.port(), pid + " " + s.address());
      if (!s.loopback()) {
        open.add(s.port() + " (" + s.address() + ", pid " + pid + ": " + cmdline(pid) + ")");
      }
    }
    System.out.printf(
        "head %s: %d listening sockets, %d beyond loopback%n",
        tempRoot, headPorts.size(), open.size());
    assertTrue(headPorts.containsKey(dashboardPort), "dashboard port among " + headPorts);
    assertTrue(headPorts.size() >= 3, "the head's sockets found: " + headPorts);
    assertEquals(List.of(), open, "sockets of the head listening beyond loopback");
  }

  /** The listening sockets in a {@code /proc/net/tcp}-format table. */
  static List<Listening> listening(Path table) throws IOException {
    List<Listening> out = new ArrayList<>();
    if (!Files.exists(table)) {
      return out;
    }
    List<String> lines = Files.readAllLines(table, StandardCharsets.US_ASCII);
    for (String line : lines.subList(1, lines.size())) {
      String[] f = line.trim().split("\\s+", -1);
      if (f.length > 9 && f[3].equals(LISTEN)) {
        String[] local = f[1].split(":", -1);
        out.add(new Listening(local[0], Integer.parseInt(local[1], 16), Long.parseLong(f[9])));
      }
    }
    return out;
  }

  /** Socket inode → the process holding it, from every {@code /proc/PID/fd} link we can read. */
  static Map<Long, Long> socketOwners() throws IOException {
    Map<Long, Long> owner = new HashMap<>();
    try (Stream<Path> procs = Files.list(Path.of("/proc"))) {
      for (Path proc : procs.filter(p -> p.getFileName().toString().matches("\\d+")).toList()) {
        long pid = Long.parseLong(proc.getFileName().toString());
        try (Stream<Path> fds = Files.list(proc.resolve("fd"))) {
          for (Path fd : fds.toList()) {
            String target = readLink(fd);
            if (target.startsWith("socket:[")) {
              owner.put(Long.parseLong(target.substring(8, target.length() - 1)), pid);
            }
          }
        } catch (IOException gone) {
          // the process ended, or its fds are not ours to read
        }
      }
    }
    return owner;
  }

  private static Optional<Long> pidOn(int port, List<Listening> sockets, Map<Long, Long> owner) {
    return sockets.stream()
        .filter(s -> s.port() == port && owner.containsKey(s.inode()))
        .map(s -> owner.get(s.inode()))
        .findFirst();
  }

  /**
   * Whether a process is the head's: it names the head's temp dir, or it is the Ray client server
   * the script starts on the head's port + 1000 (which names no temp dir).
   */
  private static boolean isHeads(String cmdline, String tempRoot, int gcsPort) {
    return cmdline.contains(tempRoot)
        || (cmdline.contains("ray.util.client.server")
            && cmdline.contains("--port=" + (gcsPort + 1000)));
  }

  /** The head's temp dir ({@code .../javelin-ray-PORT/}), from its GCS server's session paths. */
  private static String tempRoot(String gcsCmdline) {
    int session = gcsCmdline.indexOf("/session_");
    assertTrue(session > 0, "no session path in the GCS server's command line: " + gcsCmdline);
    int start = gcsCmdline.lastIndexOf('=', session) + 1;
    int space = gcsCmdline.lastIndexOf(' ', session) + 1;
    return gcsCmdline.substring(Math.max(start, space), session + 1);
  }

  private static String cmdline(long pid) {
    try {
      byte[] b = Files.readAllBytes(Path.of("/proc", Long.toString(pid), "cmdline"));
      return new String(b, StandardCharsets.UTF_8).replace('\0', ' ');
    } catch (IOException gone) {
      return "";
    }
  }

  private static String readLink(Path link) {
    try {
      return Files.readSymbolicLink(link).toString();
    } catch (IOException | UnsupportedOperationException e) {
      return "";
    }
  }
}
