package dev.javelin.rewards.worker;

import dev.javelin.rewards.RewardFunction;
import dev.javelin.rewards.RewardInput;
import dev.javelin.rewards.RewardResult;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A reward for the worker tests: scores the response's length, except on rows whose data source is
 * {@code bad}, where it does what {@code mode} says: {@code exit} (System.exit(0)), {@code oom}
 * (allocates until the heap is gone), {@code hang} (sleeps forever, ignoring interrupts), {@code
 * threads} (starts 100 threads that never end, then scores normally) or {@code garble} (writes a
 * frame header of an impossible length straight to the worker's stdout, then hangs). With {@code
 * exit_at_start} its constructor exits.
 */
public final class HostileReward implements RewardFunction {
  private final String mode;

  /** Reads {@code mode}. */
  public HostileReward(Map<String, Object> kwargs) {
    this.mode = String.valueOf(kwargs.get("mode"));
    if (mode.equals("exit_at_start")) {
      System.err.println("cannot reach the grading service");
      System.exit(1);
    }
  }

  @Override
  public String name() {
    return "hostile-" + mode;
  }

  @Override
  public RewardResult score(RewardInput in) {
    if (in.dataSource().equals("bad")) {
      switch (mode) {
        case "exit" -> System.exit(0);
        case "oom" -> allocateForever();
        case "hang" -> sleepForever();
        case "threads" -> startThreads();
        case "garble" -> writeAroundTheFrames();
        default -> throw new IllegalArgumentException(mode);
      }
    }
    if (in.response().length() == 1) {
      System.out.println("a reward that prints to stdout must not corrupt the frames");
    }
    return RewardResult.of(in.response().length());
  }

  @SuppressWarnings("ModifiedButNotUsed") // holding the arrays is the point
  private static void allocateForever() {
    List<long[]> hoard = new ArrayList<>();
    while (true) {
      hoard.add(new long[1 << 16]);
    }
  }

  private static void sleepForever() {
    while (true) {
      try {
        Thread.sleep(Long.MAX_VALUE);
      } catch (InterruptedException e) {
        // keep sleeping: a call that can only be killed
      }
    }
  }

  /** Writes a frame header of an impossible length to the real stdout, past System.out. */
  private static void writeAroundTheFrames() {
    try {
      FileOutputStream out = new FileOutputStream(FileDescriptor.out);
      out.write(new byte[] {0x7f, (byte) 0xff, (byte) 0xff, (byte) 0xff});
      out.flush();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    sleepForever();
  }

  private static void startThreads() {
    for (int i = 0; i < 100; i++) {
      new Thread(HostileReward::sleepForever, "leaked-" + i).start();
    }
  }
}
