package dev.javelin.backend.runtime;

import dev.javelin.backend.DType;
import dev.javelin.backend.Donation;
import dev.javelin.backend.Shape;
import dev.javelin.backend.graph.Program;
import dev.javelin.backend.graph.Remat;
import dev.javelin.backend.graph.VjpPrograms;
import dev.javelin.backend.model.LoraConfig;
import dev.javelin.backend.model.ModelConfig;
import dev.javelin.backend.model.WeightSpec;
import dev.javelin.backend.optim.AdamWConfig;
import dev.javelin.backend.optim.OptimizerPrograms;
import dev.javelin.backend.program.ModelPrograms;
import dev.javelin.backend.program.ShardPlan;
import dev.javelin.backend.program.SlotPrograms;
import dev.javelin.backend.program.TrainPrograms;
import dev.javelin.backend.spmd.Mesh;
import dev.javelin.backend.spmd.MeshShape;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;

/**
 * The programs an actor compiles, built without a device at given shapes and laid out on its mesh
 * as {@link Placement} lays them out: what {@code javelin plan} compiles for a TPU topology. The
 * trainer's are those {@link PolicyOptimizer#step} and {@link PolicyModel} compile for one
 * micro-batch (log-probs, the log-prob VJP's forward and backward, AdamW); a sampler's are those
 * {@link SlotDecoder} compiles (prefill of a batch of prompts, decode of one token per slot).
 */
public final class ActorPrograms {
  private ActorPrograms() {}

  /** One program with the donation it runs with and a short label for tables. */
  public record Planned(String label, Program program, Donation donation) {}

  /** The trainer's programs for micro-batches of {@code b} sequences of {@code t} tokens. */
  public static List<Planned> trainer(
      ModelConfig c, MeshShape shape, int b, int t, Remat remat, DType compute, AdamWConfig adamw) {
    ShardPlan plan = plan(c, shape);
    List<Planned> out = new ArrayList<>();
    Program logProbs = ModelPrograms.logProbs(c, b, t, c.maxPositions(), LoraConfig.NONE, compute);
    out.add(laid(plan, "log-probs", logProbs, Donation.none(), List.of(), Map.of()));
    List<String> names = WeightSpec.layout(c).stream().map(WeightSpec::name).toList();
    VjpPrograms split =
        TrainPrograms.logProbsVjp(logProbs, names, true, PolicyOptimizer.splitRemat(remat));
    List<String> fwdRoles = SplitRoles.forward(split);
    out.add(laid(plan, "train fwd", split.forward(), Donation.none(), fwdRoles, Map.of()));
    out.add(
        laid(
            plan,
            "train bwd",
            split.backward(),
            Donation.none(),
            names.stream().map(OptimizerPrograms::grad).toList(),
            SplitRoles.residuals(split)));
    Map<String, Shape> shapes = new LinkedHashMap<>();
    WeightSpec.layout(c).forEach(w -> shapes.put(w.name(), w.shape()));
    Program update = OptimizerPrograms.adamW(shapes, adamw);
    out.add(
        laid(
            plan,
            "adamw",
            update,
            OptimizerPrograms.inPlaceUpdate(update, names, 2),
            ShardPlan.after(2, ShardPlan.updateNames(names)),
            Map.of()));
    return out;
  }

  /**
   * A sampler's programs: prefill of {@code b} prompts of {@code t} tokens into caches of {@code s}
   * slots, and decode of one token in each of {@code b} rows.
   */
  public static List<Planned> sampler(ModelConfig c, int tp, int b, int t, int s, DType compute) {
    ShardPlan plan = plan(c, MeshShape.tensorParallel(tp));
    Program prefill = ModelPrograms.prefill(c, b, t, s, c.maxPositions(), compute, LoraConfig.NONE);
    Program decode = SlotPrograms.decode(c, b, s, c.maxPositions(), compute, LoraConfig.NONE);
    return List.of(
        laid(
            plan,
            "prefill",
            prefill,
            Donation.none(),
            ShardPlan.after(2, ShardPlan.cacheNames(c)),
            Map.of()),
        laid(
            plan,
            "decode",
            decode,
            SlotPrograms.decodeInPlace(decode, c.layers()),
            ShardPlan.after(1, ShardPlan.cacheNames(c)),
            Map.of()));
  }

  /** The plan of a mesh over chips 0..n-1; null for one chip (unsharded programs). */
  private static ShardPlan plan(ModelConfig c, MeshShape shape) {
    if (shape.chips() == 1) {
      return null;
    }
    Mesh mesh = shape.over(IntStream.range(0, shape.chips()).boxed().toList());
    return ShardPlan.of(mesh, c);
  }

  private static Planned laid(
      ShardPlan plan,
      String label,
      Program p,
      Donation donation,
      List<String> outputNames,
      Map<String, String> roles) {
    if (plan == null) {
      return new Planned(label, p, donation);
    }
    Program sharded = p.withSharding(plan.program(p, outputNames, roles));
    return new Planned(label, sharded, donation);
  }
}
