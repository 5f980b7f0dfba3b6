package dev.javelin.recipes.config;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
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
 * @param applyChatTemplateKwargs {@code data.apply_chat_template_kwargs}: further variables for the
 *     tokenizer's chat template, e.g. Qwen3's {@code enable_thinking: false}
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
    int valMaxSamples,
    Map<String, Object> applyChatTemplateKwargs) {
  static final KeySet KEYS = new KeySet("data.");
  public static final KeySpec TRAIN_FILES =
      KEYS.optional("train_files", KeyType.STRING_LIST, "training files (jsonl or VeRL parquet)");
  public static final KeySpec VAL_FILES =
      KEYS.optional("val_files", KeyType.STRING_LIST, "validation files");
  public static final KeySpec FILE_FORMAT =
      KEYS.of(
          "file_format",
          KeyType.oneOf("auto", "gsm8k", "math500", "parquet"),
          "auto",
          "how train/val files are read; auto picks by extension and name");
  public static final KeySpec PROMPT_KEY =
      KEYS.of(
          "prompt_key",
          KeyType.oneOf("prompt"),
          "prompt",
          "the parquet column holding the chat prompt (VeRL's layout: prompt)");
  public static final KeySpec PROMPT_TEMPLATE =
      KEYS.optional("prompt_template", KeyType.STRING, "raw, gsm8k, math or countdown");
  public static final KeySpec PROMPT_PREFIX =
      KEYS.of(
          "prompt_prefix", KeyType.STRING, "", "text put before every rendered prompt, e.g. <bos>");
  public static final KeySpec TRAIN_BATCH_SIZE =
      KEYS.of("train_batch_size", KeyType.INT, 256, "prompts per step");
  public static final KeySpec MAX_PROMPT_LENGTH =
      KEYS.of("max_prompt_length", KeyType.INT, 512, "prompt tokens, at most");
  public static final KeySpec MAX_RESPONSE_LENGTH =
      KEYS.of("max_response_length", KeyType.INT, 512, "response tokens, at most");
  public static final KeySpec SHUFFLE =
      KEYS.of("shuffle", KeyType.BOOL, true, "reshuffle prompts every epoch");
  public static final KeySpec SEED = KEYS.of("seed", KeyType.LONG, 1L, "shuffle seed");
  public static final KeySpec FILTER_OVERLONG_PROMPTS =
      KEYS.of("filter_overlong_prompts", KeyType.BOOL, true, "drop prompts over max_prompt_length");
  public static final KeySpec VAL_MAX_SAMPLES =
      KEYS.of("val_max_samples", KeyType.INT, -1, "validation prompts used; -1 for all");
  public static final KeySpec APPLY_CHAT_TEMPLATE_KWARGS =
      KEYS.optional(
          "apply_chat_template_kwargs",
          KeyType.MAP,
          "variables for the chat template, e.g. enable_thinking: false (Qwen3)");

  /** Variables the renderer sets itself; a kwarg of that name would be silently overridden. */
  private static final List<String> TEMPLATE_OWN = List.of("messages", "add_generation_prompt");

  /** Validates sizes. */
  public DataConfig {
    trainFiles = List.copyOf(trainFiles);
    valFiles = List.copyOf(valFiles);
    Objects.requireNonNull(fileFormat, "fileFormat");
    Objects.requireNonNull(promptPrefix, "promptPrefix");
    Objects.requireNonNull(synthetic, "synthetic");
    Checks.positive(TRAIN_BATCH_SIZE.name(), trainBatchSize);
    Checks.positive(MAX_PROMPT_LENGTH.name(), maxPromptLength);
    Checks.positive(MAX_RESPONSE_LENGTH.name(), maxResponseLength);
    Checks.require(
        valMaxSamples == -1 || valMaxSamples > 0, VAL_MAX_SAMPLES.name(), "use -1 or a count > 0");
    // a null value is Python's None, which a template may test: kept, so no Map.copyOf
    applyChatTemplateKwargs =
        Collections.unmodifiableMap(new LinkedHashMap<>(applyChatTemplateKwargs));
    for (String own : TEMPLATE_OWN) {
      Checks.require(
          !applyChatTemplateKwargs.containsKey(own),
          APPLY_CHAT_TEMPLATE_KWARGS.name(),
          "'" + own + "' is set by Javelin itself; remove it");
    }
    Checks.require(
        !synthetic.enabled() || trainFiles.isEmpty(),
        TRAIN_FILES.name(),
        "set either data.train_files or data.synthetic.task, not both");
  }

  static DataConfig from(Settings s) {
    return new DataConfig(
        s.getStrings(TRAIN_FILES),
        s.getStrings(VAL_FILES),
        s.getString(FILE_FORMAT),
        s.optString(PROMPT_TEMPLATE).orElse(null),
        s.getString(PROMPT_PREFIX),
        SyntheticConfig.from(s),
        s.getInt(TRAIN_BATCH_SIZE),
        s.getInt(MAX_PROMPT_LENGTH),
        s.getInt(MAX_RESPONSE_LENGTH),
        s.getBool(SHUFFLE),
        s.getLong(SEED),
        s.getBool(FILTER_OVERLONG_PROMPTS),
        s.getInt(VAL_MAX_SAMPLES),
        s.getMap(APPLY_CHAT_TEMPLATE_KWARGS));
  }

  /** Whether any training prompts are configured. */
  public boolean hasTrainData() {
    return synthetic.enabled() || !trainFiles.isEmpty();
  }
}
