package dev.javelin.backend.distributed;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;

/**
 * One rank's connection to the {@link CoordinationServer}. Calls are synchronous and one at a time
 * per client; a GET blocks on the server until the key appears or its timeout passes, so a rank
 * that never posts shows up as a {@link CoordinationException} naming the key (and, for {@link
 * #barrier}, the rank).
 */
public final class CoordinationClient implements AutoCloseable {
  /** Extra socket wait beyond a GET's own timeout, for the answer to travel back. */
  private static final int GRACE_MILLIS = 10_000;

  private final int rank;
  private final int size;
  private final Duration timeout;
  private final int maxFrame;
  private final InetSocketAddress address;
  private final Socket socket;
  private final DataInputStream in;
  private final DataOutputStream out;
  private final Map<String, Long> barriers = new HashMap<>();
  private boolean closed;

  /**
   * Connects rank {@code rank} of {@code size} to the store at {@code address}, retrying until
   * {@code timeout} passes (rank 0 may still be starting it); {@code timeout} is also every
   * blocking call's default.
   */
  public static CoordinationClient connect(
      InetSocketAddress address, int rank, int size, Duration timeout, int maxFrame) {
    if (size < 1 || rank < 0 || rank >= size) {
      throw new IllegalArgumentException("rank " + rank + " is outside a gang of " + size);
    }
    long end = System.nanoTime() + timeout.toNanos();
    IOException last = null;
    do {
      Socket s = new Socket();
      try {
        s.connect(address, (int) Math.min(Integer.MAX_VALUE, Math.max(1, timeout.toMillis())));
        s.setTcpNoDelay(true);
        return new CoordinationClient(s, address, rank, size, timeout, maxFrame);
      } catch (IOException e) {
        last = e;
        try {
          s.close();
          Thread.sleep(50);
        } catch (IOException | InterruptedException ignored) {
          Thread.currentThread().interrupt();
          break;
        }
      }
    } while (System.nanoTime() < end);
    throw new CoordinationException(
        "rank "
            + rank
            + " cannot reach the coordination store at "
            + address
            + " within "
            + timeout,
        last);
  }

  private CoordinationClient(
      Socket socket, InetSocketAddress address, int rank, int size, Duration timeout, int maxFrame)
      throws IOException {
    this.socket = socket;
    this.address = address;
    this.rank = rank;
    this.size = size;
    this.timeout = timeout;
    this.maxFrame = maxFrame;
    this.in = new DataInputStream(new BufferedInputStream(socket.getInputStream()));
    this.out = new DataOutputStream(new BufferedOutputStream(socket.getOutputStream()));
  }

  public int rank() {
    return rank;
  }

  public int size() {
    return size;
  }

  /** The store this client is connected to. */
  public InetSocketAddress address() {
    return address;
  }

  /** The default wait of blocking calls. */
  public Duration timeout() {
    return timeout;
  }

  /** The largest frame this client sends or reads. */
  public int maxFrame() {
    return maxFrame;
  }

  /** Sets {@code key} to {@code value}, replacing any value it had. */
  public synchronized void set(String key, byte[] value) {
    call(StoreProtocol.SET, key, value, GRACE_MILLIS);
  }

  /** Removes {@code key} (nothing if absent). */
  public synchronized void delete(String key) {
    call(StoreProtocol.DELETE, key, new byte[0], GRACE_MILLIS);
  }

  /** The value of {@code key}, waiting up to {@code wait} for it to be set. */
  public synchronized byte[] get(String key, Duration wait) {
    long millis = Math.max(0, wait.toMillis());
    byte[] rest = ByteBuffer.allocate(Long.BYTES).putLong(millis).array();
    int socketWait = (int) Math.min(Integer.MAX_VALUE - GRACE_MILLIS, millis) + GRACE_MILLIS;
    return call(StoreProtocol.GET, key, rest, socketWait);
  }

  /** {@link #get(String, Duration)} with the client's default timeout. */
  public byte[] get(String key) {
    return get(key, timeout);
  }

  /**
   * Waits until every rank of the gang has reached the barrier {@code name} as often as this one
   * has. A rank that does not arrive within the timeout is named in the exception.
   */
  public synchronized void barrier(String name) {
    long gen = barriers.merge(name, 1L, Long::sum);
    set(barrierKey(name, gen, rank), new byte[0]);
    for (int r = 0; r < size; r++) {
      try {
        get(barrierKey(name, gen, r), timeout);
      } catch (CoordinationException e) {
        throw new CoordinationException(
            "rank " + r + " did not reach barrier '" + name + "' (" + e.getMessage() + ")", e);
      }
    }
    // every rank has posted this generation, so each has finished waiting on the one before
    if (gen > 1) {
      delete(barrierKey(name, gen - 1, rank));
    }
  }

  private static String barrierKey(String name, long gen, int rank) {
    return "barrier/" + name + "/" + gen + "/" + rank;
  }

  private byte[] call(byte op, String key, byte[] rest, int socketWaitMillis) {
    if (closed) {
      throw new CoordinationException(
          "rank " + rank + "'s store client is closed (key '" + key + "')");
    }
    byte[] k = StoreProtocol.keyBytes(key);
    try {
      socket.setSoTimeout(socketWaitMillis);
      StoreProtocol.writeRequest(out, op, k, rest, maxFrame);
      byte[] body = StoreProtocol.readFrame(in, maxFrame);
      if (body == null) {
        throw new IOException("end of stream");
      }
      byte status = body[0];
      byte[] payload = Arrays.copyOfRange(body, 1, body.length);
      if (status == StoreProtocol.OK) {
        return payload;
      }
      String what = new String(payload, StandardCharsets.UTF_8);
      if (status == StoreProtocol.TIMEOUT) {
        throw new CoordinationException(
            "key '"
                + key
                + "' was not set within "
                + Duration.ofMillis(socketWaitMillis - GRACE_MILLIS));
      }
      throw new CoordinationException("the store refused '" + key + "': " + what);
    } catch (SocketTimeoutException e) {
      throw new CoordinationException(
          "the coordination store at " + address + " did not answer for key '" + key + "'", e);
    } catch (IOException e) {
      throw new CoordinationException(
          "the coordination store at "
              + address
              + " closed the connection during key '"
              + key
              + "' (rank 0 gone?): "
              + e.getMessage(),
          e);
    }
  }

  @Override
  public synchronized void close() {
    if (closed) {
      return;
    }
    closed = true;
    try {
      socket.close();
    } catch (IOException e) {
      // already closed
    }
  }
}
