package dev.javelin.trainer;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.javelin.backend.Devices;
import dev.javelin.trainer.codec.TrainerCodec;
import dev.javelin.trainer.engine.PpoUpdater;
import dev.javelin.trainer.engine.UpdaterOptions;
import dev.javelin.weightsync.SnapshotCodec;
import dev.javelin.weightsync.WeightSnapshot;
import io.ray.api.ActorHandle;
import io.ray.api.Ray;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The trainer behind Ray in local mode, as the embedded driver runs it: bytes in, bytes out. */
class TrainerActorTest {
  private static final byte[] SPEC = "5,8,4".getBytes(StandardCharsets.UTF_8);
  @TempDir Path dir;

  @BeforeAll
  static void startRay() {
    System.setProperty("ray.local-mode", "true");
    Ray.init();
  }

  @AfterAll
  static void stopRay() {
    Ray.shutdown();
  }

  @Test
  void aStepThroughRayMatchesTheSameStepInProcess() {
    List<TrainSample> batch = Fixtures.batch(81, 2, 4);
    ActorHandle<TrainerActor> actor = Ray.actor(TrainerActor::new, "micro-test", SPEC).remote();
    Map<String, Double> viaRay = step(actor, batch);

    TrainerActor local = new TrainerActor("micro-test", SPEC);
    Map<String, Double> inProcess = step(local, batch);
    assertEquals(inProcess, viaRay);
    assertTrue(viaRay.containsKey("actor/kl_loss"), viaRay.toString());

    WeightSnapshot a =
        SnapshotCodec.decode(
            ByteBuffer.wrap(actor.task(TrainerActor::snapshot, 1L, "f32").remote().get()));
    WeightSnapshot b = SnapshotCodec.decode(ByteBuffer.wrap(local.snapshot(1L, "f32")));
    assertEquals(a.checksum(), b.checksum());
    assertEquals(1L, actor.task(TrainerActor::optimizerSteps).remote().get());

    String ckpt = dir.resolve("global_step_1").toString();
    byte[] extra = TrainerCodec.encodeState(new TrainerState(0, Map.of("global_step", "1")));
    assertTrue(actor.task(TrainerActor::saveCheckpoint, ckpt, extra).remote().get());
    TrainerState restored =
        TrainerCodec.decodeState(actor.task(TrainerActor::loadCheckpoint, ckpt).remote().get());
    assertEquals(new TrainerState(1, Map.of("global_step", "1")), restored);
    assertTrue(actor.task(TrainerActor::close).remote().get());
    local.close();
  }

  @Test
  void sftAndFactoryErrors() {
    TrainerActor t = new TrainerActor("micro-test", SPEC);
    byte[] ex =
        TrainerCodec.encodeExamples(List.of(new SftExample(new int[] {1, 2}, new int[] {3, 4})));
    Map<String, Double> m = TrainerCodec.decodeMetrics(t.sftStep(ex));
    assertTrue(m.get("sft/loss") > 0, m.toString());
    t.close();
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> new TrainerActor("nope", SPEC));
    assertTrue(e.getMessage().contains("micro-test"), e.getMessage());
    TrainerActor direct =
        new TrainerActor(
            PpoUpdater.owning(
                Devices.open("cpu"),
                Fixtures.microCheckpoint(5),
                Fixtures.config(8, 8),
                UpdaterOptions.defaults()));
    assertThrows(IllegalArgumentException.class, () -> direct.update(new byte[] {1, 2, 3}));
    direct.close();
  }

  private static Map<String, Double> step(
      ActorHandle<TrainerActor> actor, List<TrainSample> batch) {
    byte[] enc = TrainerCodec.encodeSamples(batch);
    float[][] old =
        TrainerCodec.decodeLogProbs(
            actor.task(TrainerActor::logProbs, enc, "ACTOR").remote().get());
    float[][] ref =
        TrainerCodec.decodeLogProbs(
            actor.task(TrainerActor::logProbs, enc, "REFERENCE").remote().get());
    byte[] ready = TrainerCodec.encodeSamples(attach(batch, old, ref));
    return TrainerCodec.decodeUpdate(actor.task(TrainerActor::update, ready).remote().get())
        .metrics();
  }

  private static Map<String, Double> step(TrainerActor actor, List<TrainSample> batch) {
    byte[] enc = TrainerCodec.encodeSamples(batch);
    float[][] old = TrainerCodec.decodeLogProbs(actor.logProbs(enc, "ACTOR"));
    float[][] ref = TrainerCodec.decodeLogProbs(actor.logProbs(enc, "REFERENCE"));
    byte[] ready = TrainerCodec.encodeSamples(attach(batch, old, ref));
    return TrainerCodec.decodeUpdate(actor.update(ready)).metrics();
  }

  private static List<TrainSample> attach(List<TrainSample> batch, float[][] old, float[][] ref) {
    List<TrainSample> out = new ArrayList<>();
    for (int i = 0; i < batch.size(); i++) {
      out.add(batch.get(i).withOldLogProbs(old[i]).withRefLogProbs(ref[i]));
      assertArrayEquals(old[i], ref[i], "before any update the actor is the reference");
    }
    return out;
  }
}
