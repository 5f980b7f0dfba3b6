package dev.javelin.backend.xla;

import dev.javelin.backend.Donation;
import dev.javelin.backend.graph.Node;
import dev.javelin.backend.graph.Program;
import java.util.Map;
import java.util.TreeMap;

/**
 * Writes a {@link Donation} into StableHLO text: each donated argument of {@code @main} gets {@code
 * tf.aliasing_output}, the attribute XLA's StableHLO import turns into the module's input/output
 * alias config.
 */
final class AliasAnnotation {
  private AliasAnnotation() {}

  static String annotate(String moduleText, Program program, Donation donation) {
    if (donation.aliases().isEmpty()) {
      return moduleText;
    }
    int start = moduleText.indexOf("func.func public @main(");
    int end = moduleText.indexOf(") -> (", start);
    if (start < 0 || end < 0) {
      throw new IllegalStateException("unexpected StableHLO header in " + program.name());
    }
    String header = moduleText.substring(start, end);
    for (Map.Entry<Integer, Integer> e : new TreeMap<>(donation.aliases()).entrySet()) {
      Node p = program.parameters().get(e.getKey());
      String arg = "%arg" + e.getKey() + ": " + p.shape().mlirType(p.dtype());
      String alias = "tf.aliasing_output = " + e.getValue() + " : i32";
      int at = header.indexOf(arg + " {");
      if (at >= 0) { // the argument already has attributes (a sharding): add to them
        int cut = at + arg.length() + 2;
        header = header.substring(0, cut) + alias + ", " + header.substring(cut);
        continue;
      }
      at = header.indexOf(arg + ",");
      if (at < 0 && header.endsWith(arg)) {
        at = header.length() - arg.length();
      }
      if (at < 0) {
        throw new IllegalStateException(
            "cannot find " + arg + " in the header of " + program.name());
      }
      int cut = at + arg.length();
      header = header.substring(0, cut) + " {" + alias + "}" + header.substring(cut);
    }
    return moduleText.substring(0, start) + header + moduleText.substring(end);
  }
}
