package dev.javelin.backend.xla;

import dev.javelin.backend.Device;
import dev.javelin.backend.Devices;
import dev.javelin.backend.Tensor;
import dev.javelin.backend.batch.PrefixBatch;
import dev.javelin.backend.batch.SequenceBatch;
import dev.javelin.backend.batch.TokenLogProbs;
import dev.javelin.backend.checkpoint.ModelCheckpoint;
import dev.javelin.backend.checkpoint.PeftAdapter;
import dev.javelin.backend.optim.AdamWConfig;
import dev.javelin.backend.optim.LrSchedule;
import dev.javelin.backend.runtime.PolicyModel;
import dev.javelin.backend.runtime.PolicyOptimizer;
import dev.javelin.backend.testing.RelError;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * LoRA on {@code xla:cpu} against {@code cpu}: the PEFT fixture adapter on qwen2-tiny, log-probs
 * through shared prompts, and three train steps that update A and B in place (donated buffers).
 */
class XlaLoraTest {
  private static final double TOL = 1e-4;

  @Test
  void loraLogProbsAndTrainStepsMatchCpu() {
    Path ckpt = XlaTestFixtures.qwen2Tiny();
    PeftAdapter adapter =
        PeftAdapter.load(ckpt.resolveSibling("qwen2-tiny-lora"), ModelCheckpoint.config(ckpt));
    int[] p1 = {3, 17, 42};
    int[] p2 = {8, 1, 30, 4, 5};
    SequenceBatch batch =
        PrefixBatch.of(
            List.of(p1, p2, p1, p2),
            List.of(new int[] {9, 11, 2}, new int[] {6, 3}, new int[] {7, 7}, new int[] {1}));
    AdamWConfig adam = new AdamWConfig(0.9, 0.999, 1e-8, 0.01, 1.0);
    try (Device cpu = Devices.open("cpu");
        Device xla = Devices.open("xla:cpu");
        PolicyModel onCpu = PolicyModel.load(cpu, ckpt);
        PolicyModel onXla = PolicyModel.load(xla, ckpt)) {
      onCpu.attachAdapters(adapter.lora(), adapter.tensors());
      onXla.attachAdapters(adapter.lora(), adapter.tensors());
      TokenLogProbs a = onCpu.logProbs(batch, 0.7f);
      RelError.assertClose("logp", a.logp(), onXla.logProbs(batch, 0.7f).logp(), TOL);
      RelError.assertClose(
          "base logp",
          onCpu.baseLogProbs(batch, 0.7f).logp(),
          onXla.baseLogProbs(batch, 0.7f).logp(),
          TOL);
      try (PolicyOptimizer oc = new PolicyOptimizer(onCpu, adam, new LrSchedule.Constant(0.01));
          PolicyOptimizer ox = new PolicyOptimizer(onXla, adam, new LrSchedule.Constant(0.01))) {
        for (int i = 0; i < 3; i++) {
          oc.step(List.of(batch), 1f, (m, st) -> nll(st));
          ox.step(List.of(batch), 1f, (m, st) -> nll(st));
        }
      }
      Map<String, Tensor.F32> x = onXla.adapterTensors();
      onCpu.adapterTensors().forEach((k, v) -> RelError.assertClose(k, v, x.get(k), 1e-3));
    }
  }

  private static PolicyOptimizer.Cotangents nll(TokenLogProbs st) {
    float[] d = new float[st.logp().data().length];
    java.util.Arrays.fill(d, -0.1f);
    return new PolicyOptimizer.Cotangents(
        0, new Tensor.F32(st.logp().shape(), d), new Tensor.F32(st.logp().shape(), d.clone()));
  }
}
