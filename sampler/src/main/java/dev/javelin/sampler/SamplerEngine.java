package dev.javelin.sampler;

import dev.javelin.backend.runtime.PolicyModel;
import dev.javelin.sampler.engine.ContinuousBatcher;
import dev.javelin.sampler.engine.SlotTokenModel;
import dev.javelin.sampler.weights.SnapshotLoader;
import dev.javelin.weightsync.WeightSnapshot;
import java.util.List;

/**
 * The generation engine: batched prefill and per-slot decode over the device's KV cache with
 * continuous batching (see {@link ContinuousBatcher}), per-request seeded sampling, stop tokens and
 * length caps, and weight updates through {@link SnapshotLoader}. Plain Java (no Ray); the {@link
 * SamplerActor} wraps it. Owns the model (closing the engine closes it). Thread-confined.
 */
public final class SamplerEngine implements AutoCloseable {
  private final PolicyModel model;
  private final SamplerConfig config;
  private final SnapshotLoader loader;

  /**
   * @param model the policy, already holding the weights of {@code version}
   * @param version the policy version of those weights (-1 when they are only placeholders)
   */
  public SamplerEngine(PolicyModel model, SamplerConfig config, long version) {
    this.model = model;
    this.config = config;
    this.loader = new SnapshotLoader(model.config(), version);
  }

  public PolicyModel model() {
    return model;
  }

  /** The loaded policy version. */
  public long version() {
    return loader.version();
  }

  /** The next snapshot may be of any version, an older one too (a restarted trainer's). */
  public void rewind() {
    loader.rewind();
  }

  /**
   * Loads a newer snapshot.
   *
   * @throws dev.javelin.weightsync.SnapshotRejectedException if it is stale, has the wrong layout
   *     or a bad checksum (the weights are then unchanged)
   */
  public void loadWeights(WeightSnapshot snapshot) {
    loader.load(snapshot, model);
  }

  /** Generates every request; rollouts come back in request order. */
  public GenerationResult generate(List<GenerationRequest> requests) {
    long start = System.nanoTime();
    if (requests.isEmpty()) {
      return new GenerationResult(List.of(), SamplerMetrics.of(List.of(), 0, 0, 0, 0));
    }
    int rows = config.rowsFor(requests.size());
    try (SlotTokenModel tokens =
        new SlotTokenModel(model, rows, capacityFor(requests), config.dtype())) {
      ContinuousBatcher.Outcome out = ContinuousBatcher.run(tokens, requests, version());
      double seconds = (System.nanoTime() - start) / 1e9;
      return new GenerationResult(
          out.rollouts(),
          SamplerMetrics.of(out.rollouts(), seconds, out.prefills(), out.decodeSteps(), rows));
    }
  }

  /** Cache positions for the longest prompt + response, within the model's context. */
  private int capacityFor(List<GenerationRequest> requests) {
    int need = 1;
    for (GenerationRequest r : requests) {
      need = Math.max(need, r.promptLength() + r.params().maxResponseLength());
    }
    return Math.min(need, model.config().maxPositions());
  }

  @Override
  public void close() {
    model.close();
  }
}
