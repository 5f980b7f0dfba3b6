package dev.javelin.sampler;

import dev.javelin.backend.DType;
import dev.javelin.backend.Device;
import dev.javelin.backend.Devices;
import dev.javelin.backend.checkpoint.ModelCheckpoint;
import dev.javelin.backend.checkpoint.ModelConfigJson;
import dev.javelin.backend.model.ModelConfig;
import dev.javelin.backend.runtime.PolicyModel;
import dev.javelin.weightsync.SnapshotCodec;
import dev.javelin.weightsync.SnapshotRejectedException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.List;
import java.util.logging.Logger;

/**
 * The sampler as a Ray actor: a {@link SamplerEngine} behind byte[] methods ({@link RolloutCodec}
 * and weightsync's {@link SnapshotCodec}), since Ray's serializer cannot carry records and we never
 * Java-deserialize untrusted bytes. Create it with {@code Ray.actor(SamplerActor::fromCheckpoint,
 * ...)} or {@code Ray.actor(SamplerActor::awaitingWeights, ...)}. Ray runs one call at a time per
 * actor, which the thread-confined engine needs.
 */
public final class SamplerActor {
  private static final Logger LOG = Logger.getLogger(SamplerActor.class.getName());
  private final SamplerEngine engine;
  private final Device ownedDevice; // opened by a factory below; null when the caller owns it

  /** Wraps an engine (tests and in-process use); the caller keeps owning its device. */
  public SamplerActor(SamplerEngine engine) {
    this(engine, null);
  }

  private SamplerActor(SamplerEngine engine, Device ownedDevice) {
    this.engine = engine;
    this.ownedDevice = ownedDevice;
  }

  /**
   * A sampler over a Hugging Face checkpoint directory whose weights are policy {@code version}.
   */
  public static SamplerActor fromCheckpoint(
      String deviceSpec, String checkpointDir, long version, int maxSlots) {
    PolicyModel model = PolicyModel.load(Devices.open(deviceSpec), Path.of(checkpointDir));
    return new SamplerActor(new SamplerEngine(model, new SamplerConfig(maxSlots), version));
  }

  /**
   * A sampler for a model of the given config.json text that holds no weights yet: it refuses to
   * generate until {@link #loadWeights} brings the first snapshot.
   */
  public static SamplerActor awaitingWeights(String deviceSpec, String configJson, int maxSlots) {
    return awaitingWeights(deviceSpec, configJson, maxSlots, "f32");
  }

  /**
   * As above, decoding in {@code dtype} ({@code f32} or {@code bf16}: bf16 prefill/decode and KV
   * cache). Weight snapshots arrive in their own wire type either way.
   */
  public static SamplerActor awaitingWeights(
      String deviceSpec, String configJson, int maxSlots, String dtype) {
    return awaitingWeights(
        deviceSpec, configJson, new SamplerConfig(maxSlots, SamplerConfig.dtypeNamed(dtype)));
  }

  /**
   * As above with every engine setting: a tensor-parallel sampler splits the model over the first
   * {@link SamplerConfig#tensorParallel} chips of {@code deviceSpec} (e.g. {@code tpu@4-5}).
   */
  public static SamplerActor awaitingWeights(
      String deviceSpec, String configJson, SamplerConfig sampler) {
    ModelConfig config = ModelConfigJson.parse(configJson);
    ModelCheckpoint zeros = ModelCheckpoint.random(config, 0, 0.0);
    Device device = Devices.open(deviceSpec);
    PolicyModel model;
    try {
      model = PolicyModel.of(device, zeros, DType.F32, sampler.mesh().over(device.chips()));
    } catch (RuntimeException e) {
      device.close();
      throw e;
    }
    return new SamplerActor(new SamplerEngine(model, sampler, -1), device);
  }

  /** Generates a request batch ({@link RolloutCodec#encodeRequests}) into a result's bytes. */
  public byte[] generate(byte[] requests) {
    if (engine.version() < 0) {
      throw new IllegalStateException("sampler has no weights yet: call loadWeights first");
    }
    List<GenerationRequest> batch = RolloutCodec.decodeRequests(requests);
    return RolloutCodec.encodeResult(engine.generate(batch));
  }

  /**
   * Loads an encoded snapshot and returns the version now loaded. A stale snapshot (not newer than
   * the loaded one, e.g. a repeated publish while catching up) changes nothing and returns the
   * current version; a wrong layout or checksum throws {@link SnapshotRejectedException}.
   */
  public long loadWeights(byte[] snapshot) {
    try {
      engine.loadWeights(SnapshotCodec.decode(ByteBuffer.wrap(snapshot)));
    } catch (SnapshotRejectedException e) {
      if (e.reason() != SnapshotRejectedException.Reason.STALE) {
        throw e;
      }
      LOG.info(() -> "ignoring snapshot: " + e.getMessage());
    }
    return engine.version();
  }

  /**
   * The next snapshot may be of any version, an older one too: the trainer went back to its last
   * checkpoint. Until it comes, {@link #version} is -1 and the loaded weights stay.
   */
  public boolean rewind() {
    engine.rewind();
    return true;
  }

  /** The loaded policy version (-1 before the first snapshot). */
  public long version() {
    return engine.version();
  }

  /** Frees the model's device memory and closes a device this actor opened. */
  public boolean shutdown() {
    engine.close();
    if (ownedDevice != null) {
      ownedDevice.close();
    }
    return true;
  }
}
