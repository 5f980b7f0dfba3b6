package dev.javelin.backend.distributed;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * One rank of a data-parallel gang: its place ({@code rank} of {@code size}) and its client of the
 * coordination store, which rank 0 also serves. Collectives ({@link #allReduceSum(float[][])},
 * {@link #barrier}) must be called by every rank in the same order, as with any collective library.
 *
 * <p>An all-reduce goes through the store: each rank posts its part under a key scoped by the
 * collective's sequence number, then reads every rank's part and adds them in rank order, so every
 * rank computes the same sums from the same operands in the same order: bit-identical results. This
 * moves {@code size} copies of the data through rank 0; it is the reduction for gangs whose chips
 * cannot run collectives between processes (the XLA CPU plugins), not a ring all-reduce.
 */
public final class Gang implements AutoCloseable {
  private final int rank;
  private final int size;
  private final CoordinationClient client;
  private final CoordinationServer server; // rank 0 of a gang it started, else null
  private final ArrayReduce reduce;
  private boolean closed;

  private Gang(CoordinationClient client, CoordinationServer server) {
    this.rank = client.rank();
    this.size = client.size();
    this.client = client;
    this.server = server;
    this.reduce = new ArrayReduce(client);
  }

  /**
   * Joins rank {@code rank} of {@code size} to the gang whose store is at {@code store}: rank 0
   * serves it there (binding that address), every rank connects. {@code timeout} bounds each wait
   * for a peer.
   */
  public static Gang join(int rank, int size, InetSocketAddress store, Duration timeout) {
    CoordinationServer server = rank == 0 ? CoordinationServer.start(store) : null;
    try {
      InetSocketAddress at = server != null ? server.address() : store;
      return new Gang(
          CoordinationClient.connect(at, rank, size, timeout, StoreProtocol.DEFAULT_MAX_FRAME),
          server);
    } catch (RuntimeException e) {
      if (server != null) {
        server.close();
      }
      throw e;
    }
  }

  /**
   * {@code size} ranks in this process (one per thread that drives them), their store on a free
   * loopback port owned by rank 0: the gang's tests, and trainers whose ranks are threads of one
   * JVM. Close every rank; rank 0 ends the store once the others have left.
   */
  public static List<Gang> inProcess(int size, Duration timeout) {
    return inProcess(size, timeout, StoreProtocol.DEFAULT_MAX_FRAME);
  }

  /** As above with a frame limit of {@code maxFrame} bytes (all-reduces split larger parts). */
  public static List<Gang> inProcess(int size, Duration timeout, int maxFrame) {
    CoordinationServer server =
        CoordinationServer.start(
            new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), maxFrame);
    List<Gang> out = new ArrayList<>();
    try {
      for (int r = 0; r < size; r++) {
        out.add(
            new Gang(
                CoordinationClient.connect(server.address(), r, size, timeout, maxFrame),
                r == 0 ? server : null));
      }
    } catch (RuntimeException e) {
      out.forEach(g -> g.client.close());
      server.close();
      throw e;
    }
    return out;
  }

  public int rank() {
    return rank;
  }

  public int size() {
    return size;
  }

  /**
   * Where the gang's store listens: what other ranks pass to {@link #join}. After rank 0 joined on
   * port 0, the port it was given.
   */
  public InetSocketAddress storeAddress() {
    return client.address();
  }

  /** This rank's store client, for keys of the caller's own. */
  public CoordinationClient store() {
    return client;
  }

  /**
   * Replaces each array with its elementwise sum over the gang's ranks, added in rank order. Every
   * rank must pass arrays of the same lengths.
   */
  public void allReduceSum(float[]... arrays) {
    reduce.floats(arrays);
  }

  /** As {@link #allReduceSum(float[][])} for doubles. */
  public void allReduceSum(double[]... arrays) {
    reduce.doubles(arrays);
  }

  /** Every rank's {@code part} in rank order (the same list on every rank). */
  public java.util.List<byte[]> allGather(byte[] part) {
    return reduce.gather(part);
  }

  /** Waits for every rank to reach barrier {@code name}. */
  public void barrier(String name) {
    client.barrier(name);
  }

  /**
   * Ends the gang at once after a rank failed: the store stops (rank 0 closes it; another rank,
   * perhaps in another process, asks it to), so every rank waiting on a peer fails now (with the
   * store closed) instead of at its timeout. Close still follows.
   */
  public void abort() {
    if (server != null) {
      server.close();
    } else {
      try {
        client.set(StoreProtocol.ABORT_KEY, new byte[] {(byte) rank});
      } catch (CoordinationException e) {
        // the store is already gone: nothing left to stop
      }
    }
    client.close();
  }

  /**
   * Leaves the gang: a last barrier so no rank is still reading a part, then rank 0 waits for the
   * others to disconnect before it stops the store. A second close does nothing.
   */
  @Override
  public synchronized void close() {
    if (closed) {
      return;
    }
    closed = true;
    RuntimeException failure = null;
    try {
      if (size > 1) {
        client.barrier("gang.close");
      }
      reduce.forgetOwnParts();
    } catch (RuntimeException e) {
      failure = e;
    } finally {
      client.close();
      if (server != null) {
        try {
          server.awaitConnections(0, client.timeout());
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
        server.close();
      }
    }
    if (failure != null) {
      throw failure;
    }
  }
}
