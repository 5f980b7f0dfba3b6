package dev.javelin.sampler;

import dev.javelin.backend.Tensor;
import dev.javelin.backend.checkpoint.ModelCheckpoint;
import dev.javelin.backend.model.WeightSpec;
import dev.javelin.weightsync.WeightSnapshot;
import dev.javelin.weightsync.WireType;

/** Builds weight snapshots of a checkpoint in the model's layout order, as the trainer does. */
final class Snapshots {
  private Snapshots() {}

  static WeightSnapshot of(ModelCheckpoint ckpt, long version, WireType type) {
    WeightSnapshot.Builder b = WeightSnapshot.builder(version, type);
    for (WeightSpec s : WeightSpec.layout(ckpt.config())) {
      Tensor.F32 t = ckpt.weights().get(s.name());
      b.add(s.name(), s.shape().dims(), t.data());
    }
    return b.build();
  }
}
