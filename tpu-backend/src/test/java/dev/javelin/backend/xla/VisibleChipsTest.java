package dev.javelin.backend.xla;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The environment that limits a process to its granted chips, per plugin. */
class VisibleChipsTest {

  @Test
  void tpuSlicesGetVisibleChipsAndBounds() {
    assertEquals(
        Map.of(
            "TPU_VISIBLE_CHIPS", "4,5",
            "TPU_CHIPS_PER_PROCESS_BOUNDS", "1,2,1",
            "TPU_PROCESS_BOUNDS", "1,1,1"),
        VisibleChips.env("tpu", List.of(4, 5)));
    assertEquals("1,1,1", VisibleChips.env("tpu", List.of(7)).get("TPU_CHIPS_PER_PROCESS_BOUNDS"));
    Map<String, String> four = VisibleChips.env("tpu", List.of(0, 1, 2, 3));
    assertEquals("0,1,2,3", four.get("TPU_VISIBLE_CHIPS"));
    assertEquals("2,2,1", four.get("TPU_CHIPS_PER_PROCESS_BOUNDS"));
    assertEquals(
        "2,4,1",
        VisibleChips.env("tpu", List.of(0, 1, 2, 3, 4, 5, 6, 7))
            .get("TPU_CHIPS_PER_PROCESS_BOUNDS"));
  }

  @Test
  void aTpuChipCountWithoutASliceIsRefused() {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class, () -> VisibleChips.env("tpu", List.of(0, 1, 2)));
    assertTrue(e.getMessage().contains("use 1, 2, 4 or 8 chips"), e.getMessage());
  }

  @Test
  void gpusGetCudaVisibleDevicesAndCpuNothing() {
    assertEquals(Map.of("CUDA_VISIBLE_DEVICES", "2,3"), VisibleChips.env("xla:gpu", List.of(2, 3)));
    assertEquals(Map.of(), VisibleChips.env("xla:cpu", List.of(1)));
    assertThrows(IllegalArgumentException.class, () -> VisibleChips.env("tpu", List.of()));
  }

  @Test
  void limitsAreRefusedOnceAClientIsOpen() {
    try (XlaDevice d = (XlaDevice) dev.javelin.backend.Devices.open("xla:cpu")) {
      IllegalStateException e =
          assertThrows(
              IllegalStateException.class, () -> VisibleChips.limitTo("xla:gpu", List.of(1)));
      assertTrue(e.getMessage().contains("already open"), e.getMessage());
      assertTrue(d.chips().size() >= 1);
    }
  }
}
