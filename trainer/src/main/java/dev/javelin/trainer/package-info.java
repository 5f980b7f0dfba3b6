/**
 * The GRPO trainer: {@link dev.javelin.trainer.Trainer} (old/ref log-probs, PPO epochs over
 * mini-batches with exact micro-batch gradient accumulation, SFT steps, weight snapshots,
 * checkpoints), {@link dev.javelin.trainer.Checkpointer} for atomic {@code global_step_N}
 * directories, and {@link dev.javelin.trainer.TrainerActor} for Ray. The implementation is in
 * {@code engine}; the actor's byte formats are in {@code codec}.
 */
package dev.javelin.trainer;
