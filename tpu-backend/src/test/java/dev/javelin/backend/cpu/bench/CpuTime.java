package dev.javelin.backend.cpu.bench;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * CPU time consumed by this process, native threads (OpenBLAS) included. On a shared machine wall
 * time mostly measures the neighbours; CPU time says how much work our own code did. Reads the
 * nanosecond run times of {@code /proc/self/task/<tid>/schedstat}; elsewhere falls back to the
 * (tick-granular) process CPU time of the JVM. Threads that exited in between are not counted,
 * which is why the benchmarks keep their threads alive.
 */
final class CpuTime {
  private static final Path TASKS = Path.of("/proc/self/task");

  private CpuTime() {}

  static long processNanos() {
    if (Files.isDirectory(TASKS)) {
      long sum = 0;
      try (DirectoryStream<Path> tasks = Files.newDirectoryStream(TASKS)) {
        for (Path t : tasks) {
          sum += firstField(t.resolve("schedstat"));
        }
        return sum;
      } catch (IOException e) {
        // fall through to the JVM's view
      }
    }
    if (ManagementFactory.getOperatingSystemMXBean()
        instanceof com.sun.management.OperatingSystemMXBean os) {
      return os.getProcessCpuTime();
    }
    return -1;
  }

  private static long firstField(Path schedstat) {
    try {
      String s = Files.readString(schedstat).trim();
      int sp = s.indexOf(' ');
      return Long.parseLong(sp < 0 ? s : s.substring(0, sp));
    } catch (IOException | NumberFormatException e) {
      return 0; // the thread exited while we listed it
    }
  }
}
