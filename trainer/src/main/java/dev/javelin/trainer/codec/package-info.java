/** Bounds-checked little-endian byte formats of the trainer actor's arguments and results. */
package dev.javelin.trainer.codec;
