package dev.javelin.trainer;

import dev.javelin.backend.Devices;
import dev.javelin.trainer.engine.PpoUpdater;
import dev.javelin.trainer.engine.UpdaterOptions;
import java.nio.charset.StandardCharsets;

/**
 * A test {@link TrainerFactory}: spec {@code "<checkpoint seed>,<mini>,<micro>"} builds the micro
 * model with the KL config of {@link Fixtures}.
 */
public final class MicroTrainerFactory implements TrainerFactory {
  @Override
  public String name() {
    return "micro-test";
  }

  @Override
  public Trainer create(byte[] spec) {
    String[] p = new String(spec, StandardCharsets.UTF_8).split(",", -1);
    if (p.length != 3) {
      throw new IllegalArgumentException("spec must be seed,mini,micro");
    }
    return PpoUpdater.owning(
        Devices.open("cpu"),
        Fixtures.microCheckpoint(Long.parseLong(p[0])),
        Fixtures.klConfig(Integer.parseInt(p[1]), Integer.parseInt(p[2])),
        UpdaterOptions.defaults());
  }
}
