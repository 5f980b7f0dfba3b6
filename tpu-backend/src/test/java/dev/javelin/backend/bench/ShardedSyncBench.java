package dev.javelin.backend.bench;

import dev.javelin.backend.DType;
import dev.javelin.backend.Devices;
import dev.javelin.backend.Tensor;
import dev.javelin.backend.checkpoint.ModelCheckpoint;
import dev.javelin.backend.model.ModelConfig;
import dev.javelin.backend.runtime.PolicyModel;
import dev.javelin.backend.spmd.MeshShape;
import dev.javelin.backend.xla.XlaDevice;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * A weight sync across layouts on four {@code xla:cpu} devices: the trainer's weights sharded FSDP
 * on chips 0–1 are gathered to the host (what a weight snapshot reads) and loaded into a sampler
 * that is tensor parallel on chips 2–3, which uploads to each chip only its block. Prints the
 * median gather and load times and the bytes each sampler chip holds against the whole model, next
 * to loading the same weights into a one-chip sampler (chip 3 alone).
 *
 * <p>Usage: {@code java -Djavelin.xla.cpu.devices=4 -cp <test classpath> ShardedSyncBench
 * [tiny|small] [iterations]}.
 */
public final class ShardedSyncBench {
  private ShardedSyncBench() {}

  public static void main(String[] args) {
    ModelConfig c =
        args.length > 0 && args[0].equals("tiny") ? ModelConfig.tiny() : ModelConfig.small();
    int iters = args.length > 1 ? Integer.parseInt(args[1]) : 5;
    ModelCheckpoint ckpt = ModelCheckpoint.random(c, 0, 0.02);
    try (XlaDevice trainerChips = (XlaDevice) Devices.open("xla:cpu@0,1");
        XlaDevice samplerChips = (XlaDevice) Devices.open("xla:cpu@2,3");
        XlaDevice oneChip = (XlaDevice) Devices.open("xla:cpu@3");
        PolicyModel trainer =
            PolicyModel.of(
                trainerChips, ckpt, DType.F32, new MeshShape(1, 2, 1).over(trainerChips.chips()));
        PolicyModel sampler =
            PolicyModel.of(
                samplerChips,
                ckpt,
                DType.F32,
                MeshShape.tensorParallel(2).over(samplerChips.chips()));
        PolicyModel single = PolicyModel.of(oneChip, ckpt)) {
      double[] gather = new double[iters];
      double[] load = new double[iters];
      double[] loadOne = new double[iters];
      for (int i = 0; i < iters; i++) {
        long t0 = System.nanoTime();
        Map<String, Tensor.F32> host = trainer.checkpoint().weights();
        long t1 = System.nanoTime();
        sampler.loadWeights(host);
        long t2 = System.nanoTime();
        single.loadWeights(host);
        long t3 = System.nanoTime();
        gather[i] = (t1 - t0) / 1e6;
        load[i] = (t2 - t1) / 1e6;
        loadOne[i] = (t3 - t2) / 1e6;
      }
      long whole = 4L * ckpt.weights().values().stream().mapToLong(t -> t.shape().size()).sum();
      List<Long> perChip = List.of(sampler.residentBytes(0), sampler.residentBytes(1));
      System.out.printf(
          "{\"bench\":\"sharded_sync\",\"config\":\"%s\",\"trainer\":\"fsdp=2 on chips 0,1\","
              + "\"sampler\":\"tp=2 on chips 2,3\",\"model_bytes\":%d,\"sampler_chip_bytes\":%s,"
              + "\"gather_ms\":%.1f,\"load_tp2_ms\":%.1f,\"load_one_chip_ms\":%.1f,\"iters\":%d}%n",
          c.equals(ModelConfig.tiny()) ? "tiny" : "small",
          whole,
          perChip,
          median(gather),
          median(load),
          median(loadOne),
          iters);
    }
  }

  private static double median(double[] x) {
    double[] s = x.clone();
    Arrays.sort(s);
    return s[s.length / 2];
  }
}
