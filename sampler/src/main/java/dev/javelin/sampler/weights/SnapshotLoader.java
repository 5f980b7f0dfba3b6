package dev.javelin.sampler.weights;

import dev.javelin.backend.Tensor;
import dev.javelin.backend.model.ModelConfig;
import dev.javelin.backend.model.WeightSpec;
import dev.javelin.backend.runtime.PolicyModel;
import dev.javelin.weightsync.SnapshotReceiver;
import dev.javelin.weightsync.TensorEntry;
import dev.javelin.weightsync.WeightSnapshot;
import dev.javelin.weightsync.WireType;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Loads weight snapshots into a sampler's model through a {@link SnapshotReceiver}: a snapshot must
 * be newer than the loaded version, carry exactly the model's tensors in {@link WeightSpec#layout}
 * order, and match its checksum, or nothing changes. The wire type (f32/bf16) is pinned by the
 * first snapshot. Snapshots are whole, so a sampler that missed versions catches up by loading the
 * newest one.
 */
public final class SnapshotLoader {
  private final ModelConfig config;
  private final long initialVersion;
  private SnapshotReceiver receiver;

  /**
   * @param initialVersion the version of the weights the model starts with (-1 for none)
   */
  public SnapshotLoader(ModelConfig config, long initialVersion) {
    this.config = config;
    this.initialVersion = initialVersion;
  }

  /** The version currently loaded. */
  public long version() {
    return receiver == null ? initialVersion : receiver.loadedVersion();
  }

  /**
   * Checks {@code s} and copies its tensors into {@code model}.
   *
   * @throws dev.javelin.weightsync.SnapshotRejectedException when it is stale, has another layout
   *     or fails its checksum; the model is then unchanged
   */
  public void load(WeightSnapshot s, PolicyModel model) {
    receiverFor(s).accept(s);
    Map<String, Tensor.F32> tensors = new LinkedHashMap<>();
    for (WeightSpec spec : WeightSpec.layout(config)) {
      tensors.put(spec.name(), new Tensor.F32(spec.shape(), s.floats(spec.name())));
    }
    model.loadWeights(tensors);
  }

  private SnapshotReceiver receiverFor(WeightSnapshot s) {
    if (receiver == null) {
      WireType type = s.entries().isEmpty() ? WireType.F32 : s.entries().get(0).type();
      receiver = new SnapshotReceiver(expectedLayout(config, type), initialVersion);
    }
    return receiver;
  }

  /** The model's tensors as snapshot entries of {@code type} (offsets are not compared). */
  public static List<TensorEntry> expectedLayout(ModelConfig config, WireType type) {
    List<TensorEntry> out = new ArrayList<>();
    for (WeightSpec spec : WeightSpec.layout(config)) {
      out.add(new TensorEntry(spec.name(), type, spec.shape().dims(), 0));
    }
    return out;
  }
}
