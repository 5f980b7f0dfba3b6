/**
 * Where a run's numbers go: metrics.jsonl, console progress, TensorBoard and MLflow, each write
 * whole or not at all.
 */
package dev.javelin.recipes.metrics;
