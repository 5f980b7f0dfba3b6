package dev.javelin.backend.xla;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.logging.Logger;
import java.util.stream.Collectors;

/**
 * Limits this process to some of the host's chips before its PJRT client starts, the way a cluster
 * worker that was granted chips {@code 4,5} of a host must: libtpu reads {@code TPU_VISIBLE_CHIPS}
 * with the process and per-process chip bounds, the CUDA plugin {@code CUDA_VISIBLE_DEVICES}. The
 * process then sees its chips as PJRT ids {@code 0..n-1}.
 */
public final class VisibleChips {
  private static final Logger LOG = Logger.getLogger(VisibleChips.class.getName());

  /** libtpu's per-process chip bounds (x,y,z) for the sub-host slices a v5e/v6e host can give. */
  private static final Map<Integer, String> TPU_BOUNDS =
      Map.of(1, "1,1,1", 2, "1,2,1", 4, "2,2,1", 8, "2,4,1");

  private VisibleChips() {}

  /**
   * The environment that shows {@code plugin} ({@code tpu}, {@code xla:gpu}; {@code xla:cpu} needs
   * none) only {@code chips}, the host-wide ids a scheduler granted.
   */
  public static Map<String, String> env(String plugin, List<Integer> chips) {
    if (chips.isEmpty()) {
      throw new IllegalArgumentException("no chips granted for " + plugin);
    }
    String ids = chips.stream().map(String::valueOf).collect(Collectors.joining(","));
    Map<String, String> env = new LinkedHashMap<>();
    switch (ChipSpec.pluginOf(plugin)) {
      case "tpu" -> {
        String bounds = TPU_BOUNDS.get(chips.size());
        if (bounds == null) {
          throw new IllegalArgumentException(
              chips.size()
                  + " TPU chips "
                  + chips
                  + " are not a slice libtpu can give one process; use 1, 2, 4 or 8 chips");
        }
        env.put("TPU_VISIBLE_CHIPS", ids);
        env.put("TPU_CHIPS_PER_PROCESS_BOUNDS", bounds);
        env.put("TPU_PROCESS_BOUNDS", "1,1,1");
      }
      case "xla:gpu" -> env.put("CUDA_VISIBLE_DEVICES", ids);
      default -> {
        // xla:cpu devices are threads of this process: nothing to hide
      }
    }
    return env;
  }

  /**
   * Sets {@link #env} in this process; fails when a PJRT client is already open, since a plugin
   * reads the limits only when its client starts.
   */
  public static void limitTo(String plugin, List<Integer> chips) {
    Map<String, String> env = env(plugin, chips);
    if (env.isEmpty()) {
      return;
    }
    if (PjrtClient.anyOpen()) {
      throw new IllegalStateException(
          "cannot limit " + plugin + " to chips " + chips + ": a PJRT client is already open");
    }
    PjrtNative.load()
        .ifPresent(
            why -> {
              throw new IllegalStateException(why);
            });
    env.forEach(PjrtNative::setenv);
    LOG.info(() -> "limited " + plugin + " to chips " + chips + ": " + env);
  }
}
