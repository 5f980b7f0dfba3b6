package dev.javelin.recipes.ray;

import dev.javelin.backend.xla.VisibleChips;
import io.ray.api.Ray;
import io.ray.api.runtimecontext.ResourceValue;
import io.ray.runtime.AbstractRayRuntime;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * Limits a cluster actor's process to the chips Ray granted its bundle, before the PJRT client
 * starts ({@link VisibleChips}): Ray's Java workers, unlike its Python ones, get no {@code
 * TPU_VISIBLE_CHIPS} or {@code CUDA_VISIBLE_DEVICES} from Ray, so a trainer and two samplers on one
 * TPU host would otherwise each open every chip. Ray's public Java API names only GPU ids; the
 * runtime's resource-id map has every resource.
 */
public final class GrantedChips {
  private GrantedChips() {}

  /**
   * In a cluster worker, shows {@code device}'s plugin only the chips granted to this actor; in
   * local mode or without Ray, does nothing (the device spec names the chips there).
   */
  public static void limit(String device) {
    if (!Ray.isInitialized() || Ray.getRuntimeContext().isLocalMode()) {
      return;
    }
    Optional<String> resource = Placement.accelerator(device);
    if (resource.isEmpty()) {
      return;
    }
    Map<String, List<ResourceValue>> granted =
        ((AbstractRayRuntime) Ray.internal()).getAvailableResourceIds();
    List<Integer> ids = ids(resource.get(), granted);
    if (ids.isEmpty()) {
      throw new IllegalStateException(
          "Ray granted this "
              + device
              + " actor no "
              + resource.get()
              + " ids: "
              + granted.keySet());
    }
    VisibleChips.limitTo(device, ids);
  }

  /**
   * The ids of {@code resource} among Ray's granted resource ids: the plain name, or, in a
   * placement group, its wildcard {@code <resource>_group_<group id>} entry.
   */
  static List<Integer> ids(String resource, Map<String, List<ResourceValue>> granted) {
    Pattern group = Pattern.compile(Pattern.quote(resource) + "_group_[0-9A-Za-z]+");
    List<ResourceValue> values = granted.get(resource);
    if (values == null) {
      values =
          granted.entrySet().stream()
              .filter(e -> group.matcher(e.getKey()).matches())
              .map(Map.Entry::getValue)
              .findFirst()
              .orElse(List.of());
    }
    List<Integer> ids = new ArrayList<>();
    values.forEach(v -> ids.add(v.resourceId.intValue()));
    return ids.stream().distinct().sorted().toList();
  }
}
