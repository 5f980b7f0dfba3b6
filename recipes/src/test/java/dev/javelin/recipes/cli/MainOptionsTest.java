package dev.javelin.recipes.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.javelin.recipes.config.ConfigException;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The option shorthands of run, eval and sft, and the options reader of the cluster commands. */
class MainOptionsTest {
  @Test
  void rayAddressAndDeviceBecomeKeys() {
    assertEquals(
        List.of(
            "a=1",
            "trainer.ray=cluster",
            "trainer.ray_address=127.0.0.1:6379",
            "trainer.device=tpu",
            "trainer.ray=cluster",
            "trainer.ray_address=h:2"),
        Main.overrides(
            List.of(
                "a=1", "--ray-address", "127.0.0.1:6379", "--device=tpu", "--ray-address=h:2")));
    assertThrows(ConfigException.class, () -> Main.overrides(List.of("--ray-address")));
    assertThrows(ConfigException.class, () -> Main.overrides(List.of("--address", "x")));
  }

  @Test
  void optionsAreTakenOutAndLeftoversNamed() {
    CliOptions o =
        new CliOptions("submit", List.of("--address", "u", "--no-wait", "r.yaml", "--samplers=2"));
    assertEquals("u", o.option("--address", "d"));
    assertEquals("d", o.option("--other", "d"));
    assertEquals(true, o.flag("--no-wait"));
    assertEquals(List.of("r.yaml", "--samplers=2"), o.positional("...", "--samplers"));
    CliOptions bad = new CliOptions("jobs", List.of("list", "--follw"));
    assertEquals(
        "jobs: unknown option --follw (--follow)",
        assertThrows(ConfigException.class, () -> bad.positional("--follow")).getMessage());
    assertThrows(
        ConfigException.class,
        () -> new CliOptions("x", List.of("--address")).option("--address", ""));
  }
}
