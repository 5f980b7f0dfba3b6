package dev.javelin.rewards.worker;

import dev.javelin.rewards.RewardCode;
import dev.javelin.rewards.RewardConfigException;
import dev.javelin.rewards.RewardFunction;
import dev.javelin.rewards.RewardInput;
import dev.javelin.rewards.RewardRegistry;
import dev.javelin.rewards.RewardResult;
import dev.javelin.rewards.RewardSpec;
import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.ByteArrayInputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.FileDescriptor;
import java.io.FileInputStream;
import java.io.FileOutputStream;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * The reward worker's {@code main}: reads an {@code init} frame, builds the reward, then scores
 * {@code score} frames until its stdin ends. Frames go to the real stdout only; {@code System.out}
 * is pointed at stderr so that a reward that prints cannot corrupt them. The worker ends itself
 * when the process that started it is gone, so that it never outlives a killed run.
 */
public final class WorkerMain {
  private WorkerMain() {}

  /** Entry point of a worker JVM. */
  public static void main(String[] args) throws IOException {
    DataOutputStream frames =
        new DataOutputStream(
            new BufferedOutputStream(new FileOutputStream(FileDescriptor.out), 1 << 16));
    DataInputStream in =
        new DataInputStream(
            new BufferedInputStream(new FileInputStream(FileDescriptor.in), 1 << 16));
    System.setOut(System.err);
    System.setIn(new ByteArrayInputStream(new byte[0]));
    watchParent();
    ResultSink sink = new ResultSink(frames);
    RewardFunction fn = init(Frames.read(in, Frames.MAX_BYTES), sink);
    if (fn == null) {
      return;
    }
    sink.startFlusher();
    Runtime.getRuntime().addShutdownHook(new Thread(sink::flushQuietly, "reward-worker-flush"));
    while (true) {
      Map<String, Object> msg = Frames.read(in, Frames.MAX_BYTES);
      if (msg == null) {
        Runtime.getRuntime().halt(0); // the scorer closed us: do not wait for reward threads
      }
      score(fn, Wire.rows(msg), sink);
    }
  }

  private static RewardFunction init(Map<String, Object> msg, ResultSink sink) throws IOException {
    if (msg == null || !Wire.type(msg).equals("init")) {
      sink.send(Wire.fail("reward worker: expected an init frame"));
      return null;
    }
    RewardSpec spec = Wire.spec(msg);
    String root = Wire.str(msg, "root");
    try {
      RewardRegistry registry =
          root == null
              ? RewardRegistry.forSpec(spec)
              : RewardRegistry.forCode(spec, new RewardCode(Path.of(root)));
      RewardFunction fn = registry.resolve(spec);
      sink.send(Wire.ready(fn.name(), fn.prefersBatch()));
      return fn;
    } catch (RewardConfigException e) {
      sink.send(Wire.fail(e));
      return null;
    } catch (RuntimeException | LinkageError e) {
      sink.send(Wire.fail("the reward cannot be created (" + e + ")"));
      return null;
    }
  }

  private static void score(RewardFunction fn, List<RewardInput> rows, ResultSink sink)
      throws IOException {
    if (fn.prefersBatch()) {
      List<Map<String, Object>> items;
      try {
        List<RewardResult> out = fn.scoreBatch(rows);
        if (out == null || out.size() != rows.size() || out.contains(null)) {
          throw new IllegalStateException(
              fn.name() + ".scoreBatch returned a wrong result list for " + rows.size() + " rows");
        }
        items = out.stream().map(Wire::ok).toList();
      } catch (Throwable t) { // the whole call failed: every row of it is an error
        items = rows.stream().map(r -> Wire.error(t)).toList();
      }
      items.forEach(sink::add);
    } else {
      for (RewardInput row : rows) {
        sink.add(scoreOne(fn, row));
      }
    }
    sink.flush(true);
  }

  private static Map<String, Object> scoreOne(RewardFunction fn, RewardInput row) {
    try {
      RewardResult r = fn.score(row);
      if (r == null) {
        throw new IllegalStateException(fn.name() + " returned a null RewardResult");
      }
      return Wire.ok(r);
    } catch (Throwable t) { // a reward's Error is this row's error, not the worker's end
      return Wire.error(t);
    }
  }

  private static void watchParent() {
    ProcessHandle parent = ProcessHandle.current().parent().orElse(null);
    Thread t =
        new Thread(
            () -> {
              while (parent != null && parent.isAlive()) {
                try {
                  Thread.sleep(500);
                } catch (InterruptedException e) {
                  return;
                }
              }
              Runtime.getRuntime().halt(0);
            },
            "reward-worker-parent-watch");
    t.setDaemon(true);
    t.start();
  }
}
