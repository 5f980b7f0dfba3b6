package dev.javelin.recipes.api;

import dev.javelin.recipes.config.DataConfig;
import dev.javelin.recipes.config.SyntheticConfig;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The data section of a {@link RunSpec} ({@code data.*}): prompt files or a generated task, batch
 * size and token lengths.
 */
public final class DataSpec {
  private final SpecValues values;

  DataSpec(SpecValues values) {
    this.values = values;
  }

  /** Training files (JSONL or VeRL parquet); see {@link #fileFormat}. */
  public DataSpec trainFiles(List<String> files) {
    values.put(DataConfig.TRAIN_FILES, List.copyOf(files));
    return this;
  }

  /** Held-out files, validated every {@link TrainerSpec#testFreq} steps. */
  public DataSpec valFiles(List<String> files) {
    values.put(DataConfig.VAL_FILES, List.copyOf(files));
    return this;
  }

  /** The rows' shape: {@code gsm8k}, {@code math500} or {@code parquet}. */
  public DataSpec fileFormat(String format) {
    values.put(DataConfig.FILE_FORMAT, format);
    return this;
  }

  /**
   * A generated task instead of files: {@code arith} (sums) or {@code countdown}.
   *
   * @param task the task's name
   * @param trainSize generated training prompts
   * @param valSize generated held-out prompts
   */
  public DataSpec synthetic(String task, int trainSize, int valSize) {
    values.put(SyntheticConfig.TASK, task);
    values.put(SyntheticConfig.TRAIN_SIZE, trainSize);
    values.put(SyntheticConfig.VAL_SIZE, valSize);
    return this;
  }

  /** Prompts per step. */
  public DataSpec trainBatchSize(int prompts) {
    values.put(DataConfig.TRAIN_BATCH_SIZE, prompts);
    return this;
  }

  /** Longest prompt, in tokens. */
  public DataSpec maxPromptLength(int tokens) {
    values.put(DataConfig.MAX_PROMPT_LENGTH, tokens);
    return this;
  }

  /** Longest response, in tokens. */
  public DataSpec maxResponseLength(int tokens) {
    values.put(DataConfig.MAX_RESPONSE_LENGTH, tokens);
    return this;
  }

  /**
   * Further variables for the tokenizer's chat template, as {@code transformers}' {@code
   * apply_chat_template(**kwargs)} takes them: e.g. {@code Map.of("enable_thinking", false)} for
   * Qwen3 answers without a thinking block.
   */
  public DataSpec applyChatTemplateKwargs(Map<String, ?> kwargs) {
    values.put(DataConfig.APPLY_CHAT_TEMPLATE_KWARGS, new LinkedHashMap<>(kwargs));
    return this;
  }
}
