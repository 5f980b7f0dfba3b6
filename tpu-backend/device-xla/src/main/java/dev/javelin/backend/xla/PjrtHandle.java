package dev.javelin.backend.xla;

/**
 * A PJRT object this process owns (a buffer or a loaded executable): its handle, registered with
 * the {@link XlaDevice} that made it so that closing the device frees what is still open. Closing
 * destroys it once; closing twice is a no-op; use after close is an error naming {@link #what()}.
 */
abstract class PjrtHandle implements AutoCloseable {
  final XlaDevice device;
  private long handle;

  PjrtHandle(XlaDevice device, long handle) {
    this.device = device;
    this.handle = handle;
  }

  /** The live handle. */
  final long handle() {
    if (handle == 0) {
      throw new IllegalStateException(what() + " is closed");
    }
    return handle;
  }

  /** What this is, for the message on use after close. */
  abstract String what();

  /** Frees {@code h} in the plugin. */
  abstract void destroy(long h);

  @Override
  public final void close() {
    if (handle != 0) {
      long h = handle;
      handle = 0;
      device.release(this);
      destroy(h);
    }
  }
}
