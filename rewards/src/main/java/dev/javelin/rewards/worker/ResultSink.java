package dev.javelin.rewards.worker;

import java.io.DataOutputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A worker's finished results on their way to the scorer: sent together at the end of each {@code
 * score} frame, and every {@value #FLUSH_MS} ms while a frame is still being scored, so that the
 * scorer always knows which row is in progress (its time limit counts from the last result), and on
 * {@code System.exit} (a shutdown hook) so that rows finished before it are kept.
 */
final class ResultSink {
  static final long FLUSH_MS = 20;
  private final DataOutputStream out;
  private final List<Map<String, Object>> pending = new ArrayList<>();

  ResultSink(DataOutputStream out) {
    this.out = out;
  }

  synchronized void add(Map<String, Object> item) {
    pending.add(item);
  }

  /** Sends the pending results; {@code end} marks the end of a {@code score} frame's rows. */
  synchronized void flush(boolean end) throws IOException {
    Frames.write(out, Wire.done(new ArrayList<>(pending), Thread.activeCount(), end));
    pending.clear();
  }

  synchronized void send(Map<String, Object> message) throws IOException {
    Frames.write(out, message);
  }

  void flushQuietly() {
    synchronized (this) {
      if (pending.isEmpty()) {
        return;
      }
      try {
        flush(false);
      } catch (IOException e) {
        // the scorer is gone; nothing to tell it
      }
    }
  }

  void startFlusher() {
    Thread t =
        new Thread(
            () -> {
              while (true) {
                try {
                  Thread.sleep(FLUSH_MS);
                } catch (InterruptedException e) {
                  return;
                }
                flushQuietly();
              }
            },
            "reward-worker-flusher");
    t.setDaemon(true);
    t.start();
  }
}
