package dev.javelin.recipes.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Run records are written whole or not at all, and follow the checkpoints on resume. */
class RunFileTest {
  @TempDir Path tmp;

  /** A device that takes {@code room} more bytes, in small chunks, then reports a full disk. */
  private static final class FillingSink implements RunFile.Sink {
    final ByteArrayOutputStream data = new ByteArrayOutputStream();
    int room;

    FillingSink(String existing, int room) {
      data.writeBytes(existing.getBytes(StandardCharsets.UTF_8));
      this.room = room;
    }

    @Override
    public long size() {
      return data.size();
    }

    @Override
    public void write(ByteBuffer bytes) throws IOException {
      if (room == 0) {
        throw new IOException("No space left on device");
      }
      int n = Math.min(Math.min(room, 7), bytes.remaining());
      byte[] b = new byte[n];
      bytes.get(b);
      data.writeBytes(b);
      room -= n;
    }

    @Override
    public void truncate(long size) {
      byte[] all = data.toByteArray();
      data.reset();
      data.write(all, 0, (int) size);
    }

    @Override
    public void close() {}
  }

  @Test
  void aFullDiskLeavesNoPartialLineAndIsOneLine() {
    FillingSink sink = new FillingSink("{\"step\":1}\n", 20);
    Path file = tmp.resolve("metrics.jsonl");
    String line = MetricsJsonl.line(2, java.util.Map.of("actor/pg_loss", 0.5, "x", 1.0)) + "\n";
    RunWriteException e =
        assertThrows(RunWriteException.class, () -> RunFile.append(sink, file, line));
    assertEquals("{\"step\":1}\n", sink.data.toString(StandardCharsets.UTF_8));
    assertEquals(1, e.getMessage().lines().count(), e.getMessage());
    assertTrue(e.getMessage().contains(file + ": No space left on device"), e.getMessage());
    assertTrue(e.getMessage().contains("the last checkpoint is kept"), e.getMessage());
  }

  @Test
  void aFullDeviceFailsTheRealFileWriterWithOneLine() throws IOException {
    Path full = Path.of("/dev/full");
    if (!Files.isWritable(full)) {
      return; // not Linux: the fake device above covers the logic
    }
    Path link = Files.createSymbolicLink(tmp.resolve("batches.jsonl"), full);
    RunWriteException e =
        assertThrows(RunWriteException.class, () -> RunFile.append(link, "{\"step\":1}\n"));
    assertEquals(1, e.getMessage().lines().count(), e.getMessage());
    // A device is not a regular file: resuming leaves it alone instead of reading it forever.
    assertEquals(0, RunFile.keepThrough(link, 0).lines());
  }

  @Test
  void keepThroughDropsStepsNoCheckpointCoversAndSaysWhich() throws IOException {
    Path f = tmp.resolve("m.jsonl");
    Files.write(f, List.of("{\"step\":0,\"a\":1}", "{\"step\":1}", "{\"step\":2}", "{\"step\":3}"));
    RunFile.Dropped d = RunFile.keepThrough(f, 1);
    assertEquals(new RunFile.Dropped(2, 3), d);
    assertEquals(List.of("{\"step\":0,\"a\":1}", "{\"step\":1}"), Files.readAllLines(f));
    assertTrue(d.describe("metrics.jsonl", 1).contains("up to step 3"));
    assertEquals(1, RunFile.keepThrough(f, -1).lines() - 1); // a fresh start drops step 0 too
    assertEquals(List.of(), Files.readAllLines(f));
    assertFalse(Files.exists(tmp.resolve("m.jsonl.tmp")));
  }
}
