package dev.javelin.backend.bench;

import dev.javelin.backend.DType;
import java.util.Arrays;

/** Command-line options of {@link ModelBenchmark}. */
record BenchArgs(
    String device,
    String config,
    String task,
    DType dtype,
    int batch,
    int seq,
    int prompt,
    int newTokens,
    int iters,
    int lora,
    String mesh) {

  BenchArgs {
    if (!config.equals("tiny") && !config.equals("small") && !config.equals("smollm2")) {
      throw new IllegalArgumentException("--config must be tiny, small or smollm2, got " + config);
    }
    if (!task.equals("train") && !task.equals("decode")) {
      throw new IllegalArgumentException("--task must be train or decode, got " + task);
    }
    if (lora < -1) {
      throw new IllegalArgumentException("--lora must be a rank >= 0 (0: full fine-tuning)");
    }
    if (batch < 1 || seq < 2 || prompt < 1 || newTokens < 1 || iters < 1) {
      throw new IllegalArgumentException("batch, seq, prompt, new and iters must be positive");
    }
  }

  static BenchArgs parse(String[] argv) {
    String device = "cpu";
    String config = "tiny";
    String task = "train";
    String dtype = "f32";
    String mesh = "";
    int[] n = {64, 128, 16, 64, 3, -1};
    String[] keys = {"--batch", "--seq", "--prompt", "--new", "--iters", "--lora"};
    for (int i = 0; i + 1 < argv.length; i += 2) {
      String k = argv[i];
      String v = argv[i + 1];
      switch (k) {
        case "--device" -> device = v;
        case "--config" -> config = v;
        case "--task" -> task = v;
        case "--dtype" -> dtype = v;
        case "--mesh" -> mesh = v;
        default -> {
          int idx = Arrays.asList(keys).indexOf(k);
          if (idx < 0) {
            throw new IllegalArgumentException("unknown option " + k);
          }
          n[idx] = Integer.parseInt(v);
        }
      }
    }
    DType type =
        switch (dtype) {
          case "f32" -> DType.F32;
          case "bf16" -> DType.BF16;
          default ->
              throw new IllegalArgumentException("--dtype must be f32 or bf16, got " + dtype);
        };
    return new BenchArgs(device, config, task, type, n[0], n[1], n[2], n[3], n[4], n[5], mesh);
  }
}
