package dev.javelin.trainer.bench;

import dev.javelin.backend.Devices;
import dev.javelin.backend.checkpoint.ModelCheckpoint;
import dev.javelin.backend.distributed.Gang;
import dev.javelin.backend.optim.AdamWConfig;
import dev.javelin.backend.optim.LrSchedule;
import dev.javelin.grpo.ActorLossConfig;
import dev.javelin.grpo.PolicyLossConfig;
import dev.javelin.trainer.Trainer;
import dev.javelin.trainer.TrainerConfig;
import dev.javelin.trainer.engine.PpoUpdater;
import dev.javelin.trainer.engine.ThreadGangTrainer;
import dev.javelin.trainer.engine.UpdaterOptions;
import dev.javelin.weightsync.SnapshotContent;
import dev.javelin.weightsync.WeightSnapshot;
import dev.javelin.weightsync.WireType;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.Locale;

/**
 * A weight-sync snapshot of a real checkpoint made by one trainer process against a gang of {@code
 * ranks} thread ranks, each making its part (the driver puts the parts together): median seconds
 * per snapshot after warm-up, and the bytes each rank sends.
 *
 * <p>Usage: {@code GangSyncBench <model (.gguf or HF dir)> [ranks] [reps] [f32|bf16]}; see
 * bench/gang-sync.sh.
 */
public final class GangSyncBench {
  private GangSyncBench() {}

  public static void main(String[] args) throws Exception {
    Path model = Path.of(args[0]);
    if (!Files.exists(model)) {
      System.err.println("no model at " + model + " (a .gguf file or an HF checkpoint directory)");
      System.exit(2);
    }
    int ranks = args.length > 1 ? Integer.parseInt(args[1]) : 2;
    int reps = args.length > 2 ? Integer.parseInt(args[2]) : 7;
    WireType type = WireType.parse(args.length > 3 ? args[3] : "bf16");
    ModelCheckpoint init = ModelCheckpoint.load(model);
    TrainerConfig cfg =
        TrainerConfig.of(
            8,
            8,
            1.0,
            AdamWConfig.defaults(),
            new LrSchedule.Constant(1e-6),
            ActorLossConfig.of(PolicyLossConfig.defaults()));
    double[] one;
    long whole;
    try (PpoUpdater t =
        PpoUpdater.owning(Devices.open("cpu"), init, cfg, UpdaterOptions.defaults())) {
      one = time(t, type, reps);
      whole = t.snapshot(0, type, SnapshotContent.WEIGHTS).byteSize();
    }
    double[] gang;
    try (ThreadGangTrainer g =
        ThreadGangTrainer.start(ranks, Duration.ofMinutes(5), gg -> rank(init, cfg, gg))) {
      gang = time(g, type, reps);
    }
    System.out.printf(
        Locale.ROOT,
        "%s: %,d params, snapshot %s %,d B; %d reps after 2 warm-up, %d cores%n",
        model.getFileName(),
        init.config().parameterCount(),
        type,
        whole,
        reps,
        Runtime.getRuntime().availableProcessors());
    System.out.printf(
        Locale.ROOT, "one process      median %.3f s, sends %,d B%n", median(one), whole);
    System.out.printf(
        Locale.ROOT,
        "gang of %d ranks  median %.3f s (parts made at once, put together), each rank sends ~%,d B%n",
        ranks,
        median(gang),
        whole / ranks);
  }

  private static PpoUpdater rank(ModelCheckpoint init, TrainerConfig cfg, Gang g) {
    return PpoUpdater.owning(Devices.open("cpu"), init, cfg, UpdaterOptions.defaults().withGang(g));
  }

  private static double[] time(Trainer t, WireType type, int reps) {
    double[] s = new double[reps];
    for (int i = -2; i < reps; i++) {
      long t0 = System.nanoTime();
      WeightSnapshot snap = t.snapshot(i + 3, type, SnapshotContent.WEIGHTS);
      long t1 = System.nanoTime();
      if (snap.byteSize() == 0) {
        throw new IllegalStateException("empty snapshot");
      }
      if (i >= 0) {
        s[i] = (t1 - t0) / 1e9;
      }
    }
    return s;
  }

  private static double median(double[] xs) {
    double[] s = xs.clone();
    Arrays.sort(s);
    return s[s.length / 2];
  }
}
