package dev.javelin.weightsync.bench;

import dev.javelin.weightsync.InProcessTransport;
import dev.javelin.weightsync.SnapshotHandle;
import dev.javelin.weightsync.SnapshotReceiver;
import dev.javelin.weightsync.TensorEntry;
import dev.javelin.weightsync.WeightPublisher;
import dev.javelin.weightsync.WeightSnapshot;
import dev.javelin.weightsync.WireType;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * Publish + load time of a weight update versus a plain memory copy of the same bytes, side by side
 * in one run. Each receiver fetches the encoded snapshot (what crosses a process boundary),
 * verifies layout and checksum, and decodes every tensor into its own arrays, in parallel like
 * sampler actors do.
 *
 * <p>Usage: {@code bench/weight-sync.sh [millionParams...]} (default 5 50).
 */
public final class WeightSyncBench {
  private static final int TENSORS = 16;
  private static final int REPS = 5;

  private WeightSyncBench() {}

  public static void main(String[] args) throws Exception {
    int[] sizes =
        args.length == 0
            ? new int[] {5, 50}
            : Arrays.stream(args).mapToInt(Integer::parseInt).toArray();
    System.out.println(
        "| params | wire | samplers | sync s (median) | memcpy s (median) | sync/memcpy | GB/s |");
    System.out.println("|---|---|---|---|---|---|---|");
    for (int millions : sizes) {
      float[][] source = tensors(millions * 1_000_000);
      for (WireType wire : WireType.values()) {
        for (int samplers : new int[] {1, 2, 4}) {
          run(millions, source, wire, samplers);
        }
      }
    }
  }

  private static void run(int millions, float[][] source, WireType wire, int samplers)
      throws Exception {
    float[][][] dest = new float[samplers][source.length][];
    for (int s = 0; s < samplers; s++) {
      for (int t = 0; t < source.length; t++) {
        dest[s][t] = new float[source[t].length];
      }
    }
    ExecutorService pool = Executors.newFixedThreadPool(samplers);
    try {
      double[] sync = new double[REPS];
      double[] copy = new double[REPS];
      long bytes = 0;
      InProcessTransport transport = new InProcessTransport(true);
      WeightPublisher publisher = new WeightPublisher(transport);
      List<TensorEntry> layout = snapshot(0, source, wire).entries();
      SnapshotReceiver[] receivers = new SnapshotReceiver[samplers];
      for (int s = 0; s < samplers; s++) {
        receivers[s] = new SnapshotReceiver(layout, -1);
      }
      for (int rep = 0; rep < REPS + 1; rep++) {
        long t0 = System.nanoTime();
        WeightSnapshot snap = snapshot(rep + 1, source, wire);
        SnapshotHandle h = publisher.publish(snap);
        List<Future<?>> done = new ArrayList<>();
        for (int s = 0; s < samplers; s++) {
          int id = s;
          done.add(pool.submit(() -> load(transport.fetch(h), receivers[id], dest[id])));
        }
        for (Future<?> f : done) {
          f.get();
        }
        long t1 = System.nanoTime();
        List<Future<?>> copies = new ArrayList<>();
        for (int s = 0; s < samplers; s++) {
          int id = s;
          copies.add(pool.submit(() -> memcpy(source, dest[id])));
        }
        for (Future<?> f : copies) {
          f.get();
        }
        long t2 = System.nanoTime();
        if (rep > 0) { // the first repetition warms up the JIT
          sync[rep - 1] = (t1 - t0) / 1e9;
          copy[rep - 1] = (t2 - t1) / 1e9;
        }
        bytes = snap.byteSize();
      }
      double ms = median(sync);
      double mc = median(copy);
      System.out.printf(
          Locale.ROOT,
          "| %dM | %s | %d | %.4f | %.4f | %.2f | %.2f |%n",
          millions,
          wire,
          samplers,
          ms,
          mc,
          ms / mc,
          bytes * (double) samplers / ms / 1e9);
    } finally {
      pool.shutdown();
    }
  }

  private static Void load(WeightSnapshot snap, SnapshotReceiver receiver, float[][] dest) {
    receiver.accept(snap);
    for (int t = 0; t < dest.length; t++) {
      snap.readInto("t" + t, dest[t]);
    }
    return null;
  }

  private static Void memcpy(float[][] src, float[][] dst) {
    for (int t = 0; t < src.length; t++) {
      System.arraycopy(src[t], 0, dst[t], 0, src[t].length);
    }
    return null;
  }

  private static WeightSnapshot snapshot(long version, float[][] source, WireType wire) {
    var b = WeightSnapshot.builder(version, wire);
    for (int t = 0; t < source.length; t++) {
      b.add("t" + t, new int[] {source[t].length}, source[t]);
    }
    return b.build();
  }

  private static float[][] tensors(int params) {
    float[][] out = new float[TENSORS][params / TENSORS];
    for (float[] a : out) {
      for (int i = 0; i < a.length; i++) {
        a[i] = (i % 1000) * 1e-3f;
      }
    }
    return out;
  }

  private static double median(double[] a) {
    double[] s = a.clone();
    Arrays.sort(s);
    return s[s.length / 2];
  }
}
