package dev.javelin.recipes.ray;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.javelin.recipes.config.ConfigException;
import dev.javelin.recipes.config.Recipes;
import dev.javelin.recipes.config.TrainerSection;
import java.net.ServerSocket;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The cluster address, the worker JVM options and each actor's resources. */
class ClusterSettingsTest {

  private static TrainerSection trainer(String... overrides) {
    return Recipes.load("recipes/arith-grpo.yaml", List.of(overrides)).trainer();
  }

  @Test
  void theAddressIsTheHeadsGcsAddressNotTheDashboard() {
    assertEquals(
        "127.0.0.1:6379",
        RayRuntime.address(trainer("trainer.ray=cluster", "trainer.ray_address= 127.0.0.1:6379")));
    ConfigException url =
        assertThrows(
            ConfigException.class,
            () ->
                RayRuntime.address(
                    trainer("trainer.ray=cluster", "trainer.ray_address=http://127.0.0.1:8265")));
    assertTrue(url.getMessage().startsWith("trainer.ray_address: "), url.getMessage());
    assertTrue(url.getMessage().contains("not the dashboard"), url.getMessage());
  }

  @Test
  void aHeadThatDoesNotAnswerIsReportedAtOnceWithWhatToDo() throws Exception {
    int port;
    try (ServerSocket free = new ServerSocket(0)) {
      port = free.getLocalPort(); // closed again: nothing listens there now
    }
    long start = System.nanoTime();
    ConfigException e =
        assertThrows(ConfigException.class, () -> RayRuntime.requireReachable("127.0.0.1:" + port));
    assertTrue(System.nanoTime() - start < 10_000_000_000L, "took longer than 10 s");
    assertTrue(e.getMessage().contains("tools/setup/ray-cluster.sh start"), e.getMessage());
    try (ServerSocket open = new ServerSocket(0)) {
      RayRuntime.requireReachable("127.0.0.1:" + open.getLocalPort()); // listening: no error
    }
    assertThrows(ConfigException.class, () -> RayRuntime.requireReachable("127.0.0.1:http"));
  }

  @Test
  void withoutAnAddressItFallsBackToRayAddressOrSaysWhatToSet() {
    String env = System.getenv("RAY_ADDRESS");
    TrainerSection t = trainer("trainer.ray=cluster");
    if (env == null || env.isBlank()) {
      ConfigException e = assertThrows(ConfigException.class, () -> RayRuntime.address(t));
      assertTrue(e.getMessage().contains("--ray-address"), e.getMessage());
      assertTrue(e.getMessage().contains("RAY_ADDRESS"), e.getMessage());
    } else {
      assertEquals(env.strip(), RayRuntime.address(t));
    }
  }

  @Test
  void workerJvmsGetTheOpensRayNeedsAndAHeap() {
    List<String> options = RayRuntime.workerJvmOptions();
    assertTrue(options.contains("--add-opens=java.base/java.nio=ALL-UNNAMED"), options.toString());
    assertTrue(
        options.contains("--add-opens=java.base/sun.nio.ch=ALL-UNNAMED"), options.toString());
    assertTrue(options.get(options.size() - 1).startsWith("-Xmx"), options.toString());
  }

  @Test
  void actorsAskForACpuPlusTheirAccelerator() {
    assertEquals(Map.of("CPU", 1.0), Placement.resourcesFor("cpu"));
    assertEquals(Map.of("CPU", 1.0), Placement.resourcesFor("xla:cpu"));
    assertEquals(Map.of("CPU", 1.0, "GPU", 1.0), Placement.resourcesFor("xla:gpu"));
    assertEquals(Map.of("CPU", 1.0, "TPU", 1.0), Placement.resourcesFor("tpu"));
  }
}
