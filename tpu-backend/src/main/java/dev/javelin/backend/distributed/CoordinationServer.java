package dev.javelin.backend.distributed;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The gang's key-value store, served by rank 0: values are opaque bytes, a GET waits until its key
 * is set or its timeout passes. One thread per connection (a gang has a handful of ranks, each with
 * one connection). Values live in memory until deleted; a frame over the limit is answered with an
 * error and its connection closed.
 */
public final class CoordinationServer implements AutoCloseable {
  private final ServerSocket socket;
  private final int maxFrame;
  private final Map<String, byte[]> values = new HashMap<>();
  private final Set<Socket> connections = ConcurrentHashMap.newKeySet();
  private final Thread acceptor;
  private boolean closed; // guarded by values

  private CoordinationServer(ServerSocket socket, int maxFrame) {
    this.socket = socket;
    this.maxFrame = maxFrame;
    this.acceptor = new Thread(this::acceptLoop, "javelin-store-accept");
    acceptor.setDaemon(true);
    acceptor.start();
  }

  /** Serves on {@code bind} (port 0 picks a free one) with the default frame limit. */
  public static CoordinationServer start(InetSocketAddress bind) {
    return start(bind, StoreProtocol.DEFAULT_MAX_FRAME);
  }

  /** Serves on {@code bind}; frames (a key and its value) may hold up to {@code maxFrame} bytes. */
  public static CoordinationServer start(InetSocketAddress bind, int maxFrame) {
    if (maxFrame < 128) {
      throw new IllegalArgumentException("maxFrame must be at least 128 bytes, got " + maxFrame);
    }
    try {
      ServerSocket s = new ServerSocket();
      s.setReuseAddress(true);
      s.bind(bind);
      return new CoordinationServer(s, maxFrame);
    } catch (IOException e) {
      throw new CoordinationException("cannot serve the coordination store on " + bind, e);
    }
  }

  /** Where clients connect. */
  public InetSocketAddress address() {
    return new InetSocketAddress(socket.getInetAddress(), socket.getLocalPort());
  }

  /** The largest frame body this server reads. */
  public int maxFrame() {
    return maxFrame;
  }

  /** Connections open now. */
  public int connections() {
    return connections.size();
  }

  /** Waits until at most {@code count} connections remain open; false if {@code timeout} passes. */
  public boolean awaitConnections(int count, Duration timeout) throws InterruptedException {
    long end = System.nanoTime() + timeout.toNanos();
    while (connections.size() > count) {
      if (System.nanoTime() > end) {
        return false;
      }
      Thread.sleep(5);
    }
    return true;
  }

  private void acceptLoop() {
    while (!socket.isClosed()) {
      try {
        Socket s = socket.accept();
        s.setTcpNoDelay(true);
        connections.add(s);
        Thread t = new Thread(() -> serve(s), "javelin-store-conn");
        t.setDaemon(true);
        t.start();
      } catch (IOException e) {
        return; // closed
      }
    }
  }

  private void serve(Socket s) {
    try (s;
        DataInputStream in = new DataInputStream(new BufferedInputStream(s.getInputStream()));
        DataOutputStream out =
            new DataOutputStream(new BufferedOutputStream(s.getOutputStream()))) {
      while (true) {
        StoreProtocol.Request r;
        try {
          byte[] body = StoreProtocol.readFrame(in, maxFrame);
          if (body == null) {
            return;
          }
          r = StoreProtocol.parseRequest(body);
        } catch (StoreProtocol.FrameException e) {
          StoreProtocol.writeResponse(out, StoreProtocol.ERROR, utf8(e.getMessage()));
          return;
        }
        answer(r, out);
      }
    } catch (SocketException e) {
      // the peer went away or the server closed: nothing to answer
    } catch (IOException e) {
      // a truncated frame: the connection ends
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } finally {
      connections.remove(s);
    }
  }

  private void answer(StoreProtocol.Request r, DataOutputStream out)
      throws IOException, InterruptedException {
    switch (r.op()) {
      case StoreProtocol.SET -> {
        synchronized (values) {
          values.put(r.key(), r.rest());
          values.notifyAll();
        }
        StoreProtocol.writeResponse(out, StoreProtocol.OK, new byte[0]);
        if (r.key().equals(StoreProtocol.ABORT_KEY)) {
          close(); // a rank failed: every waiting GET fails now
        }
      }
      case StoreProtocol.DELETE -> {
        synchronized (values) {
          values.remove(r.key());
        }
        StoreProtocol.writeResponse(out, StoreProtocol.OK, new byte[0]);
      }
      default -> {
        long millis = Math.max(0, ByteBuffer.wrap(r.rest()).getLong());
        byte[] v = await(r.key(), millis);
        if (v == null) {
          StoreProtocol.writeResponse(
              out, closedNow() ? StoreProtocol.ERROR : StoreProtocol.TIMEOUT, utf8("store closed"));
        } else {
          StoreProtocol.writeResponse(out, StoreProtocol.OK, v);
        }
      }
    }
  }

  private byte[] await(String key, long millis) throws InterruptedException {
    long end = System.nanoTime() + millis * 1_000_000L;
    synchronized (values) {
      while (!closed) {
        byte[] v = values.get(key);
        if (v != null) {
          return v;
        }
        long left = (end - System.nanoTime()) / 1_000_000L;
        if (left <= 0) {
          return null;
        }
        values.wait(left);
      }
      return null;
    }
  }

  private boolean closedNow() {
    synchronized (values) {
      return closed;
    }
  }

  /** Keys held now (for tests and leak checks). */
  public int size() {
    synchronized (values) {
      return values.size();
    }
  }

  private static byte[] utf8(String s) {
    return (s == null ? "" : s).getBytes(StandardCharsets.UTF_8);
  }

  /** Stops accepting, ends every connection and wakes every waiting GET. */
  @Override
  public void close() {
    synchronized (values) {
      closed = true;
      values.clear();
      values.notifyAll();
    }
    try {
      socket.close();
    } catch (IOException e) {
      // already closed
    }
    for (Socket s : connections) {
      try {
        s.close();
      } catch (IOException e) {
        // already closed
      }
    }
    connections.clear();
  }
}
