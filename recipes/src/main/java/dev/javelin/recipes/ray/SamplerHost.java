package dev.javelin.recipes.ray;

import dev.javelin.sampler.SamplerActor;
import dev.javelin.sampler.SamplerConfig;

/**
 * The Ray actor class of a sampler: a constructor wrapper around {@link SamplerActor}. Ray 2.9's
 * Java runtime creates actors from constructors; a static factory such as {@code
 * SamplerActor::awaitingWeights} yields an actor whose later calls fail with "object is not an
 * instance of declaring class", so the factory runs inside this constructor instead.
 */
public final class SamplerHost {
  private final SamplerActor sampler;

  /**
   * A sampler for the model of {@code configJson} that waits for its first weights and decodes in
   * {@code dtype} ({@code f32} or {@code bf16}), its model split over {@code tensorParallel} chips
   * of {@code device}. In a cluster worker the process is first limited to the chips Ray granted
   * ({@link GrantedChips}).
   */
  public SamplerHost(
      String device, String configJson, Integer maxSlots, String dtype, Integer tensorParallel) {
    GrantedChips.limit(device);
    this.sampler =
        SamplerActor.awaitingWeights(
            device,
            configJson,
            new SamplerConfig(maxSlots, SamplerConfig.dtypeNamed(dtype), tensorParallel));
  }

  public byte[] generate(byte[] requests) {
    return sampler.generate(requests);
  }

  /**
   * Generates with the weights of {@code version}, or throws {@link StaleSamplerException} when
   * this sampler holds another version: a restarted actor comes back without weights, and the pool
   * must reload them before it trusts this sampler's rollouts.
   */
  public byte[] generateAt(byte[] requests, Long version) {
    long held = sampler.version();
    if (held != version) {
      throw new StaleSamplerException(held, version);
    }
    return sampler.generate(requests);
  }

  public Long loadWeights(byte[] snapshot) {
    return sampler.loadWeights(snapshot);
  }

  public Long version() {
    return sampler.version();
  }

  public Boolean rewind() {
    return sampler.rewind();
  }

  /** The worker process's id, so fault-injection tests can kill this sampler's JVM. */
  public Long pid() {
    return ProcessHandle.current().pid();
  }

  public Boolean shutdown() {
    return sampler.shutdown();
  }
}
