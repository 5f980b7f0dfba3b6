package dev.javelin.trainer.engine;

import dev.javelin.backend.Tensor;
import dev.javelin.backend.checkpoint.ModelCheckpoint;
import dev.javelin.backend.model.LoraAdapters;
import dev.javelin.backend.model.LoraConfig;
import dev.javelin.backend.runtime.PolicyModel;
import dev.javelin.weightsync.SnapshotContent;
import dev.javelin.weightsync.WeightSnapshot;
import dev.javelin.weightsync.WireType;
import java.util.Map;

/** The weight snapshots a trainer pushes to samplers: HF names, layout order, the wire type. */
public final class PolicySnapshots {
  private PolicySnapshots() {}

  /** What {@link PpoUpdater#snapshot(long, WireType, SnapshotContent)} sends for {@code policy}. */
  public static WeightSnapshot of(
      PolicyModel policy, long version, WireType type, SnapshotContent content) {
    LoraConfig lora = policy.lora();
    if (!lora.enabled() || content == SnapshotContent.WEIGHTS) {
      // Samplers run plain weights: under LoRA the adapters are folded in before each push.
      return of(policy.mergedCheckpoint(), version, type);
    }
    WeightSnapshot.Builder b = WeightSnapshot.builder(version, type);
    if (content.hasBase()) {
      policy.checkpoint().ordered().forEach((k, v) -> b.add(k, v.shape().dims(), v.data()));
    }
    LoraAdapters.scaledForSync(lora, policy.config(), policy.adapterTensors())
        .forEach((k, v) -> b.add(k, v.shape().dims(), v.data()));
    return b.build();
  }

  /** {@code weights} as the snapshot samplers load: HF names, layout order, in {@code type}. */
  public static WeightSnapshot of(ModelCheckpoint weights, long version, WireType type) {
    WeightSnapshot.Builder b = WeightSnapshot.builder(version, type);
    for (Map.Entry<String, Tensor.F32> e : weights.ordered().entrySet()) {
      b.add(e.getKey(), e.getValue().shape().dims(), e.getValue().data());
    }
    return b.build();
  }
}
