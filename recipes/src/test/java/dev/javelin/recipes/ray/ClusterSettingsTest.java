package dev.javelin.recipes.ray;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.javelin.recipes.config.ConfigException;
import dev.javelin.recipes.config.Recipes;
import dev.javelin.recipes.config.TrainerSection;
import io.ray.api.runtimecontext.ResourceValue;
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
    ClusterUnreachableException e =
        assertThrows(
            ClusterUnreachableException.class,
            () -> RayRuntime.requireReachable("127.0.0.1:" + port, "trainer.ray_address"));
    assertTrue(System.nanoTime() - start < 10_000_000_000L, "took longer than 10 s");
    assertTrue(e.getMessage().contains("tools/setup/ray-cluster.sh start"), e.getMessage());
    try (ServerSocket open = new ServerSocket(0)) {
      RayRuntime.requireReachable("127.0.0.1:" + open.getLocalPort(), "x"); // listening: no error
    }
    assertThrows(ConfigException.class, () -> RayRuntime.requireReachable("127.0.0.1:http", "x"));
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
    assertEquals(Map.of("CPU", 1.0), Placement.resourcesFor("cpu", 1));
    assertEquals(Map.of("CPU", 1.0), Placement.resourcesFor("xla:cpu", 1));
    assertEquals(Map.of("CPU", 1.0, "GPU", 1.0), Placement.resourcesFor("xla:gpu", 1));
    assertEquals(Map.of("CPU", 1.0, "TPU", 1.0), Placement.resourcesFor("tpu", 1));
    assertEquals(Map.of("CPU", 1.0, "TPU", 4.0), Placement.resourcesFor("tpu", 4));
  }

  @Test
  void grantedChipsComeFromRaysResourceIds() throws Exception {
    var ctor = ResourceValue.class.getDeclaredConstructor(long.class, double.class);
    ctor.setAccessible(true);
    ResourceValue five = ctor.newInstance(5L, 1.0);
    ResourceValue four = ctor.newInstance(4L, 1.0);
    assertEquals(
        List.of(4, 5),
        GrantedChips.ids("TPU", Map.of("TPU", List.of(five, four), "CPU", List.of())));
    assertEquals(
        List.of(4, 5),
        GrantedChips.ids(
            "TPU",
            Map.of("TPU_group_0_ab12", List.of(four), "TPU_group_ab12", List.of(five, four))),
        "in a placement group: the group's wildcard entry");
    assertEquals(List.of(), GrantedChips.ids("GPU", Map.of("TPU", List.of(four))));
  }
}
