package dev.javelin.trainer.engine;

import dev.javelin.backend.Tensor;
import dev.javelin.backend.checkpoint.ModelCheckpoint;
import dev.javelin.backend.checkpoint.safetensors.CheckpointShard;
import dev.javelin.backend.model.LoraAdapters;
import dev.javelin.backend.model.LoraConfig;
import dev.javelin.backend.runtime.PolicyModel;
import dev.javelin.weightsync.SnapshotContent;
import dev.javelin.weightsync.WeightSnapshot;
import dev.javelin.weightsync.WireType;
import java.util.LinkedHashMap;
import java.util.Map;

/** The weight snapshots a trainer pushes to samplers: HF names, layout order, the wire type. */
public final class PolicySnapshots {
  private PolicySnapshots() {}

  /** What {@link PpoUpdater#snapshot(long, WireType, SnapshotContent)} sends for {@code policy}. */
  public static WeightSnapshot of(
      PolicyModel policy, long version, WireType type, SnapshotContent content) {
    return of(policy, version, type, content, CheckpointShard.WHOLE);
  }

  /**
   * {@code shard}'s part of that snapshot: the tensors a rank of a gang sends, split as its part of
   * a checkpoint is; {@link WeightSnapshot#concat} puts the ranks' parts back together.
   */
  public static WeightSnapshot of(
      PolicyModel policy,
      long version,
      WireType type,
      SnapshotContent content,
      CheckpointShard shard) {
    return build(shard.part(sent(policy, content)), version, type);
  }

  /** {@code weights} as the snapshot samplers load: HF names, layout order, in {@code type}. */
  public static WeightSnapshot of(ModelCheckpoint weights, long version, WireType type) {
    return build(weights.ordered(), version, type);
  }

  private static Map<String, Tensor.F32> sent(PolicyModel policy, SnapshotContent content) {
    LoraConfig lora = policy.lora();
    if (!lora.enabled() || content == SnapshotContent.WEIGHTS) {
      // Samplers run plain weights: under LoRA the adapters are folded in before each push.
      return policy.mergedCheckpoint().ordered();
    }
    Map<String, Tensor.F32> sent = new LinkedHashMap<>();
    if (content.hasBase()) {
      sent.putAll(policy.checkpoint().ordered());
    }
    sent.putAll(LoraAdapters.scaledForSync(lora, policy.config(), policy.adapterTensors()));
    return sent;
  }

  private static WeightSnapshot build(
      Map<String, Tensor.F32> tensors, long version, WireType type) {
    WeightSnapshot.Builder b = WeightSnapshot.builder(version, type);
    tensors.forEach((k, v) -> b.add(k, v.shape().dims(), v.data()));
    return b.build();
  }
}
