package dev.javelin.backend.runtime;

import dev.javelin.backend.DeviceBuffer;
import dev.javelin.backend.Executable;
import dev.javelin.backend.Shape;
import dev.javelin.backend.Tensor;
import dev.javelin.backend.optim.AdamWConfig;
import dev.javelin.backend.optim.LrSchedule;
import dev.javelin.backend.optim.OptimizerPrograms;
import dev.javelin.backend.program.Bindings;
import dev.javelin.backend.program.ShardPlan;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * AdamW's state for a {@link PolicyModel}, on the device next to the weights: m and v of every
 * trainable tensor and the applied-update count, with the programs that sum gradients and apply an
 * update. Updates donate the weights and moments, so on XLA they are overwritten in place.
 */
final class AdamWState implements AutoCloseable {
  private final PolicyModel model;
  private final AdamWConfig config;
  private final LrSchedule schedule;
  private final Map<String, DeviceBuffer> moments = new LinkedHashMap<>();
  private long applied;

  /** Zero moments for what trains: the adapters under LoRA, every weight otherwise. */
  AdamWState(PolicyModel model, AdamWConfig config, LrSchedule schedule) {
    this.model = model;
    this.config = config;
    this.schedule = schedule;
    for (Map.Entry<String, Shape> e : model.trainableShapes().entrySet()) {
      for (String m :
          List.of(
              OptimizerPrograms.firstMoment(e.getKey()),
              OptimizerPrograms.secondMoment(e.getKey()))) {
        moments.put(m, model.upload(m, Tensor.F32.zeros(e.getValue())));
      }
    }
  }

  AdamWConfig config() {
    return config;
  }

  /** Updates applied so far. */
  long applied() {
    return applied;
  }

  /** The learning rate of the next update. */
  double nextLr() {
    return schedule.lr(applied);
  }

  Map<String, DeviceBuffer> momentsOnDevice() {
    return Collections.unmodifiableMap(moments);
  }

  /**
   * Bytes m and v occupy on the chip at mesh position {@code position} (see {@link
   * PolicyModel#residentBytes}).
   */
  long residentBytes(int position) {
    return ResidentBytes.of(moments.values(), position);
  }

  /** m and v of every weight, by their program names ({@code m.<name>}, {@code v.<name>}). */
  Map<String, Tensor> optimizerState() {
    Map<String, Tensor> out = new LinkedHashMap<>();
    moments.forEach((k, b) -> out.put(k, b.toHost()));
    return out;
  }

  /** Restores moments saved by {@link #optimizerState} and the applied-update count. */
  void restore(Map<String, Tensor> state, long appliedSteps) {
    for (String k : moments.keySet()) {
      Tensor t = state.get(k);
      if (t == null || !t.shape().equals(moments.get(k).shape())) {
        throw new IllegalArgumentException(
            "optimizer state lacks '" + k + "' of " + moments.get(k).shape());
      }
    }
    for (String k : new ArrayList<>(moments.keySet())) {
      moments.put(k, replace(moments.get(k), model.upload(k, state.get(k))));
    }
    this.applied = appliedSteps;
  }

  List<DeviceBuffer> accumulate(List<DeviceBuffer> acc, List<DeviceBuffer> grads) {
    Map<String, Shape> shapes = model.trainableShapes();
    List<String> names = trainableNames();
    Executable exe =
        model.executable(
            ProgramSpec.of(
                    "accumulate" + trainedSuffix(), () -> OptimizerPrograms.accumulate(shapes))
                .donating(p -> OptimizerPrograms.inPlaceAccumulate(p, names))
                .outputs(names.stream().map(OptimizerPrograms::accumulator).toList()));
    List<DeviceBuffer> args = new ArrayList<>(acc);
    args.addAll(grads);
    List<DeviceBuffer> sum = exe.run(args);
    args.forEach(DeviceBuffer::close);
    return sum;
  }

  PolicyOptimizer.StepResult update(List<DeviceBuffer> grads, double loss) {
    Map<String, Shape> shapes = model.trainableShapes();
    List<String> names = trainableNames();
    Executable exe =
        model.executable(
            ProgramSpec.of("adamw" + trainedSuffix(), () -> OptimizerPrograms.adamW(shapes, config))
                .donating(p -> OptimizerPrograms.inPlaceUpdate(p, names, 2))
                .outputs(ShardPlan.after(2, ShardPlan.updateNames(names))));
    double lr = schedule.lr(applied);
    Map<String, DeviceBuffer> named = model.modelBuffers();
    named.putAll(moments);
    for (int i = 0; i < names.size(); i++) {
      named.put(OptimizerPrograms.grad(names.get(i)), grads.get(i));
    }
    DeviceBuffer lrBuf = model.upload(OptimizerPrograms.LR, Tensor.scalar((float) lr));
    DeviceBuffer stepBuf =
        model.upload(OptimizerPrograms.STEP, Tensor.scalar((float) (applied + 1)));
    named.put(OptimizerPrograms.LR, lrBuf);
    named.put(OptimizerPrograms.STEP, stepBuf);
    List<DeviceBuffer> out = exe.run(Bindings.bind(exe.program(), named));
    grads.forEach(DeviceBuffer::close);
    lrBuf.close();
    stepBuf.close();
    return absorbUpdate(out, loss, lr);
  }

  /**
   * Takes [norm, applied, weights..., m..., v...], swapping in the new buffers first: the run has
   * consumed the old ones where the device donates them.
   */
  PolicyOptimizer.StepResult absorbUpdate(List<DeviceBuffer> out, double loss, double lr) {
    List<String> names = trainableNames();
    int n = names.size();
    for (int i = 0; i < n; i++) {
      String w = names.get(i);
      model.replaceTrainable(w, out.get(2 + i));
      String m = OptimizerPrograms.firstMoment(w);
      String v = OptimizerPrograms.secondMoment(w);
      moments.put(m, replace(moments.get(m), out.get(2 + n + i)));
      moments.put(v, replace(moments.get(v), out.get(2 + 2 * n + i)));
    }
    double norm = out.get(0).toHost().getDouble(0);
    boolean ok = out.get(1).toHost().getDouble(0) > 0.5;
    out.get(0).close();
    out.get(1).close();
    if (ok) {
      applied++;
    }
    return new PolicyOptimizer.StepResult(loss, norm, ok, lr, applied);
  }

  /** Keeps the update programs of adapters and of full weights apart in the model's cache. */
  private String trainedSuffix() {
    return model.lora().enabled() ? "_lora" : "";
  }

  List<String> trainableNames() {
    return new ArrayList<>(model.trainableShapes().keySet());
  }

  private static DeviceBuffer replace(DeviceBuffer old, DeviceBuffer fresh) {
    if (old != null && old != fresh) {
      old.close();
    }
    return fresh;
  }

  @Override
  public void close() {
    moments.values().forEach(DeviceBuffer::close);
    moments.clear();
  }
}
