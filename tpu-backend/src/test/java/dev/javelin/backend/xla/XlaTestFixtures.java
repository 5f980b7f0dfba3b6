package dev.javelin.backend.xla;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.javelin.backend.Devices;
import dev.javelin.backend.batch.TokenLogProbs;
import dev.javelin.backend.runtime.PolicyOptimizer;
import dev.javelin.backend.testing.MeanNll;
import java.nio.file.Files;
import java.nio.file.Path;

/** What the xla:cpu model tests share: the committed checkpoint and a plain token-mean loss. */
final class XlaTestFixtures {
  private XlaTestFixtures() {}

  /** An xla:cpu device over a client of four devices (the SPMD tests' mesh), compiles cached. */
  static XlaDevice openFourDevices() {
    System.setProperty(CompileCache.PROPERTY, Path.of("target", "xla-cache").toString());
    System.setProperty(PjrtClient.CPU_DEVICES_PROPERTY, "4");
    return (XlaDevice) Devices.open("xla:cpu");
  }

  /** Closes {@code xla} and gives later tests back the one-device client. */
  static void closeFourDevices(XlaDevice xla) {
    xla.close();
    System.clearProperty(PjrtClient.CPU_DEVICES_PROPERTY);
  }

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
