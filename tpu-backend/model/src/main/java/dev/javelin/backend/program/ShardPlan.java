package dev.javelin.backend.program;

import static dev.javelin.backend.spmd.MeshShape.DP;
import static dev.javelin.backend.spmd.MeshShape.FSDP;
import static dev.javelin.backend.spmd.MeshShape.TP;

import dev.javelin.backend.Shape;
import dev.javelin.backend.graph.Node;
import dev.javelin.backend.graph.Op;
import dev.javelin.backend.graph.Program;
import dev.javelin.backend.model.Architecture;
import dev.javelin.backend.model.Architecture.TpSplit;
import dev.javelin.backend.model.ModelConfig;
import dev.javelin.backend.model.WeightSpec;
import dev.javelin.backend.optim.OptimizerPrograms;
import dev.javelin.backend.spmd.Mesh;
import dev.javelin.backend.spmd.MeshShape;
import dev.javelin.backend.spmd.ProgramSharding;
import dev.javelin.backend.spmd.Sharding;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Where every value of a model's programs lies on a mesh whose axes are among {@value
 * MeshShape#DP}, {@value MeshShape#FSDP} and {@value MeshShape#TP}, chosen by what the value is,
 * from its program name:
 *
 * <ul>
 *   <li>Weights (HF names): {@code fsdp} splits each weight on its first dimension that divides
 *       evenly (replicated over fsdp if none does). Under {@code tp} each block tensor splits as
 *       its {@link Architecture} says (Megatron layout: q/k/v/gate/up and the q/k/v biases their
 *       out dimension, o_proj/down_proj their in dimension); fsdp then takes another dimension. The
 *       embedding and the LM head split their vocabulary rows over {@code tp} where it divides the
 *       vocabulary and they are two arrays (vocabulary-parallel; the partitioner reduces the
 *       gathered rows and the softmax over the split; a tied table stays whole); norms follow fsdp
 *       only.
 *   <li>AdamW moments {@code m.w}, {@code v.w}, gradients {@code grad.w} and gradient sums {@code
 *       acc.w} lie like their weight {@code w}.
 *   <li>KV caches (B, Hkv, S, Dh): heads over {@code tp}, rows over the batch axis.
 *   <li>Rope tables, temperature, lr and step: replicated.
 *   <li>{@value #STACKED_ACTIVATIONS} (a loop's batch-major values stacked per iteration, (n, B,
 *       ...), as a split train step's residuals): dimension 1 over the batch axis, so each chip
 *       holds its own rows of every iteration.
 *   <li>Anything else (token ids, positions, masks, per-token loss inputs and outputs, residuals,
 *       logits): dimension 0 over the batch axis when it divides evenly, else replicated; scalars
 *       replicated.
 * </ul>
 *
 * The batch axis is {@code fsdp} or {@code dp}, whichever the mesh has (not both). Because the
 * layout depends only on the name and shape, a value keeps its layout from the program that
 * produces it to the one that consumes it.
 */
public final class ShardPlan {
  /** The role of a loop's batch-major values stacked per iteration (n, B, ...). */
  public static final String STACKED_ACTIVATIONS = "stacked activations";

  private static final Set<String> AXES = Set.of(DP, FSDP, TP);
  private static final Set<String> REPLICATED =
      Set.of(
          ModelPrograms.ROPE_COS,
          ModelPrograms.ROPE_SIN,
          ModelPrograms.TEMPERATURE,
          OptimizerPrograms.LR,
          OptimizerPrograms.STEP);
  private static final List<String> STATE_PREFIXES = List.of("m.", "v.", "grad.", "acc.");
  private static final List<String> CACHE_PREFIXES =
      List.of("cache.k.", "cache.v.", "fresh.k.", "fresh.v.");

  private final Mesh mesh;
  private final int fsdp;
  private final int tp;
  private final String batchAxis; // null: no axis splits the batch
  private final Map<String, Sharding> weights = new HashMap<>();

  private ShardPlan(Mesh mesh, ModelConfig config) {
    this.mesh = mesh;
    for (Mesh.Axis a : mesh.axes()) {
      if (!AXES.contains(a.name())) {
        throw new IllegalArgumentException(
            "mesh axis '" + a.name() + "' of " + mesh + " is not one of dp, fsdp, tp");
      }
    }
    this.fsdp = size(FSDP);
    this.tp = size(TP);
    int dp = size(DP);
    if (dp > 1 && fsdp > 1) {
      throw new IllegalArgumentException(
          "mesh "
              + mesh
              + " has both dp and fsdp: use fsdp alone (it splits the batch as well as the"
              + " weights)");
    }
    this.batchAxis = fsdp > 1 ? FSDP : dp > 1 ? DP : null;
    if (tp > 1) {
      checkTp("attention heads", config.heads());
      checkTp("key/value heads", config.kvHeads());
      checkTp("MLP intermediate size", config.intermediate());
    }
    Map<String, TpSplit> splits = new HashMap<>();
    for (int i = 0; i < config.layers(); i++) {
      for (Architecture.LayerTensor t : config.architecture().layerTensors(config, i)) {
        splits.put(WeightSpec.layer(i, t.suffix()), t.tp());
      }
    }
    if (tp > 1 && config.vocabSize() % tp == 0 && !config.tieWordEmbeddings()) {
      // vocabulary-parallel: each chip holds V/tp rows of the embedding and the head, not all.
      // A tied table, one array both looked up and multiplied, stays whole: split, libtpu's
      // Qwen2.5-0.5B tp=2 prefill and decode held 3.7 and 4.5 GiB more temporaries per chip.
      splits.put(WeightSpec.EMBED, TpSplit.COLUMN);
      splits.put(WeightSpec.LM_HEAD, TpSplit.COLUMN);
    }
    for (WeightSpec s : WeightSpec.layout(config)) {
      weights.put(s.name(), weightSharding(s, splits.getOrDefault(s.name(), TpSplit.NONE)));
    }
  }

  /**
   * The plan of {@code config}'s programs on {@code mesh}. Fails with a message naming the axis and
   * what does not divide: tensor parallelism needs the heads, key/value heads and MLP size to split
   * evenly.
   */
  public static ShardPlan of(Mesh mesh, ModelConfig config) {
    return new ShardPlan(mesh, config);
  }

  public Mesh mesh() {
    return mesh;
  }

  /** The layout of the value a program names {@code name}, of shape {@code shape}. */
  public Sharding of(String name, Shape shape) {
    if (REPLICATED.contains(name) || shape.rank() == 0) {
      return Sharding.replicated();
    }
    if (name.equals(STACKED_ACTIVATIONS)) {
      return batchAt(shape, 1);
    }
    Sharding w = weights.get(stripState(name));
    if (w != null) {
      return w;
    }
    for (String prefix : CACHE_PREFIXES) {
      if (name.startsWith(prefix)) {
        return cache(shape);
      }
    }
    return batch(shape);
  }

  /**
   * {@code program}'s layout: parameters by their names, output {@code i} as the value named {@code
   * outputNames.get(i)} (a null entry, or an entry past the list's end, lies as "anything else").
   */
  public ProgramSharding program(Program program, List<String> outputNames) {
    return program(program, outputNames, Map.of());
  }

  /**
   * As above, a parameter named {@code p} lying as the value {@code parameterRoles.get(p)} where
   * the map has it (a null role: as "anything else"). A VJP backward's {@code residual.k}
   * parameters name this way the forward argument or result they carry.
   */
  public ProgramSharding program(
      Program program, List<String> outputNames, Map<String, String> parameterRoles) {
    List<Sharding> params = new ArrayList<>();
    for (Node p : program.parameters()) {
      String name = ((Op.Parameter) p.op()).name();
      String role = parameterRoles.containsKey(name) ? parameterRoles.get(name) : name;
      params.add(role == null ? batch(p.shape()) : of(role, p.shape()));
    }
    List<Sharding> outs = new ArrayList<>();
    List<Node> outputs = program.outputs();
    for (int i = 0; i < outputs.size(); i++) {
      String name = i < outputNames.size() ? outputNames.get(i) : null;
      Shape s = outputs.get(i).shape();
      outs.add(name == null ? batch(s) : of(name, s));
    }
    return new ProgramSharding(mesh, params, outs, batchAxis);
  }

  /** Output names of a program whose outputs are the KV caches, per layer key then value. */
  public static List<String> cacheNames(ModelConfig c) {
    List<String> out = new ArrayList<>();
    for (int i = 0; i < c.layers(); i++) {
      out.add(ModelPrograms.cacheKey(i));
      out.add(ModelPrograms.cacheValue(i));
    }
    return out;
  }

  /** {@code lead} unnamed outputs (losses, norms, logits, masks) followed by {@code names}. */
  public static List<String> after(int lead, List<String> names) {
    List<String> out = new ArrayList<>();
    for (int i = 0; i < lead; i++) {
      out.add(null);
    }
    out.addAll(names);
    return out;
  }

  /** Output names of an AdamW update: the weights, then their m, then their v. */
  public static List<String> updateNames(List<String> weights) {
    List<String> out = new ArrayList<>(weights);
    weights.forEach(w -> out.add(OptimizerPrograms.firstMoment(w)));
    weights.forEach(w -> out.add(OptimizerPrograms.secondMoment(w)));
    return out;
  }

  private Sharding weightSharding(WeightSpec s, TpSplit tpSplit) {
    Shape shape = s.shape();
    int tpDim =
        switch (tpSplit) {
          case COLUMN -> 0;
          case ROW -> 1;
          case NONE -> -1;
        };
    Sharding.Split split = tp > 1 && tpDim >= 0 ? Sharding.split(tpDim, TP) : null;
    if (fsdp > 1) {
      for (int d = 0; d < shape.rank(); d++) {
        if (d != tpDim || split == null) {
          if (shape.dim(d) % fsdp == 0) {
            split = split == null ? Sharding.split(d, FSDP) : split.and(d, FSDP);
            break;
          }
        }
      }
    }
    return split == null ? Sharding.replicated() : split;
  }

  /** (B, Hkv, S, Dh): heads over tp, rows over the batch axis where they divide. */
  private Sharding cache(Shape shape) {
    Sharding rows = batch(shape);
    if (tp <= 1) {
      return rows;
    }
    return rows instanceof Sharding.Split s ? s.and(1, TP) : Sharding.split(1, TP);
  }

  private Sharding batch(Shape shape) {
    return batchAt(shape, 0);
  }

  /** Dimension {@code dim} over the batch axis where it divides evenly, else replicated. */
  private Sharding batchAt(Shape shape, int dim) {
    return ProgramSharding.batchSplit(mesh, batchAxis, shape, dim).orElse(Sharding.replicated());
  }

  private static String stripState(String name) {
    for (String prefix : STATE_PREFIXES) {
      if (name.startsWith(prefix)) {
        return name.substring(prefix.length());
      }
    }
    return name;
  }

  private void checkTp(String what, int n) {
    if (n % tp != 0) {
      throw new IllegalArgumentException(
          "tensor parallelism tp=" + tp + " needs the " + what + " (" + n + ") to divide by " + tp);
    }
  }

  private int size(String axis) {
    for (Mesh.Axis a : mesh.axes()) {
      if (a.name().equals(axis)) {
        return a.size();
      }
    }
    return 1;
  }
}
