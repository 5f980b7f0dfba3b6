package dev.javelin.backend.cpu;

import dev.javelin.backend.DType;
import dev.javelin.backend.graph.Node;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Where each materialised value lives: the caller's argument, a fresh output array, or one of a
 * small set of slots reused across the program (liveness analysis, best-fit by capacity), taken
 * from the device's bounded array pool for each run and given back after it. A {@code
 * dynamic_update_slice} (or slot write) whose operand dies at it takes over the operand's slot and
 * skips the copy; one whose result is an output aliased to a donated argument that dies there
 * writes into that argument's array (a decode step's KV cache, updated in place).
 */
final class BufferPlan {

  /** Storage kinds. */
  enum Kind {
    NONE,
    EXTERNAL,
    OUTPUT,
    SLOT,
    ALIAS
  }

  final Kind[] kinds;
  final int[] slotOf;

  /** Per value: the donated parameter value whose array an output takes over, else -1. */
  final int[] reusesArgument;

  final List<DType> slotTypes = new ArrayList<>();
  final List<Integer> slotSizes = new ArrayList<>();

  /**
   * @param donated output value to the parameter value it may overwrite
   */
  BufferPlan(
      List<Node> nodes,
      Fusion fusion,
      List<Kernel> kernels,
      Set<Integer> outputs,
      Map<Integer, Integer> donated) {
    int n = nodes.size();
    reusesArgument = new int[n];
    Arrays.fill(reusesArgument, -1);
    kinds = new Kind[n];
    slotOf = new int[n];
    Arrays.fill(slotOf, -1);
    int[] owner = new int[n];
    for (int v = 0; v < n; v++) {
      owner[v] = v;
      kinds[v] =
          switch (fusion.role(nodes.get(v))) {
            case EXTERNAL -> Kind.EXTERNAL;
            case ALIAS -> Kind.ALIAS;
            case ROOT -> outputs.contains(v) ? Kind.OUTPUT : Kind.SLOT;
            case INLINE, LEAF -> Kind.NONE;
          };
    }
    int[] lastUse = new int[n];
    Arrays.fill(lastUse, -1);
    for (int k = 0; k < kernels.size(); k++) {
      Kernel kernel = kernels.get(k);
      int w = kernel.writes();
      if (kernel instanceof LayoutKernels.Alias a) {
        owner[w] = owner[a.source()];
      }
      lastUse[owner[w]] = Math.max(lastUse[owner[w]], k);
      for (int r : kernel.reads()) {
        lastUse[owner[r]] = Math.max(lastUse[owner[r]], k);
      }
    }
    assignSlots(nodes, kernels, owner, lastUse);
    for (int k = 0; k < kernels.size(); k++) {
      Kernel kernel = kernels.get(k);
      int w = kernel.writes();
      int operand = updatedOperand(kernel);
      Integer param = donated.get(w);
      if (operand >= 0
          && param != null
          && kinds[w] == Kind.OUTPUT
          && owner[operand] == param
          && lastUse[param] == k
          && !readsOtherwise(kernel, owner, param)) {
        reusesArgument[w] = param;
      }
    }
  }

  private void assignSlots(List<Node> nodes, List<Kernel> kernels, int[] owner, int[] lastUse) {
    List<Integer> free = new ArrayList<>();
    for (int k = 0; k < kernels.size(); k++) {
      Kernel kernel = kernels.get(k);
      int w = kernel.writes();
      Integer taken = null;
      if (kinds[w] == Kind.SLOT) {
        Node node = nodes.get(w);
        int size = node.shape().intSize();
        int operand = updatedOperand(kernel);
        if (operand >= 0
            && kinds[owner[operand]] == Kind.SLOT
            && lastUse[owner[operand]] == k
            && !readsOtherwise(kernel, owner, owner[operand])) {
          // The operand dies here: update it in place instead of copying it.
          taken = owner[operand];
          slotOf[w] = slotOf[taken];
        } else {
          slotOf[w] = pick(free, node.dtype(), size);
        }
      }
      for (int v = 0; v < owner.length; v++) {
        if (owner[v] == v && lastUse[v] == k && kinds[v] == Kind.SLOT && slotOf[v] >= 0) {
          if (taken == null || v != taken) {
            free.add(slotOf[v]);
          }
        }
      }
    }
  }

  /** The operand a kernel rewrites a part of (it may take over its slot), or -1. */
  private static int updatedOperand(Kernel kernel) {
    if (kernel instanceof IndexKernels.DynamicUpdateSlice d && d.constantOperand().isEmpty()) {
      return d.operand();
    } else if (kernel instanceof IndexKernels.UpdateSlots u) {
      return u.operand();
    }
    return -1;
  }

  /** Whether the kernel reads the storage {@code base} through anything but its first input. */
  private static boolean readsOtherwise(Kernel kernel, int[] owner, int base) {
    int[] reads = kernel.reads();
    for (int i = 1; i < reads.length; i++) {
      if (owner[reads[i]] == base) {
        return true;
      }
    }
    return false;
  }

  /**
   * Best fit: the smallest free slot of the type that holds size without wasting more than half of
   * it; else a new slot. Never grows a slot: a grown slot keeps its new size for the whole run, and
   * growing small slots into large ones held several times the live peak (1.7 GB of slots for a
   * 0.43 GB live peak in a rematerialised train step).
   */
  private int pick(List<Integer> free, DType dtype, int size) {
    int best = -1;
    for (int s : free) {
      int cap = slotSizes.get(s);
      if (slotTypes.get(s) == dtype
          && cap >= size
          && cap / 2 <= size
          && (best < 0 || cap < slotSizes.get(best))) {
        best = s;
      }
    }
    if (best >= 0) {
      free.remove(Integer.valueOf(best));
      return best;
    }
    slotTypes.add(dtype);
    slotSizes.add(size);
    return slotTypes.size() - 1;
  }

  /** Total elements held in slots, for diagnostics. */
  long slotElements() {
    long sum = 0;
    for (int s : slotSizes) {
      sum += s;
    }
    return sum;
  }
}
