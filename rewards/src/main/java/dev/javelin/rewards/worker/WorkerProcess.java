package dev.javelin.rewards.worker;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.util.ArrayDeque;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * One worker JVM as its pool sees it: the process, a reader thread that turns its stdout frames
 * into {@link Event}s, a writer thread that sends it frames, a thread that copies its stderr to the
 * {@link StderrLog}, and the rows it is scoring. Its state is touched only by the thread running
 * the pool. Every live worker is destroyed by a shutdown hook too, so that none outlives this JVM.
 */
final class WorkerProcess {
  /** What a worker reports to its pool. */
  sealed interface Event permits Message, Ended {
    WorkerProcess worker();
  }

  /** A frame read from the worker. */
  record Message(WorkerProcess worker, Map<String, Object> body) implements Event {}

  /** The worker's stdout ended (it exited or was killed) or carried a malformed frame. */
  record Ended(WorkerProcess worker, int exitCode, String detail) implements Event {}

  enum State {
    STARTING,
    IDLE,
    BUSY,
    GONE
  }

  private static final Set<Process> LIVE = ConcurrentHashMap.newKeySet();

  static {
    Runtime.getRuntime()
        .addShutdownHook(new Thread(WorkerProcess::destroyAll, "reward-worker-reaper"));
  }

  final int id;
  private final Process process;
  private final DataOutputStream stdin;
  State state = State.STARTING;
  final ArrayDeque<Integer> inflight = new ArrayDeque<>(); // batch rows sent, not yet answered
  int frames; // score frames sent whose last results have not come back
  long lastProgress; // nanoTime of its start, of a frame sent while idle, or of its last results
  int threads; // the worker's live threads at its last frame
  volatile String lastStderr = "";
  private Thread stderr;
  private Thread writer;
  private final BlockingQueue<String> outbox = new LinkedBlockingQueue<>();

  private WorkerProcess(int id, Process process) {
    this.id = id;
    this.process = process;
    this.stdin = new DataOutputStream(new BufferedOutputStream(process.getOutputStream(), 1 << 16));
  }

  /** Starts a worker, its reader threads, and sends it {@code init}. */
  static WorkerProcess start(
      int id,
      List<String> command,
      Map<String, Object> init,
      BlockingQueue<Event> events,
      StderrLog log)
      throws IOException {
    Process p = new ProcessBuilder(command).start();
    LIVE.add(p);
    WorkerProcess w = new WorkerProcess(id, p);
    w.lastProgress = System.nanoTime(); // start-up is timed from here
    daemon("reward-worker-" + id + "-out", () -> events.add(w.readFrames(events))).start();
    String prefix = "reward worker " + id + ": ";
    w.stderr =
        daemon("reward-worker-" + id + "-err", () -> log.drain(prefix, p.getErrorStream(), w));
    w.stderr.start();
    w.writer = daemon("reward-worker-" + id + "-in", w::writeFrames);
    w.writer.start();
    w.send(Json.write(init));
    return w;
  }

  /**
   * Writes queued frames to the worker. Writes happen on this thread, never on the pool's: a frame
   * larger than the pipe's buffer waits until the worker reads it, which a worker stuck in a call
   * never does, and the pool must still enforce the time limits meanwhile.
   */
  private void writeFrames() {
    try {
      while (true) {
        Frames.writeText(stdin, outbox.take());
      }
    } catch (IOException | InterruptedException e) {
      // the worker is gone or being killed; its reader reports the end
    }
  }

  private static Thread daemon(String name, Runnable body) {
    Thread t = new Thread(body, name);
    t.setDaemon(true);
    return t;
  }

  /** Posts each frame as a {@link Message}; returns the {@link Ended} that closes the stream. */
  private Event readFrames(BlockingQueue<Event> events) {
    DataInputStream in = new DataInputStream(new BufferedInputStream(process.getInputStream()));
    String detail;
    try {
      for (Map<String, Object> m = Frames.read(in, Frames.MAX_BYTES);
          m != null;
          m = Frames.read(in, Frames.MAX_BYTES)) {
        events.add(new Message(this, m));
      }
      detail = "";
    } catch (IOException e) {
      detail = e.getMessage();
      kill(); // a worker that garbles its frames is not trusted with another
    }
    return new Ended(this, exitCode(), detail);
  }

  private int exitCode() {
    try {
      if (!process.waitFor(5, TimeUnit.SECONDS)) {
        kill();
        process.waitFor(5, TimeUnit.SECONDS);
      }
      return process.isAlive() ? -1 : process.exitValue();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return -1;
    }
  }

  /** Queues a frame's text (one JSON object) for the worker. */
  void send(String frameJson) {
    outbox.add(frameJson);
  }

  /** Kills the worker and whatever it started, at once (its pool marks it gone). */
  void kill() {
    writer.interrupt();
    outbox.clear();
    process.descendants().forEach(ProcessHandle::destroyForcibly);
    process.destroyForcibly();
    LIVE.remove(process);
  }

  /** Ends a worker that is not scoring: closing its stdin makes it exit; a kill makes sure. */
  void close() {
    kill();
    try {
      stdin.close();
    } catch (IOException e) {
      // already gone
    }
  }

  /** Its last line of output, once the copy of its stderr has ended (waiting a second at most). */
  String lastOutput() {
    try {
      stderr.join(1000);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    return lastStderr;
  }

  long pid() {
    return process.pid();
  }

  private static void destroyAll() {
    for (Process p : LIVE) {
      p.descendants().forEach(ProcessHandle::destroyForcibly);
      p.destroyForcibly();
    }
  }
}
