package dev.javelin.backend.xla;

import java.util.Locale;

/**
 * A named TPU slice to compile for without its chips: a Cloud TPU slice name ({@code v5e-8}, {@code
 * v6e-8}, {@code v5p-8}, multi-host {@code v5e-16}) or libtpu's own form ({@code v5e:2x4}, {@code
 * v5p:2x2x1}).
 *
 * @param name the name as given
 * @param pjrtName libtpu's topology name ({@code v5e:2x4})
 * @param chip the chip generation's figures
 * @param chips the slice's chip count
 */
public record TpuTopology(String name, String pjrtName, TpuChip chip, int chips) {
  private static final String FORM =
      "expected a TPU slice such as v5e-8, v6e-8, v5p-8, v5e-16 or a libtpu topology such as"
          + " v5e:2x4, v5p:2x2x1";

  public TpuTopology {
    if (chips < 1) {
      throw new IllegalArgumentException("topology " + name + " has no chips");
    }
  }

  /** Parses a slice or libtpu topology name; a bad one is one line naming it and the form. */
  public static TpuTopology parse(String name) {
    String n = name.trim().toLowerCase(Locale.ROOT);
    int colon = n.indexOf(':');
    int dash = n.lastIndexOf('-');
    if (colon > 0) {
      TpuChip chip = chip(name, n.substring(0, colon));
      String dims = n.substring(colon + 1);
      if (!dims.matches("[1-9][0-9]{0,3}(x[1-9][0-9]{0,3}){1,2}")) {
        throw bad(name, FORM);
      }
      int chips = 1;
      for (String d : dims.split("x", -1)) {
        chips = Math.multiplyExact(chips, Integer.parseInt(d));
      }
      return new TpuTopology(name, n, chip, chips);
    }
    if (dash > 0 && n.substring(dash + 1).matches("[1-9][0-9]{0,4}")) {
      TpuChip chip = chip(name, n.substring(0, dash));
      int units = Integer.parseInt(n.substring(dash + 1));
      if (units % chip.coresPerChip() != 0) {
        throw bad(name, chip.generation() + " slice sizes count TensorCores, two per chip");
      }
      int chips = units / chip.coresPerChip();
      return new TpuTopology(name, chip.generation() + ":" + grid(chip, chips, name), chip, chips);
    }
    throw bad(name, FORM);
  }

  /** The chip grid libtpu names for a slice of {@code chips}: 2-D for v5e/v6e, 3-D for v4/v5p. */
  private static String grid(TpuChip chip, int chips, String name) {
    boolean threeD = chip.coresPerChip() == 2;
    if (Integer.bitCount(chips) != 1) {
      throw bad(name, "slice sizes are powers of two; " + FORM);
    }
    int[] dims = threeD ? new int[] {1, 1, 1} : new int[] {1, 1};
    int axis = 0;
    for (int left = chips; left > 1; left /= 2) {
      dims[axis] *= 2;
      axis = (axis + 1) % dims.length;
    }
    // libtpu lists v5e/v6e hosts as 2x4 (rows x columns): the longer side last.
    if (!threeD && dims[0] > dims[1]) {
      dims = new int[] {dims[1], dims[0]};
    }
    StringBuilder s = new StringBuilder();
    for (int d : dims) {
      s.append(s.length() == 0 ? "" : "x").append(d);
    }
    return s.toString();
  }

  private static TpuChip chip(String name, String generation) {
    TpuChip chip = TpuChip.of(generation);
    if (chip == null) {
      throw bad(name, "unknown TPU generation '" + generation + "' (v4, v5e, v5p, v6e); " + FORM);
    }
    return chip;
  }

  private static IllegalArgumentException bad(String name, String why) {
    return new IllegalArgumentException("topology '" + name + "': " + why);
  }
}
