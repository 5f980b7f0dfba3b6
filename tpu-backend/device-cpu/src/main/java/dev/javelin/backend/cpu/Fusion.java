package dev.javelin.backend.cpu;

import dev.javelin.backend.graph.Node;
import dev.javelin.backend.graph.Op;
import dev.javelin.backend.graph.Program;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Decides which values of a program get their own array and which are computed inside a consumer's
 * loop. A value is inlined into its consumers' fused loop when every consumer reads it at the same
 * flat index and all consumers are in one fused group; constants, iotas and views (broadcast,
 * transpose, slice) are cheap enough to recompute inside every group that reads them. Everything
 * else (parameters, matrix products, reductions, data-dependent indexing, outputs) is materialised.
 */
final class Fusion {

  /** How a value is held. */
  enum Role {
    /** A program argument. */
    EXTERNAL,
    /** Materialised by its own kernel. */
    ROOT,
    /** A reshape sharing its materialised operand's array. */
    ALIAS,
    /** Computed inside the fused loop of its group root. */
    INLINE,
    /** Recomputed wherever read: constants, iotas, views. */
    LEAF
  }

  private final Program program;
  private final Map<Node, Integer> index = new HashMap<>();
  private final List<List<Node>> users = new ArrayList<>();
  private final Role[] roles;
  private final int[] group;

  Fusion(Program program) {
    this.program = program;
    List<Node> nodes = program.nodes();
    for (int i = 0; i < nodes.size(); i++) {
      index.put(nodes.get(i), i);
      users.add(new ArrayList<>());
    }
    for (Node n : nodes) {
      for (Node in : n.inputs()) {
        users.get(index(in)).add(n);
      }
    }
    roles = new Role[nodes.size()];
    group = new int[nodes.size()];
    Arrays.fill(group, -1);
    Set<Node> outputs = new HashSet<>(program.outputs());
    for (int i = nodes.size() - 1; i >= 0; i--) {
      roles[i] = decide(nodes.get(i), outputs.contains(nodes.get(i)));
      group[i] = roles[i] == Role.INLINE ? userGroup(nodes.get(i)) : i;
    }
    for (int i = 0; i < nodes.size(); i++) {
      Node n = nodes.get(i);
      if (roles[i] == Role.ROOT
          && n.op() instanceof Op.Reshape
          && !outputs.contains(n)
          && isMaterialised(n.input(0))) {
        roles[i] = Role.ALIAS;
      }
    }
  }

  int index(Node n) {
    Integer i = index.get(n);
    if (i == null) {
      throw new IllegalStateException("node " + n + " is not in program " + program.name());
    }
    return i;
  }

  Role role(Node n) {
    return roles[index(n)];
  }

  boolean isMaterialised(Node n) {
    Role r = role(n);
    return r == Role.EXTERNAL || r == Role.ROOT || r == Role.ALIAS;
  }

  /** Whether a reduce reads its operand at contiguous reduced dims, i.e. as (outer, R, inner). */
  static boolean contiguousReduce(Op.Reduce r) {
    int[] d = r.dims();
    for (int i = 1; i < d.length; i++) {
      if (d[i] != d[i - 1] + 1) {
        return false;
      }
    }
    return true;
  }

  private Role decide(Node n, boolean output) {
    Op op = n.op();
    if (op instanceof Op.Parameter) {
      return Role.EXTERNAL;
    }
    if (output || !fusible(op)) {
      return Role.ROOT;
    }
    List<Node> us = users.get(index(n));
    if (op instanceof Op.Constant) {
      for (Node u : us) {
        boolean cheap = use(u) == Use.SAME_INDEX || use(u) == Use.VIEW_OP || isFilledBase(n, u);
        if (!cheap) {
          return Role.ROOT;
        }
      }
      return Role.LEAF;
    }
    if (op instanceof Op.Iota) {
      return allUsers(us, Use.SAME_INDEX) ? Role.LEAF : Role.ROOT;
    }
    if (isView(op)) {
      // A strided reader needs a stored base; a view of a constant has none.
      return allUsers(us, Use.SAME_INDEX, Use.VIEW_OP)
              || (allUsers(us, Use.SAME_INDEX, Use.VIEW_OP, Use.STRIDED) && !constantBased(n))
          ? Role.LEAF
          : Role.ROOT;
    }
    // Elementwise or reshape: inline when all users are one fused group reading the same index.
    return allUsers(us, Use.SAME_INDEX) && userGroup(n) >= 0 ? Role.INLINE : Role.ROOT;
  }

  /** u is a dynamic_update_slice of n, which it fills instead of copying. */
  private static boolean isFilledBase(Node n, Node u) {
    return u.op() instanceof Op.DynamicUpdateSlice
        && u.input(0) == n
        && !u.inputs().subList(1, u.inputs().size()).contains(n);
  }

  private static boolean constantBased(Node n) {
    Node x = n;
    while (isView(x.op())) {
      x = x.input(0);
    }
    return x.op() instanceof Op.Constant;
  }

  /** The single group of n's users, or -1 when they span several. */
  private int userGroup(Node n) {
    int g = -1;
    for (Node u : users.get(index(n))) {
      int ug = group[index(u)];
      if (g != -1 && ug != g) {
        return -1;
      }
      g = ug;
    }
    return g;
  }

  /** How a user reads an operand. */
  private enum Use {
    /** Element i of the user reads element i of the operand (same flat index space). */
    SAME_INDEX,
    /** A broadcast, transpose or slice: an affine read, composable with other views. */
    VIEW_OP,
    /** A matrix product or non-contiguous reduce: reads any strided view of a stored array. */
    STRIDED,
    /** Needs a contiguous stored array. */
    STORED
  }

  private static Use use(Node user) {
    Op op = user.op();
    if (op instanceof Op.Reduce r) {
      return contiguousReduce(r) ? Use.SAME_INDEX : Use.STRIDED;
    }
    if (op instanceof Op.DotGeneral) {
      return Use.STRIDED;
    }
    if (isView(op)) {
      return Use.VIEW_OP;
    }
    return isElementwise(op) || op instanceof Op.Reshape ? Use.SAME_INDEX : Use.STORED;
  }

  private static boolean allUsers(List<Node> us, Use... allowed) {
    for (Node u : us) {
      if (!Arrays.asList(allowed).contains(use(u))) {
        return false;
      }
    }
    return true;
  }

  static boolean isElementwise(Op op) {
    return op instanceof Op.Unary
        || op instanceof Op.Binary
        || op instanceof Op.Compare
        || op instanceof Op.Select
        || op instanceof Op.Convert;
  }

  static boolean isView(Op op) {
    return op instanceof Op.BroadcastInDim || op instanceof Op.Transpose || op instanceof Op.Slice;
  }

  private static boolean fusible(Op op) {
    return isElementwise(op)
        || isView(op)
        || op instanceof Op.Reshape
        || op instanceof Op.Constant
        || op instanceof Op.Iota;
  }
}
