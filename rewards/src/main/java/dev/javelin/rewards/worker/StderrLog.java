package dev.javelin.rewards.worker;

import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Where the workers' stderr goes (and what a reward prints to stdout, which the worker points at
 * stderr): the first {@value #MAX_LINES} lines of a pool to this JVM's stderr, each prefixed with
 * its worker and cut at {@value #MAX_LINE_CHARS} characters, then only counted. The last line of
 * each worker is kept for the message when it dies at start-up.
 */
final class StderrLog {
  static final int MAX_LINES = 200;
  static final int MAX_LINE_CHARS = 1000;
  private final PrintStream to;
  private final AtomicInteger lines = new AtomicInteger();

  StderrLog(PrintStream to) {
    this.to = to;
  }

  /** Copies {@code err} line by line until it ends. */
  void drain(String prefix, InputStream err, WorkerProcess w) {
    byte[] buf = new byte[MAX_LINE_CHARS];
    int n = 0;
    boolean cut = false;
    try {
      for (int b = err.read(); b >= 0; b = err.read()) {
        if (b == '\n') {
          line(prefix, buf, n, cut, w);
          n = 0;
          cut = false;
        } else if (n < buf.length) {
          buf[n++] = (byte) b;
        } else {
          cut = true; // the rest of an overlong line is dropped, never buffered
        }
      }
    } catch (IOException e) {
      // the worker is gone
    }
    if (n > 0) {
      line(prefix, buf, n, cut, w);
    }
  }

  private void line(String prefix, byte[] buf, int n, boolean cut, WorkerProcess w) {
    String text = new String(buf, 0, n, StandardCharsets.UTF_8) + (cut ? " ..." : "");
    w.lastStderr = text;
    int seen = lines.incrementAndGet();
    if (seen <= MAX_LINES) {
      to.println(prefix + text);
    } else if (seen == MAX_LINES + 1) {
      to.println(prefix + "(further reward worker output is not shown)");
    }
  }
}
