package dev.javelin.recipes.config;

import java.util.List;
import java.util.Objects;

/**
 * {@code data.*}: where prompts come from and how they are batched.
 *
 * @param trainFiles {@code data.train_files}
 * @param valFiles {@code data.val_files}
 * @param fileFormat {@code data.file_format}: auto, gsm8k, math500 or parquet
 * @param promptTemplate {@code data.prompt_template}, or null for the format's own
 * @param promptPrefix {@code data.prompt_prefix}: text before every rendered prompt (e.g. {@code
 *     <bos>} for the character tokenizer, whose template adds none)
 * @param synthetic {@code data.synthetic.*}
 * @param trainBatchSize {@code data.train_batch_size}: prompts per step
 * @param maxPromptLength {@code data.max_prompt_length}
 * @param maxResponseLength {@code data.max_response_length}
 * @param shuffle {@code data.shuffle}
 * @param seed {@code data.seed}
 * @param filterOverlongPrompts {@code data.filter_overlong_prompts}
 * @param valMaxSamples {@code data.val_max_samples}: -1 for all
 */
public record DataConfig(
    List<String> trainFiles,
    List<String> valFiles,
    String fileFormat,
    String promptTemplate,
    String promptPrefix,
    SyntheticConfig synthetic,
    int trainBatchSize,
    int maxPromptLength,
    int maxResponseLength,
    boolean shuffle,
    long seed,
    boolean filterOverlongPrompts,
    int valMaxSamples) {

  /** Validates sizes. */
  public DataConfig {
    trainFiles = List.copyOf(trainFiles);
    valFiles = List.copyOf(valFiles);
    Objects.requireNonNull(fileFormat, "fileFormat");
    Objects.requireNonNull(promptPrefix, "promptPrefix");
    Objects.requireNonNull(synthetic, "synthetic");
    Checks.positive("data.train_batch_size", trainBatchSize);
    Checks.positive("data.max_prompt_length", maxPromptLength);
    Checks.positive("data.max_response_length", maxResponseLength);
    Checks.require(
        valMaxSamples == -1 || valMaxSamples > 0, "data.val_max_samples", "use -1 or a count > 0");
    Checks.require(
        !synthetic.enabled() || trainFiles.isEmpty(),
        "data.train_files",
        "set either data.train_files or data.synthetic.task, not both");
  }

  static DataConfig from(Settings s) {
    return new DataConfig(
        s.getStrings("data.train_files"),
        s.getStrings("data.val_files"),
        s.getString("data.file_format"),
        s.optString("data.prompt_template").orElse(null),
        s.getString("data.prompt_prefix"),
        SyntheticConfig.from(s),
        s.getInt("data.train_batch_size"),
        s.getInt("data.max_prompt_length"),
        s.getInt("data.max_response_length"),
        s.getBool("data.shuffle"),
        s.getLong("data.seed"),
        s.getBool("data.filter_overlong_prompts"),
        s.getInt("data.val_max_samples"));
  }

  /** Whether any training prompts are configured. */
  public boolean hasTrainData() {
    return synthetic.enabled() || !trainFiles.isEmpty();
  }
}
