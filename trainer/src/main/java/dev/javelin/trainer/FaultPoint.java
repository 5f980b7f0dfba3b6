package dev.javelin.trainer;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A test facility, here so that the checkpointer's own steps can be reached too: named places in a
 * run where the fault tests and {@code bench/chaos-soak.sh} make a fault happen at a chosen moment.
 * The system property {@code javelin.test.fault} = {@code POINT@K:ACTION} acts the K-th time
 * (1-based) the run reaches POINT; ACTION is {@code halt} (the process stops at once with exit 137,
 * as {@code kill -9} leaves it: no shutdown hooks, no finally blocks) or {@code fill} (the file
 * system holding the place's directory is filled to the last byte, so the next write there meets
 * the kernel's own "No space left on device"; refused on a file system over 256 MiB) or {@code
 * fail} (the thread that reached the point throws {@link InjectedFault}: a rank of a trainer gang
 * that dies while its process lives on). Unset, reaching a point is one property read.
 *
 * <p>Points: {@code records-written} (a step's lines are in metrics.jsonl and batches.jsonl, its
 * checkpoint not begun), {@code checkpoint-partial} (the weights and optimizer are in the
 * checkpoint's temporary directory, the rest not yet), {@code checkpoint-renamed} (the step
 * directory is in place, the marker still names the previous one), {@code checkpoint-saved} (the
 * checkpoint is renamed into place, the next step not begun), and {@code write:NAME} just before a
 * run file is written (metrics.jsonl, batches.jsonl, val_generations.jsonl, recipe.yaml,
 * report.html), and {@code gang-rank:R} as rank R of a trainer gang begins an update (its K-th
 * update is the run's step K when the run started at step 1).
 */
public final class FaultPoint {
  /** The system property naming the fault. */
  public static final String PROPERTY = "javelin.test.fault";

  /** Exit status of a halted run, as a shell reports a process killed by SIGKILL. */
  public static final int HALT_STATUS = 137;

  private static final long MAX_FILL_BYTES = 256L << 20;
  private static final Map<String, Integer> REACHED = new ConcurrentHashMap<>();

  private FaultPoint() {}

  /** Counts every point from zero again: for a test that sets the property anew in its JVM. */
  public static void resetCounts() {
    REACHED.clear();
  }

  /** The run reached {@code point}; {@code dir} is the directory it writes into next. */
  public static void reach(String point, Path dir) {
    String fault = System.getProperty(PROPERTY);
    if (fault == null || fault.isEmpty()) {
      return;
    }
    int at = fault.lastIndexOf('@');
    int colon = fault.indexOf(':', at);
    if (at < 0 || colon < 0 || !fault.substring(0, at).equals(point)) {
      return;
    }
    int k = Integer.parseInt(fault.substring(at + 1, colon));
    if (REACHED.merge(point, 1, Integer::sum) != k) {
      return;
    }
    String action = fault.substring(colon + 1);
    switch (action) {
      case "halt" -> killSelf();
      case "fill" -> fill(dir);
      case "fail" -> throw new InjectedFault(point + "@" + k);
      default -> throw new IllegalArgumentException(PROPERTY + ": unknown action " + action);
    }
  }

  /** The failure the {@code fail} action throws. */
  public static final class InjectedFault extends RuntimeException {
    InjectedFault(String where) {
      super("injected fault at " + where + " (" + PROPERTY + ", a test facility)");
    }
  }

  /**
   * SIGKILL to this process, as the fault it stands for. Not {@code Runtime.halt}: that runs the C
   * library's exit, whose static destructors race native threads still running (Ray's core worker
   * heartbeat segfaulted there, exit 134 instead of 137).
   */
  private static void killSelf() {
    String pid = Long.toString(ProcessHandle.current().pid());
    try {
      new ProcessBuilder("kill", "-KILL", pid).inheritIO().start().waitFor();
    } catch (IOException | InterruptedException e) {
      // no kill(1) here: fall through to the JVM's own halt
    }
    Runtime.getRuntime().halt(HALT_STATUS);
  }

  /** Writes {@code dir/.javelin-test-fill} until the file system has no byte left. */
  private static void fill(Path dir) {
    try {
      if (Files.getFileStore(dir).getTotalSpace() > MAX_FILL_BYTES) {
        throw new IllegalStateException(
            PROPERTY + ": refusing to fill " + dir + ", a file system over 256 MiB");
      }
      byte[] block = new byte[4096];
      try (OutputStream out = Files.newOutputStream(dir.resolve(".javelin-test-fill"))) {
        while (true) {
          out.write(block);
        }
      } catch (IOException full) {
        // the file system is full: what the point is for
      }
    } catch (IOException e) {
      throw new IllegalStateException(PROPERTY + ": cannot fill " + dir, e);
    }
  }
}
