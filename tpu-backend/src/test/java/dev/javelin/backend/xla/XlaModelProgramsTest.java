package dev.javelin.backend.xla;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.javelin.backend.DType;
import dev.javelin.backend.Device;
import dev.javelin.backend.DeviceBuffer;
import dev.javelin.backend.Devices;
import dev.javelin.backend.Donation;
import dev.javelin.backend.Executable;
import dev.javelin.backend.Tensor;
import dev.javelin.backend.graph.Node;
import dev.javelin.backend.graph.Op;
import dev.javelin.backend.graph.Program;
import dev.javelin.backend.graph.Remat;
import dev.javelin.backend.model.LlamaFamily;
import dev.javelin.backend.model.LoraConfig;
import dev.javelin.backend.model.ModelConfig;
import dev.javelin.backend.model.WeightSpec;
import dev.javelin.backend.optim.AdamWConfig;
import dev.javelin.backend.optim.OptimizerPrograms;
import dev.javelin.backend.program.ModelPrograms;
import dev.javelin.backend.program.SlotPrograms;
import dev.javelin.backend.program.TrainPrograms;
import dev.javelin.backend.testing.ModelInputs;
import dev.javelin.backend.testing.PgLoss;
import dev.javelin.backend.testing.RelError;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The decoder model's programs on {@code xla:cpu} against the {@code cpu} engine (relative error at
 * most 1e-4): log-probs, prefill, a decode step, the fused train step, and 20 train steps with
 * weights and optimizer state resident on the device, whose loss curves must agree.
 */
class XlaModelProgramsTest {
  private static final double TOL = 1e-4;

  /** Qwen2-style micro config: q/k/v biases, tied head, grouped-query attention. */
  private static final ModelConfig MICRO =
      new ModelConfig(64, 32, 48, 2, 4, 2, 8, 10_000, 1e-6, true, true, 16, LlamaFamily.QWEN2);

  /**
   * bf16 programs, relative error (max|a - e| / max|e|). Measured: log-probs 1.0e-3, train-step
   * outputs up to 3.4e-3, the 20-step loss curve 5.2e-4; about three times the worst.
   */
  private static final double BF16_TOL = 1e-2;

  private static final int B = 2;
  private static final int T = 6;
  private static final int S = 8;
  private static Device xla;
  private static Device cpu;

  @BeforeAll
  static void open() {
    System.setProperty(CompileCache.PROPERTY, Path.of("target", "xla-cache").toString());
    xla = Devices.open("xla:cpu");
    cpu = Devices.open("cpu");
  }

  @AfterAll
  static void close() {
    xla.close();
    cpu.close();
  }

  @Test
  void logProbsPrefillAndDecodeMatchCpu() {
    int p = MICRO.maxPositions();
    assertAgree(ModelPrograms.logProbs(MICRO, B, T, p), T);
    assertAgree(ModelPrograms.prefill(MICRO, B, T, S, p), T);
    assertAgree(SlotPrograms.decode(MICRO, B, S, p), 1);
  }

  @Test
  void fusedTrainStepMatchesCpu() {
    assertAgree(trainStep(), T);
  }

  @Test
  void twentyTrainStepsFollowTheCpuLossCurve() {
    Program program = trainStep();
    List<Tensor> args = ModelInputs.of(MICRO, program, T, 0);
    float[] onCpu = lossCurve(cpu, program, args, 20);
    float[] onXla = lossCurve(xla, program, args, 20);
    List<String> names = WeightSpec.layout(MICRO).stream().map(WeightSpec::name).toList();
    float[] inPlace = lossCurve(xla, program, args, 20, TrainPrograms.fusedInPlace(program, names));
    for (int i = 0; i < onCpu.length; i++) {
      double rel = Math.abs(onXla[i] - onCpu[i]) / Math.max(Math.abs(onCpu[i]), 1e-6);
      int step = i;
      assertTrue(
          rel <= TOL, () -> "step " + step + ": xla " + onXla[step] + " vs cpu " + onCpu[step]);
      assertEquals(onXla[i], inPlace[i], "step " + i + " with weights updated in place");
    }
    assertTrue(onCpu[19] < onCpu[0], "the loss should fall: " + onCpu[0] + " -> " + onCpu[19]);
  }

  /**
   * Mixed precision through StableHLO (bf16 converts, bf16 x bf16 -> f32 dot_general, f32 norms and
   * softmax): log-probs, a train step and a 20-step loss curve follow the cpu engine to {@link
   * #BF16_TOL}. XLA fuses elementwise chains and may drop a bf16 rounding inside one, so the two
   * agree to bf16 accuracy, not bit for bit.
   */
  @Test
  void bf16ProgramsFollowCpu() {
    int p = MICRO.maxPositions();
    assertAgree(ModelPrograms.logProbs(MICRO, B, T, p, LoraConfig.NONE, DType.BF16), T, BF16_TOL);
    Program step =
        TrainPrograms.fused(
            MICRO, B, T, p, new PgLoss(), AdamWConfig.defaults(), Remat.NONE, DType.BF16);
    assertAgree(step, T, BF16_TOL);
    List<Tensor> args = ModelInputs.of(MICRO, step, T, 0);
    float[] onCpu = lossCurve(cpu, step, args, 20);
    float[] onXla = lossCurve(xla, step, args, 20);
    for (int i = 0; i < onCpu.length; i++) {
      double rel = Math.abs(onXla[i] - onCpu[i]) / Math.max(Math.abs(onCpu[i]), 1);
      int at = i;
      assertTrue(
          rel <= BF16_TOL, () -> "bf16 step " + at + ": xla " + onXla[at] + " vs cpu " + onCpu[at]);
    }
  }

  private static Program trainStep() {
    return TrainPrograms.fused(
        MICRO, B, T, MICRO.maxPositions(), new PgLoss(), AdamWConfig.defaults());
  }

  /**
   * Runs {@code steps} train steps keeping weights, m and v on the device: only the step counter is
   * uploaded per step, and the loss is the only value downloaded.
   */
  private static float[] lossCurve(Device device, Program program, List<Tensor> args, int steps) {
    return lossCurve(device, program, args, steps, Donation.none());
  }

  private static float[] lossCurve(
      Device device, Program program, List<Tensor> args, int steps, Donation donation) {
    Map<String, Integer> index = new HashMap<>();
    List<Node> params = program.parameters();
    for (int i = 0; i < params.size(); i++) {
      index.put(((Op.Parameter) params.get(i).op()).name(), i);
    }
    List<WeightSpec> weights = WeightSpec.layout(MICRO);
    int n = weights.size();
    List<DeviceBuffer> in = new ArrayList<>();
    args.forEach(a -> in.add(device.upload(a)));
    float[] losses = new float[steps];
    try (Executable exe = device.compile(program, donation)) {
      for (int s = 0; s < steps; s++) {
        int stepIdx = index.get(OptimizerPrograms.STEP);
        in.get(stepIdx).close();
        in.set(stepIdx, device.upload(Tensor.scalar(s + 1)));
        List<DeviceBuffer> out = exe.run(in);
        for (int donated : donation.aliases().keySet()) {
          DeviceBuffer consumed = in.get(donated);
          assertThrows(IllegalStateException.class, consumed::toHost);
        }
        losses[s] = ((Tensor.F32) out.get(0).toHost()).data()[0];
        List<DeviceBuffer> keep = new ArrayList<>();
        for (int w = 0; w < n; w++) {
          String name = weights.get(w).name();
          replace(in, index.get(name), out.get(3 + w), keep);
          replace(in, index.get(OptimizerPrograms.firstMoment(name)), out.get(3 + n + w), keep);
          replace(
              in, index.get(OptimizerPrograms.secondMoment(name)), out.get(3 + 2 * n + w), keep);
        }
        out.stream().filter(b -> !keep.contains(b)).forEach(DeviceBuffer::close);
      }
    } finally {
      in.forEach(DeviceBuffer::close);
    }
    return losses;
  }

  private static void replace(
      List<DeviceBuffer> in, int i, DeviceBuffer fresh, List<DeviceBuffer> keep) {
    in.get(i).close();
    in.set(i, fresh);
    keep.add(fresh);
  }

  private static void assertAgree(Program program, int t) {
    assertAgree(program, t, TOL);
  }

  private static void assertAgree(Program program, int t, double tol) {
    List<Tensor> args = ModelInputs.of(MICRO, program, t, 5);
    List<Tensor> expected = run(cpu, program, args);
    List<Tensor> actual = run(xla, program, args);
    assertEquals(expected.size(), actual.size());
    for (int i = 0; i < expected.size(); i++) {
      RelError.assertClose(program.name() + " output " + i, expected.get(i), actual.get(i), tol);
    }
  }

  private static List<Tensor> run(Device device, Program program, List<Tensor> args) {
    List<DeviceBuffer> in = new ArrayList<>();
    args.forEach(a -> in.add(device.upload(a)));
    try (Executable exe = device.compile(program)) {
      List<Tensor> host = new ArrayList<>();
      for (DeviceBuffer b : exe.run(in)) {
        host.add(b.toHost());
        b.close();
      }
      return host;
    } finally {
      in.forEach(DeviceBuffer::close);
    }
  }
}
