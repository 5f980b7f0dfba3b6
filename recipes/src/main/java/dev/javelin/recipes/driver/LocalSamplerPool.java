package dev.javelin.recipes.driver;

import dev.javelin.sampler.GenerationRequest;
import dev.javelin.sampler.GenerationResult;
import dev.javelin.sampler.RolloutCodec;
import dev.javelin.sampler.SamplerActor;
import dev.javelin.weightsync.SnapshotCodec;
import dev.javelin.weightsync.WeightSnapshot;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * Samplers as plain objects, one thread each, without Ray ({@code trainer.ray=off}). Calls go
 * through the same byte[] methods as the Ray actors, so the codecs are exercised either way.
 */
public final class LocalSamplerPool implements SamplerPool {
  private final List<SamplerActor> samplers;
  private final ExecutorService threads;

  /** Takes ownership of {@code samplers}. */
  public LocalSamplerPool(List<SamplerActor> samplers) {
    this.samplers = List.copyOf(samplers);
    this.threads = Executors.newFixedThreadPool(this.samplers.size());
  }

  @Override
  public int size() {
    return samplers.size();
  }

  @Override
  public GenerationResult generate(List<GenerationRequest> requests) {
    long start = System.nanoTime();
    List<List<GenerationRequest>> parts = SamplerPool.split(requests, samplers.size());
    List<Future<byte[]>> futures = new ArrayList<>();
    for (int i = 0; i < samplers.size(); i++) {
      SamplerActor s = samplers.get(i);
      byte[] bytes = RolloutCodec.encodeRequests(parts.get(i));
      futures.add(threads.submit(() -> s.generate(bytes)));
    }
    List<byte[]> results = new ArrayList<>();
    for (Future<byte[]> f : futures) {
      results.add(await(f));
    }
    return SamplerPool.join(results, (System.nanoTime() - start) / 1e9);
  }

  @Override
  public void rewind() {
    samplers.forEach(SamplerActor::rewind);
  }

  @Override
  public void loadWeights(WeightSnapshot snapshot) {
    ByteBuffer encoded = SnapshotCodec.encode(snapshot);
    byte[] bytes = new byte[encoded.remaining()];
    encoded.duplicate().get(bytes);
    List<Future<Long>> futures = new ArrayList<>();
    for (SamplerActor s : samplers) {
      futures.add(threads.submit(() -> s.loadWeights(bytes)));
    }
    for (Future<Long> f : futures) {
      long v = await(f);
      if (v != snapshot.version()) {
        throw new IllegalStateException(
            "a sampler holds v" + v + " after loading v" + snapshot.version());
      }
    }
  }

  private static <T> T await(Future<T> f) {
    try {
      return f.get();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while waiting for a sampler", e);
    } catch (ExecutionException e) {
      Throwable c = e.getCause();
      throw c instanceof RuntimeException r ? r : new IllegalStateException(c);
    }
  }

  @Override
  public void close() {
    for (SamplerActor s : samplers) {
      s.shutdown();
    }
    threads.shutdownNow();
  }
}
