package dev.javelin.sampler;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.javelin.backend.checkpoint.ModelCheckpoint;
import dev.javelin.backend.checkpoint.ModelConfigJson;
import dev.javelin.weightsync.SnapshotCodec;
import dev.javelin.weightsync.WireType;
import io.ray.api.ActorHandle;
import io.ray.api.Ray;
import java.nio.ByteBuffer;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The actor in Ray local mode, as the embedded driver runs it: bytes in, bytes out. */
class SamplerActorTest {
  @BeforeAll
  static void startRay() {
    System.setProperty("ray.local-mode", "true");
    Ray.init();
  }

  @AfterAll
  static void stopRay() {
    Ray.shutdown();
  }

  private static byte[] bytes(ModelCheckpoint ckpt, long version) {
    ByteBuffer b = SnapshotCodec.encode(Snapshots.of(ckpt, version, WireType.F32));
    byte[] out = new byte[b.remaining()];
    b.duplicate().get(out);
    return out;
  }

  @Test
  void generatesWithTheLoadedSnapshotAndCatchesUp() {
    String config = ModelConfigJson.write(TinyPolicy.CONFIG, "llama");
    ActorHandle<SamplerActor> actor =
        Ray.actor(SamplerActor::awaitingWeights, "cpu", config, 8).remote();
    assertEquals(-1L, actor.task(SamplerActor::version).remote().get());
    List<GenerationRequest> reqs = TinyPolicy.requests(5, SamplingParams.sample(1.0, 6));
    byte[] encoded = RolloutCodec.encodeRequests(reqs);

    assertThrows(
        RuntimeException.class, () -> actor.task(SamplerActor::generate, encoded).remote().get());

    ModelCheckpoint ckpt = TinyPolicy.checkpoint(1);
    assertEquals(2L, actor.task(SamplerActor::loadWeights, bytes(ckpt, 2)).remote().get());
    // a repeated (stale) publish is ignored: the sampler keeps version 2
    assertEquals(2L, actor.task(SamplerActor::loadWeights, bytes(ckpt, 1)).remote().get());

    GenerationResult result =
        RolloutCodec.decodeResult(actor.task(SamplerActor::generate, encoded).remote().get());
    assertEquals(5, result.rollouts().size());
    try (SamplerEngine local = new SamplerEngine(TinyPolicy.model(1), new SamplerConfig(8), 2)) {
      List<Rollout> expected = local.generate(reqs).rollouts();
      for (int i = 0; i < reqs.size(); i++) {
        Rollout r = result.rollouts().get(i);
        assertEquals(2, r.policyVersion());
        assertArrayEquals(expected.get(i).responseIds(), r.responseIds());
      }
    }
    assertTrue(actor.task(SamplerActor::shutdown).remote().get());
  }
}
