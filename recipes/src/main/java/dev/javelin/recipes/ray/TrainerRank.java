package dev.javelin.recipes.ray;

import dev.javelin.backend.distributed.Gang;
import dev.javelin.recipes.config.Recipes;
import dev.javelin.recipes.driver.RecipeTrainerFactory;
import dev.javelin.trainer.TrainerActor;
import io.ray.api.Ray;
import io.ray.api.id.UniqueId;
import io.ray.api.runtimecontext.NodeInfo;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * One rank of a trainer gang on a Ray cluster, in a worker process of its own: {@code
 * Ray.actor(TrainerRank::new, recipeYaml, rank, size, store)}. Rank 0 serves the gang's
 * coordination store on its node's address (the one Ray knows the node by) and a port it picks; the
 * driver asks it for that address ({@link #storeAddress}) and starts the other ranks with it, so
 * every rank joins before any builds its model ({@link #build}, on all ranks at once). The trainer
 * calls are {@link TrainerActor}'s, over a {@link dev.javelin.trainer.engine.GangRankTrainer}.
 */
public final class TrainerRank {
  private final byte[] spec;
  private final Gang gang;
  private TrainerActor trainer; // built by build()

  /**
   * Joins rank {@code rank} of {@code size}: rank 0 serves the store ({@code store} unused), the
   * others connect to {@code store}, rank 0's {@code host:port}.
   */
  public TrainerRank(byte[] spec, int rank, int size, String store) {
    this.spec = spec;
    InetSocketAddress at = rank == 0 ? new InetSocketAddress(nodeAddress(), 0) : parse(store);
    this.gang = Gang.join(rank, size, at, RecipeTrainerFactory.gangTimeout());
  }

  /** Where the gang's store listens, {@code host:port}. */
  public String storeAddress() {
    InetSocketAddress a = gang.storeAddress();
    return a.getHostString() + ":" + a.getPort();
  }

  /** Builds this rank's trainer from the recipe (the initial model on its own device). */
  public boolean build() {
    trainer =
        new TrainerActor(
            RecipeTrainerFactory.createRank(
                Recipes.fromYaml(
                    new String(spec, StandardCharsets.UTF_8), "trainer spec", List.of()),
                gang));
    return true;
  }

  /** The address of the node this worker runs on, as the cluster knows it. */
  private static String nodeAddress() {
    UniqueId me = Ray.getRuntimeContext().getCurrentNodeId();
    for (NodeInfo n : Ray.getRuntimeContext().getAllNodeInfo()) {
      if (n.nodeId.equals(me)) {
        return n.nodeAddress;
      }
    }
    throw new IllegalStateException("Ray lists no node " + me + " for this worker");
  }

  private static InetSocketAddress parse(String store) {
    int colon = store.lastIndexOf(':');
    if (colon < 0) {
      throw new IllegalArgumentException("not host:port: '" + store + "'");
    }
    return new InetSocketAddress(
        store.substring(0, colon), Integer.parseInt(store.substring(colon + 1)));
  }

  /** See {@link TrainerActor#logProbs}. */
  public byte[] logProbs(byte[] samples, String role) {
    return trainer.logProbs(samples, role);
  }

  /** See {@link TrainerActor#update}. */
  public byte[] update(byte[] samples) {
    return trainer.update(samples);
  }

  /** See {@link TrainerActor#sftStep}. */
  public byte[] sftStep(byte[] examples) {
    return trainer.sftStep(examples);
  }

  /** See {@link TrainerActor#snapshotHolding}. */
  public byte[] snapshotHolding(long version, String wireType, String content) {
    return trainer.snapshotHolding(version, wireType, content);
  }

  public long optimizerSteps() {
    return trainer.optimizerSteps();
  }

  /** See {@link TrainerActor#saveCheckpoint}: every rank writes its part of the checkpoint. */
  public boolean saveCheckpoint(String dir, byte[] extra) {
    return trainer.saveCheckpoint(dir, extra);
  }

  /** See {@link TrainerActor#loadCheckpoint}: every rank loads the same checkpoint. */
  public byte[] loadCheckpoint(String dir) {
    return trainer.loadCheckpoint(dir);
  }

  /** Releases the device and leaves the gang (with every other rank at once). */
  public boolean close() {
    if (trainer != null) {
      return trainer.close();
    }
    gang.close();
    return true;
  }
}
