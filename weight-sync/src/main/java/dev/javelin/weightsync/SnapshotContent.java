package dev.javelin.weightsync;

/**
 * What a snapshot carries. Under LoRA the trainer may send the adapters alone (a few MB) and let
 * each sampler apply them to the frozen base it already holds.
 */
public enum SnapshotContent {
  /** Every weight of the model: full fine-tuning, or adapters the trainer merged in. */
  WEIGHTS,
  /** The frozen base weights, then LoRA adapters: what a sampler needs before adapters alone. */
  BASE_AND_ADAPTERS,
  /** LoRA adapters only; the receiver must already hold the base. */
  ADAPTERS;

  /** Whether this content carries the model's base weights. */
  public boolean hasBase() {
    return this != ADAPTERS;
  }
}
