package dev.javelin.sampler;

/** Why a response ended. */
public enum FinishReason {
  /** A stop token was generated (it is the last response token). */
  STOP,
  /** {@code maxResponseLength} tokens were generated (or the model's context was exhausted). */
  LENGTH
}
