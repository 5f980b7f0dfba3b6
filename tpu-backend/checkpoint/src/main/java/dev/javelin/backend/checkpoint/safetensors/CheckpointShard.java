package dev.javelin.backend.checkpoint.safetensors;

import dev.javelin.backend.Tensor;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Which part of a checkpoint one rank of {@code ranks} writes: a contiguous run of the tensors (in
 * their order) holding about {@code 1/ranks} of the bytes, so that every rank writes at once and no
 * rank gathers the whole model. Every rank computes the same split from the same names and shapes.
 * The files are named as Hugging Face names the shards of a large model ({@code
 * model-00001-of-00002.safetensors}), so a sharded checkpoint loads anywhere a sharded HF
 * checkpoint does.
 */
public record CheckpointShard(int rank, int ranks) {
  /** The whole checkpoint in one file: what a single process writes. */
  public static final CheckpointShard WHOLE = new CheckpointShard(0, 1);

  public CheckpointShard {
    if (ranks < 1 || rank < 0 || rank >= ranks) {
      throw new IllegalArgumentException("rank " + rank + " of " + ranks + " ranks");
    }
  }

  /** Whether one file holds everything (one rank). */
  public boolean whole() {
    return ranks == 1;
  }

  /** The rank that writes what is written once (config, index, trainer state). */
  public boolean first() {
    return rank == 0;
  }

  /** This rank's file for checkpoint files named {@code <stem>.safetensors} when whole. */
  public String fileName(String stem) {
    return whole() ? stem + ".safetensors" : fileName(stem, rank, ranks);
  }

  /** HF's shard name: {@code <stem>-00001-of-00004.safetensors} for rank 0 of 4. */
  public static String fileName(String stem, int rank, int ranks) {
    return String.format("%s-%05d-of-%05d.safetensors", stem, rank + 1, ranks);
  }

  /** The rank whose part holds each tensor of {@code ordered}, in its order. */
  public static int[] owners(Map<String, ? extends Tensor> ordered, int ranks) {
    long total = 0;
    for (Tensor t : ordered.values()) {
      total += t.shape().size();
    }
    int[] owner = new int[ordered.size()];
    long before = 0;
    int i = 0;
    for (Tensor t : ordered.values()) {
      // A tensor belongs to the rank whose equal share of the elements its first element starts in.
      owner[i++] = total == 0 ? 0 : (int) Math.min(ranks - 1, before * ranks / total);
      before += t.shape().size();
    }
    return owner;
  }

  /** This rank's tensors of {@code ordered}, in order (possibly none). */
  public <T extends Tensor> Map<String, T> part(Map<String, T> ordered) {
    int[] owner = owners(ordered, ranks);
    Map<String, T> mine = new LinkedHashMap<>();
    int i = 0;
    for (Map.Entry<String, T> e : ordered.entrySet()) {
      if (owner[i++] == rank) {
        mine.put(e.getKey(), e.getValue());
      }
    }
    return mine;
  }
}
