package dev.javelin.trainer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CheckpointerTest {
  @TempDir Path root;

  private static Checkpointer.Writer payload(String text) {
    return dir -> Files.writeString(dir.resolve("payload.txt"), text);
  }

  @Test
  void savesStepDirectoriesAndPointsTheMarkerAtTheNewest() throws IOException {
    Checkpointer c = new Checkpointer(root, 0);
    assertEquals(Optional.empty(), c.latest());
    c.save(5, payload("five"));
    Path ten = c.save(10, payload("ten"));
    assertEquals(root.resolve("global_step_10"), ten);
    assertEquals("10", Files.readString(root.resolve(Checkpointer.MARKER)));
    assertEquals(Optional.of(ten), c.latest());
    assertEquals("ten", Files.readString(ten.resolve("payload.txt")));
    assertEquals(List.of(root.resolve("global_step_5"), ten), c.steps());
  }

  @Test
  void keepsOnlyTheLastK() {
    Checkpointer c = new Checkpointer(root, 2);
    for (long s = 1; s <= 5; s++) {
      c.save(s, payload("s" + s));
    }
    assertEquals(List.of(root.resolve("global_step_4"), root.resolve("global_step_5")), c.steps());
  }

  @Test
  void aFailedWriteLeavesNoStepAndKeepsTheOldMarker() throws IOException {
    Checkpointer c = new Checkpointer(root, 0);
    c.save(1, payload("one"));
    assertThrows(
        RuntimeException.class,
        () ->
            c.save(
                2,
                dir -> {
                  Files.writeString(dir.resolve("half.txt"), "half");
                  throw new IOException("disk full");
                }));
    assertFalse(Files.exists(root.resolve("global_step_2")));
    assertEquals(Optional.of(root.resolve("global_step_1")), c.latest());
    try (Stream<Path> s = Files.list(root)) {
      assertTrue(s.noneMatch(p -> p.getFileName().toString().startsWith(".tmp")), "temp dir left");
    }
  }

  @Test
  void theNextSaveRemovesWhatACrashLeftBehind() throws IOException {
    Path leftover = root.resolve(".tmp-global_step_4-123");
    Files.createDirectories(leftover);
    Files.writeString(leftover.resolve("model.safetensors"), "partial");
    new Checkpointer(root, 0).save(5, payload("five"));
    assertFalse(Files.exists(leftover));
  }

  @Test
  void resavingAStepReplacesItWhole() throws IOException {
    Checkpointer c = new Checkpointer(root, 0);
    c.save(3, dir -> Files.writeString(dir.resolve("old-only.txt"), "x"));
    Path p = c.save(3, payload("new"));
    assertFalse(Files.exists(p.resolve("old-only.txt")));
    assertEquals("new", Files.readString(p.resolve("payload.txt")));
  }

  @Test
  void adviceNamesTheSettingsAsTheCallerCallsThem() throws IOException {
    Path file = Files.writeString(root.resolve("not-a-dir"), "x");
    String plain =
        assertThrows(
                CheckpointStorageException.class,
                () -> new Checkpointer(file.resolve("c"), 0).requireWritable())
            .getMessage();
    assertTrue(plain.contains("set the checkpoint directory to another directory"), plain);
    Checkpointer.SettingNames names = new Checkpointer.SettingNames("runDir", "resumeFrom");
    String named =
        assertThrows(
                CheckpointStorageException.class,
                () -> new Checkpointer(file.resolve("c"), 0, names).requireWritable())
            .getMessage();
    assertTrue(named.contains("set runDir to another directory"), named);
  }

  @Test
  void resumeModes() {
    Checkpointer c = new Checkpointer(root, 0);
    assertEquals(Optional.empty(), c.resolve(ResumeMode.parse("auto")));
    Path seven = c.save(7, payload("7"));
    assertEquals(Optional.of(seven), c.resolve(ResumeMode.parse("auto")));
    assertEquals(Optional.empty(), c.resolve(ResumeMode.parse("disable")));
    assertEquals(Optional.of(seven), c.resolve(ResumeMode.parse(seven.toString())));
    IllegalArgumentException missing =
        assertThrows(
            IllegalArgumentException.class,
            () -> c.resolve(ResumeMode.parse(root.resolve("global_step_99").toString())));
    assertTrue(
        missing.getMessage().contains("global_step_99 is not a checkpoint directory"),
        missing.getMessage());
    assertThrows(
        IllegalArgumentException.class, () -> c.resolve(ResumeMode.parse(root.toString())));
    assertEquals(7, Checkpointer.stepOf(seven));
  }

  @Test
  void aMarkerNamingAMissingStepWithNothingBeforeItIsAnError() throws IOException {
    Files.createDirectories(root);
    Files.writeString(root.resolve(Checkpointer.MARKER), "42");
    CheckpointStorageException e =
        assertThrows(CheckpointStorageException.class, () -> new Checkpointer(root, 0).latest());
    assertTrue(e.getMessage().contains("global_step_42 is gone"), e.getMessage());
    assertTrue(e.getMessage().contains(root.toString()), e.getMessage());
    Files.writeString(root.resolve(Checkpointer.MARKER), "../../etc");
    e = assertThrows(CheckpointStorageException.class, () -> new Checkpointer(root, 0).latest());
    assertTrue(e.getMessage().contains("does not hold a step number"), e.getMessage());
  }

  @Test
  void theBestMarkedStepSurvivesPruningUntilABetterOneIsMarked() {
    Checkpointer c = new Checkpointer(root, 1);
    c.save(1, payload("one"));
    c.markBest(new BestCheckpoint(1, 0.5));
    c.save(2, payload("two"));
    c.save(3, payload("three"));
    assertEquals(List.of(root.resolve("global_step_1"), root.resolve("global_step_3")), c.steps());
    c.markBest(new BestCheckpoint(3, 0.75));
    assertEquals(List.of(root.resolve("global_step_3")), c.steps());
    assertEquals(Optional.of(new BestCheckpoint(3, 0.75)), BestCheckpoint.read(root));
    c.save(4, payload("four"));
    assertEquals(List.of(root.resolve("global_step_3"), root.resolve("global_step_4")), c.steps());
    assertEquals(Optional.of(root.resolve("global_step_4")), c.latest());
  }

  @Test
  void aBestMarkerInAnotherFormatIsIgnoredNotThrown() throws IOException {
    Files.writeString(root.resolve(BestCheckpoint.MARKER), "5\n");
    assertEquals(Optional.empty(), BestCheckpoint.read(root));
    Files.writeString(root.resolve(BestCheckpoint.MARKER), "5 NaN\n");
    assertEquals(Optional.empty(), BestCheckpoint.read(root));
  }
}
