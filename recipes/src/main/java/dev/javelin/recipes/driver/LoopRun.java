package dev.javelin.recipes.driver;

import dev.javelin.recipes.metrics.HeldOut;
import java.nio.file.Path;
import java.util.Map;

/** A run in progress: where it stands and what it last measured. */
final class LoopRun {
  final int firstStep;
  final int total;
  final BatchSource source;
  final double startAcc;
  int step;
  PendingGeneration pending;
  boolean saved = true;
  double lastAcc;
  int lastAccStep;
  boolean isAccuracy;
  double lastReward = Double.NaN;

  LoopRun(int step, int total, BatchSource source, double startAcc) {
    this.firstStep = step + 1;
    this.step = step;
    this.total = total;
    this.source = source;
    this.startAcc = startAcc;
  }

  void heldOut(Map<String, Double> val, int atStep) {
    lastAcc = HeldOut.value(val);
    lastAccStep = atStep;
    isAccuracy = HeldOut.isAccuracy(val);
  }

  TrainingState state() {
    return new TrainingState(step, source.checkpointState(pending), startAcc);
  }

  RunSummary summary(double seconds, Path runDir) {
    return new RunSummary(
        firstStep,
        step,
        startAcc,
        lastAcc,
        lastAccStep,
        lastReward,
        seconds,
        step < total,
        runDir,
        isAccuracy,
        null, // checkpoints are the model
        null);
  }
}
