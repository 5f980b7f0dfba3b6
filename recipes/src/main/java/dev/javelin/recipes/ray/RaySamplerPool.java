package dev.javelin.recipes.ray;

import dev.javelin.recipes.driver.SamplerPool;
import dev.javelin.sampler.GenerationRequest;
import dev.javelin.sampler.GenerationResult;
import dev.javelin.sampler.RolloutCodec;
import dev.javelin.weightsync.SnapshotHandle;
import dev.javelin.weightsync.WeightPublisher;
import dev.javelin.weightsync.WeightSnapshot;
import io.ray.api.ActorHandle;
import io.ray.api.ObjectRef;
import io.ray.api.Ray;
import java.util.ArrayList;
import java.util.List;

/**
 * N {@code SamplerActor}s as Ray actors ({@link SamplerHost}). Requests are split into contiguous
 * chunks, one per actor, and run concurrently; weights go through {@link RayObjectStoreTransport},
 * so one put serves all.
 */
public final class RaySamplerPool implements SamplerPool {
  private final List<ActorHandle<SamplerHost>> actors;
  private final boolean oneAtATime;
  private final RayObjectStoreTransport transport = new RayObjectStoreTransport();
  private final WeightPublisher publisher = new WeightPublisher(transport);

  private RaySamplerPool(List<ActorHandle<SamplerHost>> actors, boolean oneAtATime) {
    this.actors = List.copyOf(actors);
    this.oneAtATime = oneAtATime;
  }

  /**
   * Starts {@code count} samplers for the model of {@code configJson} that wait for their first
   * weights.
   *
   * @param oneAtATime wait for each actor's call before the next: Ray 2.9's local mode keeps the
   *     executing actor in one shared slot, so concurrent calls to different actors can run on the
   *     wrong instance (seen as ConcurrentModificationException and "object is not an instance of
   *     declaring class"). Each CPU sampler already uses every core, so little is lost.
   */
  public static RaySamplerPool start(
      int count, String device, String configJson, int maxSlots, boolean oneAtATime) {
    List<ActorHandle<SamplerHost>> actors = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      ActorHandle<SamplerHost> a =
          Ray.actor(SamplerHost::new, device, configJson, maxSlots).remote();
      if (oneAtATime) {
        RayCalls.get(a.task(SamplerHost::version).remote()); // lets the constructor finish alone
      }
      actors.add(a);
    }
    return new RaySamplerPool(actors, oneAtATime);
  }

  @Override
  public int size() {
    return actors.size();
  }

  @Override
  public GenerationResult generate(List<GenerationRequest> requests) {
    long start = System.nanoTime();
    List<List<GenerationRequest>> parts = SamplerPool.split(requests, actors.size());
    List<ObjectRef<byte[]>> refs = new ArrayList<>();
    for (int i = 0; i < actors.size(); i++) {
      byte[] bytes = RolloutCodec.encodeRequests(parts.get(i));
      refs.add(actors.get(i).task(SamplerHost::generate, bytes).remote());
      settle(refs);
    }
    List<byte[]> results = RayCalls.getAll(refs);
    return SamplerPool.join(results, (System.nanoTime() - start) / 1e9);
  }

  @Override
  public void loadWeights(WeightSnapshot snapshot) {
    SnapshotHandle handle = publisher.publish(snapshot);
    ObjectRef<byte[]> ref = transport.ref(handle);
    List<ObjectRef<Long>> acks = new ArrayList<>();
    for (ActorHandle<SamplerHost> a : actors) {
      acks.add(a.task(SamplerHost::loadWeights, ref).remote());
      settle(acks);
    }
    for (long v : RayCalls.getAll(acks)) {
      if (v != snapshot.version()) {
        throw new IllegalStateException(
            "a sampler holds v" + v + " after loading v" + snapshot.version());
      }
    }
  }

  /** In one-at-a-time mode, waits for the call just submitted. */
  private <T> void settle(List<ObjectRef<T>> refs) {
    if (oneAtATime) {
      RayCalls.await(refs.get(refs.size() - 1));
    }
  }

  @Override
  public void close() {
    List<ObjectRef<Boolean>> done = new ArrayList<>();
    for (ActorHandle<SamplerHost> a : actors) {
      done.add(a.task(SamplerHost::shutdown).remote());
      settle(done);
    }
    RayCalls.getAll(done);
    if (!oneAtATime) {
      actors.forEach(a -> a.kill()); // local mode cannot kill actors; they die with the JVM
    }
  }
}
