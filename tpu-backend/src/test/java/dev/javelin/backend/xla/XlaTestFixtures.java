package dev.javelin.backend.xla;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.javelin.backend.batch.TokenLogProbs;
import dev.javelin.backend.runtime.PolicyOptimizer;
import dev.javelin.backend.testing.MeanNll;
import java.nio.file.Files;
import java.nio.file.Path;

/** What the xla:cpu model tests share: the committed checkpoint and a plain token-mean loss. */
final class XlaTestFixtures {
  private XlaTestFixtures() {}

  /**
   * The committed qwen2-tiny checkpoint (failing when it is missing), with compiled programs cached
   * under target/ so reruns skip XLA compiles.
   */
  static Path qwen2Tiny() {
    System.setProperty(CompileCache.PROPERTY, Path.of("target", "xla-cache").toString());
    String root = System.getProperty("javelin.root", "..");
    Path checkpoint = Path.of(root, "tpu-backend", "src", "test", "resources", "hf", "qwen2-tiny");
    assertTrue(
        Files.isDirectory(checkpoint), "missing test checkpoint " + checkpoint.toAbsolutePath());
    return checkpoint;
  }

  /** Token-mean NLL over every position (rows are full length), no entropy term. */
  static PolicyOptimizer.Cotangents meanNll(int microBatch, TokenLogProbs stats) {
    return MeanNll.of(stats);
  }
}
