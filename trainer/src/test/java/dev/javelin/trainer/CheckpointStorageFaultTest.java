package dev.javelin.trainer;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.logging.Handler;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Storage faults: a damaged checkpoint is never resumed from (the previous complete one is, with a
 * warning), and a checkpoint that cannot be written is never reported saved, with the run's earlier
 * checkpoints left exactly as they were.
 */
class CheckpointStorageFaultTest {
  private static final Logger LOG = Logger.getLogger(Checkpointer.class.getName());
  private static final Path DEV_FULL = Path.of("/dev/full");

  @TempDir Path root;
  private final List<String> warnings = new ArrayList<>();
  private final Handler capture =
      new Handler() {
        @Override
        public void publish(LogRecord r) {
          warnings.add(r.getMessage());
        }

        @Override
        public void flush() {}

        @Override
        public void close() {}
      };

  @BeforeEach
  void listen() {
    LOG.addHandler(capture);
  }

  @AfterEach
  void stopListening() {
    LOG.removeHandler(capture);
  }

  /** A checkpoint with a 64 KiB model file and a small state file. */
  private static Checkpointer.Writer checkpoint(long step) {
    return dir -> {
      byte[] weights = new byte[64 << 10];
      for (int i = 0; i < weights.length; i++) {
        weights[i] = (byte) (31L * i + step);
      }
      Files.write(dir.resolve("model.safetensors"), weights);
      Files.writeString(dir.resolve("trainer_state.json"), "{\"step\": " + step + "}");
    };
  }

  /** Setting names as a recipe gives them: the advice in messages names them. */
  private static final Checkpointer.SettingNames NAMES =
      new Checkpointer.SettingNames("trainer.default_local_dir", "trainer.resume_mode");

  private Checkpointer twoSteps() {
    Checkpointer c = new Checkpointer(root, 0, NAMES);
    c.save(1, checkpoint(1));
    c.save(2, checkpoint(2));
    return c;
  }

  @Test
  void everySavedFileIsListedWithItsChecksum() throws IOException {
    Path dir = new Checkpointer(root, 0).save(1, checkpoint(1));
    var entries =
        CheckpointManifest.parse(
            Files.readAllBytes(dir.resolve(CheckpointManifest.FILE)), "manifest");
    assertEquals(List.of("model.safetensors", "trainer_state.json"), List.copyOf(entries.keySet()));
    assertEquals(64 << 10, entries.get("model.safetensors").bytes());
    assertEquals(Optional.empty(), CheckpointManifest.problem(dir));
  }

  @Test
  void aTruncatedLatestCheckpointFallsBackToThePreviousOneAndSaysSo() throws IOException {
    Checkpointer c = twoSteps();
    try (FileChannel ch =
        FileChannel.open(
            root.resolve("global_step_2/model.safetensors"), StandardOpenOption.WRITE)) {
      ch.truncate(1000);
    }
    assertEquals(Optional.of(root.resolve("global_step_1")), c.latest());
    assertEquals(1, warnings.size(), warnings::toString);
    String w = warnings.get(0);
    assertTrue(w.contains("global_step_2 is damaged (model.safetensors has 1000 bytes"), w);
    assertTrue(w.contains("resuming from the previous complete checkpoint " + root), w);
  }

  @Test
  void aFlippedByteIsFoundByItsChecksum() throws IOException {
    Checkpointer c = twoSteps();
    Path file = root.resolve("global_step_2/model.safetensors");
    byte[] b = Files.readAllBytes(file);
    b[12345] ^= 0x10;
    Files.write(file, b);
    assertEquals(Optional.of(root.resolve("global_step_1")), c.latest());
    assertTrue(
        warnings.get(0).contains("model.safetensors does not match its checksum"),
        warnings::toString);
    IllegalArgumentException named =
        assertThrows(
            IllegalArgumentException.class,
            () -> c.resolve(new ResumeMode.FromPath(root.resolve("global_step_2"))));
    assertTrue(named.getMessage().contains("which is damaged"), named.getMessage());
  }

  @Test
  void aMissingFileOrManifestDamageIsFound() throws IOException {
    Checkpointer c = twoSteps();
    Files.delete(root.resolve("global_step_2/trainer_state.json"));
    assertEquals(Optional.of(root.resolve("global_step_1")), c.latest());
    Files.writeString(root.resolve("global_step_1").resolve(CheckpointManifest.FILE), "{\"fo");
    CheckpointStorageException none = assertThrows(CheckpointStorageException.class, c::latest);
    String m = none.getMessage();
    assertTrue(m.startsWith("no complete checkpoint left in " + root), m);
    assertTrue(m.contains("trainer_state.json is missing"), m);
    assertTrue(m.contains("global_step_1 is damaged"), m);
    assertTrue(m.contains("set trainer.resume_mode to its global_step_N directory"), m);
    assertEquals(1, m.lines().count());
  }

  @Test
  void aManifestNamingAFileOutsideTheCheckpointIsDamage() throws IOException {
    Checkpointer c = twoSteps();
    Files.writeString(
        root.resolve("global_step_2").resolve(CheckpointManifest.FILE),
        "{\"format\":\"javelin-checkpoint-manifest/1\",\"files\":{\"../global_step_1/"
            + "model.safetensors\":{\"bytes\":65536,\"crc32c\":\"00000000\"}}}");
    assertEquals(Optional.of(root.resolve("global_step_1")), c.latest());
    assertTrue(warnings.get(0).contains("is not a file inside it"), warnings::toString);
  }

  @Test
  void aMarkerNamingAMissingStepFallsBackToThePreviousOne() throws IOException {
    Checkpointer c = twoSteps();
    Files.writeString(root.resolve(Checkpointer.MARKER), "7");
    assertEquals(Optional.of(root.resolve("global_step_2")), c.latest());
    assertTrue(
        warnings.get(0).contains("names step 7 but global_step_7 is gone"), warnings::toString);
  }

  @Test
  void aCheckpointWithoutAManifestStillResumes() throws IOException {
    Checkpointer c = twoSteps();
    Files.delete(root.resolve("global_step_2").resolve(CheckpointManifest.FILE));
    assertEquals(Optional.of(root.resolve("global_step_2")), c.latest());
    assertTrue(warnings.isEmpty(), warnings::toString);
  }

  @Test
  void aFullDiskMidWriteSavesNothingAndKeepsEverythingBefore() throws IOException {
    assertTrue(Files.isWritable(DEV_FULL), "this test writes to /dev/full (ENOSPC on every write)");
    Checkpointer c = new Checkpointer(root, 1, NAMES);
    c.save(1, checkpoint(1));
    byte[] before = Files.readAllBytes(root.resolve("global_step_1/model.safetensors"));
    CheckpointStorageException e =
        assertThrows(
            CheckpointStorageException.class,
            () ->
                c.save(
                    2,
                    dir -> {
                      checkpoint(2).write(dir);
                      // the next file lands on a full disk: the kernel's own ENOSPC
                      Files.createSymbolicLink(dir.resolve("optimizer.safetensors"), DEV_FULL);
                      Files.write(dir.resolve("optimizer.safetensors"), new byte[1 << 16]);
                    }));
    String m = e.getMessage();
    assertTrue(m.startsWith("cannot write checkpoint " + root.resolve("global_step_2")), m);
    assertTrue(m.contains("No space left on device"), m);
    assertTrue(m.contains("it was not saved and the latest checkpoint is still global_step_1"), m);
    assertTrue(m.contains("set trainer.default_local_dir to another directory"), m);
    assertEquals(1, m.lines().count());
    assertUnchanged(c, before);
  }

  @Test
  void aFailingSaveOfAStepThatExistsKeepsTheOldCopy() throws IOException {
    Checkpointer c = new Checkpointer(root, 0);
    c.save(1, checkpoint(1));
    byte[] before = Files.readAllBytes(root.resolve("global_step_1/model.safetensors"));
    assertThrows(
        CheckpointStorageException.class,
        () ->
            c.save(
                1,
                dir -> {
                  throw new AccessDeniedException(dir.toString());
                }));
    assertUnchanged(c, before);
  }

  @Test
  void aWriteErrorWrappedByARemoteCallIsStillOneLine() throws IOException {
    Checkpointer c = new Checkpointer(root, 0);
    c.save(1, checkpoint(1));
    byte[] before = Files.readAllBytes(root.resolve("global_step_1/model.safetensors"));
    CheckpointStorageException e =
        assertThrows(
            CheckpointStorageException.class,
            () ->
                c.save(
                    2,
                    dir -> {
                      throw new IllegalStateException(
                          "actor call failed",
                          new java.io.UncheckedIOException(
                              new IOException(
                                  dir + "/model.safetensors: No space left on device")));
                    }));
    assertTrue(e.getMessage().contains("No space left on device"), e.getMessage());
    assertTrue(e.getMessage().contains("latest checkpoint is still global_step_1"), e.getMessage());
    assertUnchanged(c, before);
  }

  @Test
  void anUnwritableDirectoryStopsTheRunBeforeItTrains() throws IOException {
    Path file = Files.writeString(root.resolve("not-a-dir"), "x");
    Checkpointer c = new Checkpointer(file.resolve("checkpoints"), 0, NAMES);
    CheckpointStorageException e =
        assertThrows(CheckpointStorageException.class, c::requireWritable);
    assertTrue(
        e.getMessage().startsWith("cannot write checkpoints to " + file.resolve("checkpoints")),
        e.getMessage());
    assertTrue(
        e.getMessage().contains("set trainer.default_local_dir to another directory"),
        e.getMessage());
    CheckpointStorageException save =
        assertThrows(CheckpointStorageException.class, () -> c.save(1, checkpoint(1)));
    assertTrue(
        save.getMessage().contains("the latest checkpoint is still none"), save.getMessage());
    assertEquals("x", Files.readString(file));
  }

  /** Step 1 is still the marked, intact checkpoint and no temporary directory is left. */
  private void assertUnchanged(Checkpointer c, byte[] model) throws IOException {
    assertEquals(List.of(root.resolve("global_step_1")), c.steps());
    assertEquals("1", Files.readString(root.resolve(Checkpointer.MARKER)));
    assertArrayEquals(model, Files.readAllBytes(root.resolve("global_step_1/model.safetensors")));
    assertEquals(Optional.of(root.resolve("global_step_1")), c.latest());
    assertTrue(warnings.isEmpty(), warnings::toString);
    try (Stream<Path> s = Files.list(root)) {
      assertFalse(s.anyMatch(p -> p.getFileName().toString().startsWith(".tmp")), "temp dir left");
    }
  }
}
