package dev.javelin.backend.batch;

import dev.javelin.backend.DType;
import dev.javelin.backend.Tensor;
import dev.javelin.backend.graph.Program;
import dev.javelin.backend.model.LoraConfig;
import dev.javelin.backend.model.ModelConfig;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * Token sequences the policy scores with per-token log-probs and entropies (B, C): the dense {@link
 * TokenBatch} (C = T - 1, every next token) or the prompt-sharing {@link PrefixBatch} (C = R, the
 * response tokens only, each prompt run once for all its responses).
 */
public sealed interface SequenceBatch permits TokenBatch, PrefixBatch {
  /** Sequence lengths are padded up to multiples of this, so each bucket compiles once. */
  int LENGTH_BUCKET = 16;

  /**
   * The padded length for {@code t} tokens: the next multiple of the bucket, within the rope table.
   */
  static int lengthBucket(ModelConfig config, int t) {
    if (t > config.maxPositions()) {
      throw new IllegalArgumentException(
          "sequence of " + t + " tokens exceeds maxPositions " + config.maxPositions());
    }
    int rounded = (t + LENGTH_BUCKET - 1) / LENGTH_BUCKET * LENGTH_BUCKET;
    return Math.min(rounded, config.maxPositions());
  }

  /** Rows B of the outputs. */
  int rows();

  /** Scored columns C of the outputs (before any bucket padding). */
  int scoredColumns();

  /** This batch padded to the static shape its program is compiled for. */
  SequenceBatch atBucket(ModelConfig c);

  /** Identifies the program shape, for the compiled-program cache ("b64_t16", ...). */
  String shapeKey();

  /**
   * The log-prob program: outputs [logp (B, C'), entropy (B, C')] at this batch's shape, then for a
   * Mixture-of-Experts model its load-balancing loss (f32 scalar).
   */
  default Program logProbsProgram(ModelConfig c) {
    return logProbsProgram(c, LoraConfig.NONE);
  }

  /** As above through the adapters of {@code lora} (their A and B are parameters too). */
  default Program logProbsProgram(ModelConfig c, LoraConfig lora) {
    return logProbsProgram(c, lora, DType.F32);
  }

  /**
   * As above with the model computing in {@code compute} (bf16: mixed precision, see {@link
   * dev.javelin.backend.program.ModelPrograms#logProbs(ModelConfig, int, int, int, LoraConfig,
   * DType)}).
   */
  Program logProbsProgram(ModelConfig c, LoraConfig lora, DType compute);

  /** The per-call token inputs by program parameter name (not the weights or temperature). */
  Map<String, Tensor> tokenInputs();

  /** Token rows its program runs over at the bucketed shape: what a forward pass costs. */
  int tokenRows(ModelConfig c);

  /**
   * Prompt + response pairs in whichever layout runs fewer token rows: the {@link PrefixBatch} when
   * responses share prompts (GRPO's n samples), the dense {@link TokenBatch} when they do not
   * (SFT), where splitting each row in two would only add padding.
   */
  static SequenceBatch pack(List<int[]> prompts, List<int[]> responses, ModelConfig c) {
    PrefixBatch shared = PrefixBatch.of(prompts, responses);
    int t = 2; // the dense rows' length, as TokenBatch.rightPadded(rows, 2) would pad them
    for (int i = 0; i < prompts.size(); i++) {
      t = Math.max(t, prompts.get(i).length + responses.get(i).length);
    }
    if (shared.tokenRows(c) < prompts.size() * lengthBucket(c, t)) {
      return shared;
    }
    List<int[]> rows = new ArrayList<>(prompts.size());
    for (int i = 0; i < prompts.size(); i++) {
      int[] p = prompts.get(i);
      int[] r = responses.get(i);
      int[] row = Arrays.copyOf(p, p.length + r.length);
      System.arraycopy(r, 0, row, p.length, r.length);
      rows.add(row);
    }
    return TokenBatch.rightPadded(rows, 2);
  }
}
