package dev.javelin.trainer;

/** Which policy scores a batch in {@link Trainer#logProbs}. */
public enum PolicyRole {
  /** The policy being trained: its log-probs before the update are VeRL's {@code old_log_prob}. */
  ACTOR,
  /** The frozen initial policy of the KL loss: VeRL's {@code ref_log_prob}. */
  REFERENCE
}
