package dev.javelin.recipes.metrics;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

/**
 * {@code trainer.logger=[tensorboard]}: scalars in {@code events.out.tfevents.<time>.<host>} under
 * {@code $TENSORBOARD_DIR} (as in VeRL) or {@code <run dir>/tensorboard}. A new file is started on
 * each (re)open, so a resumed run or a reconnect after a disk error never appends to a torn record.
 */
public final class TensorBoardLogger implements MetricsLogger {
  private final Path dir;
  private OutputStream stream;
  private TfEventWriter writer;

  public TensorBoardLogger(Path dir) throws IOException {
    this.dir = dir;
    open();
  }

  /** {@code $TENSORBOARD_DIR} when set, else {@code <runDir>/tensorboard}. */
  public static Path directory(Path runDir, Map<String, String> env) {
    String d = env.get("TENSORBOARD_DIR");
    return d != null && !d.isBlank() ? Path.of(d) : runDir.resolve("tensorboard");
  }

  @Override
  public String name() {
    return "tensorboard";
  }

  @Override
  public void log(long step, Map<String, Double> metrics) throws IOException {
    writer.writeScalars(now(), step, metrics);
  }

  @Override
  public void reconnect() throws IOException {
    close();
    open();
  }

  @Override
  public void close() throws IOException {
    if (stream != null) {
      OutputStream s = stream;
      stream = null;
      s.close();
    }
  }

  private void open() throws IOException {
    Files.createDirectories(dir);
    String host;
    try {
      host = InetAddress.getLocalHost().getHostName();
    } catch (IOException e) {
      host = "localhost";
    }
    Path file =
        dir.resolve("events.out.tfevents." + System.currentTimeMillis() / 1000 + "." + host);
    for (int i = 1; Files.exists(file); i++) {
      file =
          dir.resolve(
              "events.out.tfevents." + System.currentTimeMillis() / 1000 + "." + host + "." + i);
    }
    stream = new BufferedOutputStream(Files.newOutputStream(file));
    writer = new TfEventWriter(stream);
    writer.writeFileVersion(now());
    stream.flush();
  }

  private static double now() {
    return System.currentTimeMillis() / 1000.0;
  }
}
