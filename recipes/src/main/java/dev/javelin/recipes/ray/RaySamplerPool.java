package dev.javelin.recipes.ray;

import dev.javelin.backend.checkpoint.ModelConfigJson;
import dev.javelin.recipes.config.TrainerSection;
import dev.javelin.recipes.driver.SamplerPool;
import dev.javelin.sampler.GenerationRequest;
import dev.javelin.sampler.GenerationResult;
import dev.javelin.sampler.Rollout;
import dev.javelin.sampler.RolloutCodec;
import dev.javelin.sampler.SamplerMetrics;
import dev.javelin.sampler.weights.SnapshotLoader;
import dev.javelin.weightsync.SnapshotContent;
import dev.javelin.weightsync.SnapshotHandle;
import dev.javelin.weightsync.WeightPublisher;
import dev.javelin.weightsync.WeightSnapshot;
import io.ray.api.ActorHandle;
import io.ray.api.ObjectRef;
import io.ray.api.Ray;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.logging.Logger;

/**
 * N {@code SamplerActor}s as Ray actors ({@link SamplerHost}). Requests are split into contiguous
 * chunks, one per actor, and run concurrently; weights go through {@link RayObjectStoreTransport},
 * so one put per version serves all.
 *
 * <p>On a cluster a sampler's process may die: its actor restarts (up to {@code
 * trainer.max_restarts}), gets the current weights again, and only its chunk is generated again, so
 * no rollout is lost or counted twice. A result that fails {@link RolloutCheck} is counted and
 * regenerated. Both are bounded: a chunk gets {@code max_restarts + 2} attempts.
 */
public final class RaySamplerPool implements SamplerPool {
  private static final Logger LOG = Logger.getLogger(RaySamplerPool.class.getName());

  private final List<ActorHandle<SamplerHost>> actors;
  private final boolean serial;
  private final RolloutCheck check;
  private final int maxAttempts;
  private final RayObjectStoreTransport transport = new RayObjectStoreTransport();
  private final WeightPublisher publisher = new WeightPublisher(transport);
  private final AtomicInteger restarts = new AtomicInteger();
  private final AtomicInteger rejected = new AtomicInteger();
  private final long[] pids; // worker process of each sampler as last seen; restarts change it
  private volatile ObjectRef<byte[]> weights;
  // The last snapshot that brought a LoRA base, pinned while adapter-only versions follow it: a
  // restarted sampler loads it before the current adapters.
  private volatile SnapshotHandle base;
  private volatile long version = -1;

  /**
   * What to start.
   *
   * @param devices device spec of each sampler, e.g. {@code tpu@4-5} (in a cluster the plugin
   *     alone: the worker sees only its granted chips)
   * @param configJson the model's config.json text
   * @param maxSlots concurrent sequences per sampler
   * @param tensorParallel chips of each sampler
   * @param maxRestarts restarts per sampler actor (cluster mode)
   */
  public record Spec(
      List<String> devices,
      String configJson,
      int maxSlots,
      String dtype,
      int tensorParallel,
      int maxRestarts) {
    /** Validates. */
    public Spec {
      devices = List.copyOf(devices);
      if (devices.isEmpty()) {
        throw new IllegalArgumentException(TrainerSection.SAMPLERS.name() + " must be >= 1, got 0");
      }
      if (maxRestarts < 0) {
        throw new IllegalArgumentException(
            TrainerSection.MAX_RESTARTS.name() + " must be >= 0, got " + maxRestarts);
      }
    }

    /** Samplers. */
    public int count() {
      return devices.size();
    }
  }

  private RaySamplerPool(List<ActorHandle<SamplerHost>> actors, boolean serial, Spec spec) {
    this.actors = List.copyOf(actors);
    this.pids = pidsOf(this.actors);
    this.serial = serial;
    this.check = new RolloutCheck(ModelConfigJson.parse(spec.configJson()).vocabSize());
    this.maxAttempts = spec.maxRestarts() + 2;
  }

  /**
   * Starts samplers that wait for their first weights, in {@code placement}'s sampler bundles.
   *
   * <p>In Ray's local mode (2.9.3 to 2.39.0) calls run one at a time: it keeps the executing actor
   * in one shared slot, so concurrent calls to different actors can run on the wrong instance (seen
   * as ConcurrentModificationException and "object is not an instance of declaring class"). Each
   * CPU sampler already uses every core, so little is lost. On a cluster they run concurrently.
   */
  static RaySamplerPool start(Spec spec, Placement placement) {
    boolean serial = RayRuntime.localMode();
    List<ActorHandle<SamplerHost>> actors = new ArrayList<>();
    for (int i = 0; i < spec.count(); i++) {
      var creator =
          Ray.actor(
              SamplerHost::new,
              spec.devices().get(i),
              spec.configJson(),
              spec.maxSlots(),
              spec.dtype(),
              spec.tensorParallel());
      if (!serial) {
        creator.setMaxRestarts(spec.maxRestarts());
      }
      ActorHandle<SamplerHost> a = placement.apply(creator, placement.samplerBundle(i)).remote();
      if (serial) {
        RayCalls.get(a.task(SamplerHost::version).remote()); // lets the constructor finish alone
      }
      actors.add(a);
    }
    return new RaySamplerPool(actors, serial, spec);
  }

  @Override
  public int size() {
    return actors.size();
  }

  @Override
  public int restarts() {
    return restarts.get();
  }

  @Override
  public int rejectedResults() {
    return rejected.get();
  }

  /** The process id of each sampler's worker now (for fault-injection tests). */
  public List<Long> pids() {
    List<Long> out = new ArrayList<>();
    for (long p : pidsOf(actors)) {
      out.add(p);
    }
    return out;
  }

  /** One call at a time: local mode must not run calls of two actors at once. */
  private static long[] pidsOf(List<ActorHandle<SamplerHost>> actors) {
    long[] out = new long[actors.size()];
    for (int i = 0; i < out.length; i++) {
      out[i] = RayCalls.get(actors.get(i).task(SamplerHost::pid).remote());
    }
    return out;
  }

  @Override
  public GenerationResult generate(List<GenerationRequest> requests) {
    long start = System.nanoTime();
    List<List<GenerationRequest>> parts = SamplerPool.split(requests, actors.size());
    List<Attempt> refs = new ArrayList<>();
    for (int i = 0; i < actors.size(); i++) {
      refs.add(parts.get(i).isEmpty() ? null : submitGenerate(i, parts.get(i)));
    }
    List<GenerationResult> results = new ArrayList<>();
    for (int i = 0; i < actors.size(); i++) {
      if (refs.get(i) != null) {
        results.add(collect(i, parts.get(i), refs.get(i)));
      }
    }
    return join(results, (System.nanoTime() - start) / 1e9);
  }

  /** A generate call in flight and the weights version it must be answered with. */
  private record Attempt(ObjectRef<byte[]> ref, ObjectRef<byte[]> requests, long version) {}

  private Attempt submitGenerate(int i, List<GenerationRequest> part) {
    long at = version; // a retry after a reload runs at the version loaded then
    // By reference, freed after the call: local mode never frees a by-value argument over 100 KiB.
    ObjectRef<byte[]> requests = Ray.put(RolloutCodec.encodeRequests(part));
    ObjectRef<byte[]> ref = actors.get(i).task(SamplerHost::generateAt, requests, at).remote();
    if (serial) {
      RayCalls.await(ref);
    }
    return new Attempt(ref, requests, at);
  }

  /** Sampler {@code i}'s checked result for {@code part}, regenerated after a death or a reject. */
  private GenerationResult collect(int i, List<GenerationRequest> part, Attempt first) {
    Attempt[] current = {first};
    ChunkRetry.Calls calls =
        new ChunkRetry.Calls() {
          @Override
          public byte[] generate(int attempt) {
            if (attempt > 1) {
              RayCalls.free(List.of(current[0].requests()));
              current[0] = submitGenerate(i, part);
            }
            return fetch(current[0].ref());
          }

          @Override
          public void recover(SamplerDiedException e) {
            RaySamplerPool.this.recover(i, e);
          }

          @Override
          public void rejected(MalformedRolloutException e) {
            rejected.incrementAndGet();
          }
        };
    try {
      return new ChunkRetry(i, part.size(), maxAttempts)
          .run(calls, b -> check.check(b, part, current[0].version()));
    } finally {
      RayCalls.free(List.of(current[0].requests()));
    }
  }

  /**
   * Sampler {@code i} died or came back without weights: loads the current version into it (Ray
   * queues the call until the restarted actor is up) and counts a restart when its process changed.
   * Counting processes, not failed calls, keeps one death one restart even when a call sent before
   * Ray noticed the death fails as well.
   */
  private void recover(int i, RuntimeException cause) {
    LOG.warning("sampler " + i + " lost (" + cause.getMessage() + "); reloading v" + version);
    for (int attempt = 1; ; attempt++) {
      try {
        SnapshotHandle b = base;
        if (weights != null && b != null && b.version() != version) {
          fetch(actor(i).task(SamplerHost::loadWeights, transport.ref(b)).remote());
        }
        long held =
            weights == null
                ? version
                : fetch(actor(i).task(SamplerHost::loadWeights, weights).remote());
        if (held != version) {
          throw new IllegalStateException(
              "sampler " + i + " holds v" + held + " after reloading v" + version);
        }
        long pid = fetch(actor(i).task(SamplerHost::pid).remote());
        if (pid != pids[i]) {
          pids[i] = pid;
          LOG.warning(
              "sampler "
                  + i
                  + " restarted in process "
                  + pid
                  + " ("
                  + restarts.incrementAndGet()
                  + " restarts so far)");
        }
        return;
      } catch (SamplerDiedException e) {
        if (attempt >= maxAttempts) {
          throw new IllegalStateException(
              "sampler "
                  + i
                  + " died and did not come back ("
                  + TrainerSection.MAX_RESTARTS.name()
                  + " exhausted?)",
              e);
        }
      }
    }
  }

  private ActorHandle<SamplerHost> actor(int i) {
    return actors.get(i);
  }

  @Override
  public void rewind() {
    publisher.rewind();
    weights = null; // released: nothing to reload into a sampler that dies before the next load
    List<ObjectRef<Boolean>> done = new ArrayList<>();
    for (ActorHandle<SamplerHost> a : actors) {
      done.add(a.task(SamplerHost::rewind).remote());
    }
    RayCalls.getAll(done);
  }

  @Override
  public void loadWeights(WeightSnapshot snapshot) {
    SnapshotContent content = SnapshotLoader.contentOf(snapshot);
    SnapshotHandle handle;
    if (content == SnapshotContent.BASE_AND_ADAPTERS) {
      handle = transport.publish(snapshot); // pinned past the next publish, freed by a newer base
      releaseBase();
      base = handle;
    } else {
      handle = publisher.publish(snapshot); // one put; the previous version is freed
      if (content == SnapshotContent.WEIGHTS) {
        releaseBase();
      }
    }
    weights = transport.ref(handle);
    version = snapshot.version();
    List<ObjectRef<Long>> acks = new ArrayList<>();
    for (ActorHandle<SamplerHost> a : actors) {
      acks.add(a.task(SamplerHost::loadWeights, weights).remote());
      if (serial) {
        RayCalls.await(acks.get(acks.size() - 1));
      }
    }
    for (int i = 0; i < actors.size(); i++) {
      long v;
      try {
        v = fetch(acks.get(i));
      } catch (SamplerDiedException e) {
        recover(i, e);
        v = version;
      }
      if (v != snapshot.version()) {
        throw new IllegalStateException(
            "sampler " + i + " holds v" + v + " after loading v" + snapshot.version());
      }
    }
  }

  private void releaseBase() {
    if (base != null) {
      transport.release(base);
      base = null;
    }
  }

  /**
   * A call's result, freed once read; a dead or restarted-without-weights sampler becomes {@link
   * SamplerDiedException}, any other failure the actor's own exception.
   */
  private static <T> T fetch(ObjectRef<T> ref) {
    try {
      return Ray.get(ref);
    } catch (RuntimeException e) {
      throw SamplerDiedException.classify(e);
    } finally {
      RayCalls.free(List.of(ref));
    }
  }

  /** Joins per-sampler results, in order, into one result timed at {@code seconds}. */
  static GenerationResult join(List<GenerationResult> parts, double seconds) {
    List<Rollout> all = new ArrayList<>();
    int prefills = 0;
    int decodeSteps = 0;
    int rows = 0;
    for (GenerationResult r : parts) {
      all.addAll(r.rollouts());
      prefills += r.metrics().prefills();
      decodeSteps = Math.max(decodeSteps, r.metrics().decodeSteps());
      rows += r.metrics().rows();
    }
    return new GenerationResult(all, SamplerMetrics.of(all, seconds, prefills, decodeSteps, rows));
  }

  @Override
  public void close() {
    List<ObjectRef<Boolean>> done = new ArrayList<>();
    for (ActorHandle<SamplerHost> a : actors) {
      done.add(a.task(SamplerHost::shutdown).remote());
      if (serial) {
        RayCalls.await(done.get(done.size() - 1));
      }
    }
    RayCalls.getAll(done);
    if (!serial) {
      actors.forEach(a -> a.kill()); // local mode cannot kill actors; they die with the JVM
    }
  }
}
