package dev.javelin.backend.distributed;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The coordination store and the gang's collectives over loopback, ranks as threads. */
class CoordinationStoreTest {
  private static final Duration WAIT = Duration.ofSeconds(20);
  private static final InetSocketAddress ANY =
      new InetSocketAddress(InetAddress.getLoopbackAddress(), 0);
  private final ExecutorService pool = Executors.newCachedThreadPool();
  private final List<AutoCloseable> open = new ArrayList<>();

  @AfterEach
  void tearDown() throws Exception {
    pool.shutdownNow();
    for (AutoCloseable c : open) {
      c.close();
    }
  }

  private CoordinationServer server(int maxFrame) {
    CoordinationServer s = CoordinationServer.start(ANY, maxFrame);
    open.add(s);
    return s;
  }

  private CoordinationClient client(CoordinationServer s, int rank, int size, Duration t, int max) {
    CoordinationClient c = CoordinationClient.connect(s.address(), rank, size, t, max);
    open.add(0, c);
    return c;
  }

  @Test
  void getBlocksUntilAnotherThreadSetsTheKey() throws Exception {
    CoordinationServer s = server(1 << 20);
    CoordinationClient a = client(s, 0, 2, WAIT, 1 << 20);
    CoordinationClient b = client(s, 1, 2, WAIT, 1 << 20);
    Future<byte[]> got = pool.submit(() -> a.get("k/1"));
    Thread.sleep(100);
    assertTrue(!got.isDone(), "get returned before the key was set");
    b.set("k/1", new byte[] {1, 2, 3});
    assertArrayEquals(new byte[] {1, 2, 3}, got.get(10, TimeUnit.SECONDS));
    b.set("k/1", new byte[0]); // replaced, and an empty value is a value
    assertArrayEquals(new byte[0], a.get("k/1", Duration.ZERO));
    b.delete("k/1");
    assertEquals(0, s.size());
  }

  @Test
  void barrierReleasesNoRankBeforeTheLastArrives() throws Exception {
    CoordinationServer s = server(1 << 20);
    int size = 3;
    AtomicInteger arrived = new AtomicInteger();
    List<Future<Integer>> seen = new ArrayList<>();
    for (int r = 0; r < size; r++) {
      CoordinationClient c = client(s, r, size, WAIT, 1 << 20);
      int rank = r;
      seen.add(
          pool.submit(
              () -> {
                int last = 0;
                for (int round = 0; round < 3; round++) {
                  Thread.sleep(rank == 2 ? 150 : 0);
                  arrived.incrementAndGet();
                  c.barrier("b");
                  last = arrived.get();
                  c.barrier("after"); // no rank starts the next round before all have read
                }
                return last;
              }));
    }
    for (Future<Integer> f : seen) {
      assertEquals(9, f.get(30, TimeUnit.SECONDS));
    }
    assertTrue(s.size() <= 2 * size, "barrier keys pile up: " + s.size());
  }

  @Test
  void aTimeoutNamesTheKeyAndTheMissingRank() {
    CoordinationServer s = server(1 << 20);
    CoordinationClient a = client(s, 0, 2, Duration.ofMillis(200), 1 << 20);
    CoordinationException e =
        assertThrows(CoordinationException.class, () -> a.get("never/set", Duration.ofMillis(100)));
    assertTrue(e.getMessage().contains("'never/set'"), e.getMessage());
    CoordinationException b = assertThrows(CoordinationException.class, () -> a.barrier("sync"));
    assertTrue(e.getMessage() != null && b.getMessage().contains("rank 1"), b.getMessage());
    assertTrue(b.getMessage().contains("'sync'"), b.getMessage());
  }

  @Test
  void oversizeFramesAreRefusedOnBothSides() throws Exception {
    CoordinationServer s = server(256);
    CoordinationClient small = client(s, 0, 1, WAIT, 256);
    IllegalArgumentException local =
        assertThrows(IllegalArgumentException.class, () -> small.set("big", new byte[1000]));
    assertTrue(local.getMessage().contains("exceeds the limit of 256"), local.getMessage());
    assertThrows(IllegalArgumentException.class, () -> small.set("x".repeat(2000), new byte[0]));

    CoordinationClient large = client(s, 0, 1, WAIT, 1 << 20);
    CoordinationException remote =
        assertThrows(CoordinationException.class, () -> large.set("big", new byte[1000]));
    assertTrue(remote.getMessage().contains("outside 1..256"), remote.getMessage());

    // a raw peer announcing a 1 GiB frame is answered with an error and dropped, nothing allocated
    try (Socket raw = new Socket(s.address().getAddress(), s.address().getPort())) {
      DataOutputStream out = new DataOutputStream(raw.getOutputStream());
      out.writeInt(1 << 30);
      out.flush();
      DataInputStream in = new DataInputStream(raw.getInputStream());
      byte[] body = new byte[in.readInt()];
      in.readFully(body);
      assertEquals(2, body[0]);
      String msg = new String(body, 1, body.length - 1, StandardCharsets.UTF_8);
      assertTrue(msg.contains("1073741824"), msg);
      assertEquals(-1, in.read(), "the connection stays open after a bad frame");
    }
    small.set("ok", new byte[10]); // the server still serves the others
    assertEquals(10, small.get("ok").length);
  }

  @Test
  void aClosedServerFailsWaitingAndLaterCalls() throws Exception {
    CoordinationServer s = server(1 << 20);
    CoordinationClient a = client(s, 0, 1, WAIT, 1 << 20);
    Future<?> waiting = pool.submit(() -> a.get("k"));
    Thread.sleep(100);
    s.close();
    Exception e = assertThrows(Exception.class, () -> waiting.get(10, TimeUnit.SECONDS));
    assertTrue(e.getCause() instanceof CoordinationException, String.valueOf(e.getCause()));
    CoordinationException later =
        assertThrows(CoordinationException.class, () -> a.set("k", new byte[1]));
    assertTrue(later.getMessage().contains("coordination store"), later.getMessage());
    assertThrows(
        CoordinationException.class,
        () -> CoordinationClient.connect(s.address(), 0, 1, Duration.ofMillis(200), 1024));
  }

  @Test
  void allReduceSumsInRankOrderIdenticallyOnEveryRankAcrossChunks() throws Exception {
    int size = 3;
    List<Gang> gangs = Gang.inProcess(size, WAIT, 256); // ~45 floats a chunk: several chunks
    float[][][] in = new float[size][][];
    for (int r = 0; r < size; r++) {
      java.util.SplittableRandom rng = new java.util.SplittableRandom(r);
      in[r] = new float[][] {new float[100], new float[7], new float[0], new float[33]};
      for (float[] a : in[r]) {
        for (int i = 0; i < a.length; i++) {
          a[i] = (float) (rng.nextGaussian() * Math.pow(10, rng.nextInt(8) - 4));
        }
      }
    }
    List<Future<float[][]>> out = new ArrayList<>();
    List<Future<double[]>> dout = new ArrayList<>();
    for (int r = 0; r < size; r++) {
      Gang g = gangs.get(r);
      float[][] mine = deepCopy(in[r]);
      double[] d = {r + 0.5, -r};
      out.add(
          pool.submit(
              () -> {
                for (int k = 0; k < 3; k++) { // repeated: keys of old collectives are reused
                  float[][] x = deepCopy(mine);
                  g.allReduceSum(x);
                  if (k == 2) {
                    return x;
                  }
                }
                return null;
              }));
      dout.add(
          pool.submit(
              () -> {
                out.get(g.rank()).get(); // after the float sums, in the same collective order
                g.allReduceSum(d);
                return d;
              }));
    }
    for (int r = 0; r < size; r++) {
      float[][] got = out.get(r).get(30, TimeUnit.SECONDS);
      for (int a = 0; a < got.length; a++) {
        for (int i = 0; i < got[a].length; i++) {
          float want = ((0f + in[0][a][i]) + in[1][a][i]) + in[2][a][i];
          assertEquals(
              Float.floatToIntBits(want), Float.floatToIntBits(got[a][i]), a + "[" + i + "]");
        }
      }
      assertArrayEquals(new double[] {4.5, -3}, dout.get(r).get(), 0);
    }
    closeAll(gangs);
  }

  @Test
  void allGatherGivesEveryRankTheSamePartsInRankOrder() throws Exception {
    List<Gang> gangs = Gang.inProcess(3, WAIT);
    List<Future<List<byte[]>>> got = new ArrayList<>();
    for (Gang g : gangs) {
      got.add(
          pool.submit(
              () -> {
                g.allReduceSum(new double[] {g.rank()}); // shares sequence numbers with reduces
                return g.allGather(new byte[] {(byte) (10 + g.rank()), 7});
              }));
    }
    for (Future<List<byte[]>> f : got) {
      List<byte[]> parts = f.get(30, TimeUnit.SECONDS);
      assertEquals(3, parts.size());
      for (int r = 0; r < 3; r++) {
        assertArrayEquals(new byte[] {(byte) (10 + r), 7}, parts.get(r));
      }
    }
    closeAll(gangs);
  }

  @Test
  void aRankThatNeverPostsIsNamed() throws Exception {
    List<Gang> two = Gang.inProcess(2, Duration.ofMillis(300));
    CoordinationException e =
        assertThrows(CoordinationException.class, () -> two.get(0).allReduceSum(new float[4]));
    assertTrue(e.getMessage().contains("rank 1 posted no part of all-reduce 0"), e.getMessage());
    assertTrue(e.getMessage().contains("'ar/0/1/0'"), e.getMessage());
    closeAll(two);
  }

  @Test
  void ranksWithArraysOfDifferentLengthsFailInsteadOfSummingGarbage() throws Exception {
    List<Gang> two = Gang.inProcess(2, WAIT);
    List<Future<?>> f = new ArrayList<>();
    for (Gang g : two) {
      f.add(pool.submit(() -> g.allReduceSum(new float[4 + g.rank()])));
    }
    for (Future<?> x : f) {
      Exception e = assertThrows(Exception.class, () -> x.get(30, TimeUnit.SECONDS));
      assertTrue(e.getCause().getMessage().contains("arrays of different lengths"), e.toString());
    }
    closeAll(two);
  }

  private static void closeAll(List<Gang> gangs) throws Exception {
    ExecutorService p = Executors.newFixedThreadPool(gangs.size());
    List<Future<?>> f = new ArrayList<>();
    for (Gang g : gangs) {
      f.add(p.submit(() -> g.close()));
    }
    for (Future<?> x : f) {
      x.get(30, TimeUnit.SECONDS);
    }
    p.shutdown();
  }

  private static float[][] deepCopy(float[][] a) {
    float[][] out = new float[a.length][];
    for (int i = 0; i < a.length; i++) {
      out[i] = a[i].clone();
    }
    return out;
  }
}
