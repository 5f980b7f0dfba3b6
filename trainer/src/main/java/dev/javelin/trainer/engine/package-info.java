/**
 * The trainer over the device backend: {@link dev.javelin.trainer.engine.PpoUpdater} and its pieces
 * (token packing, mini-batch arrays with rollout correction, metrics, checkpoint files).
 */
package dev.javelin.trainer.engine;
