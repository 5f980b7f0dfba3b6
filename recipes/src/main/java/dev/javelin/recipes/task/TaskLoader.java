package dev.javelin.recipes.task;

import dev.javelin.backend.checkpoint.ModelCheckpoint;
import dev.javelin.backend.checkpoint.gguf.GgufFile;
import dev.javelin.datasets.DatasetSpec;
import dev.javelin.datasets.Datasets;
import dev.javelin.datasets.Example;
import dev.javelin.datasets.LoadResult;
import dev.javelin.datasets.PromptTemplate;
import dev.javelin.datasets.Tokenizer;
import dev.javelin.datasets.synthetic.ArithOperator;
import dev.javelin.datasets.synthetic.ArithmeticConfig;
import dev.javelin.datasets.synthetic.ArithmeticTask;
import dev.javelin.datasets.synthetic.CountdownConfig;
import dev.javelin.datasets.synthetic.CountdownTask;
import dev.javelin.datasets.synthetic.SyntheticDatasets;
import dev.javelin.datasets.synthetic.SyntheticSplit;
import dev.javelin.datasets.synthetic.SyntheticTask;
import dev.javelin.datasets.tokenizer.Tokenizers;
import dev.javelin.recipes.config.ConfigException;
import dev.javelin.recipes.config.DataConfig;
import dev.javelin.recipes.config.ModelSection;
import dev.javelin.recipes.config.RecipeConfig;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.logging.Logger;

/** Loads a recipe's prompts (files or a synthetic task) and tokenizes them. */
public final class TaskLoader {
  private static final Logger LOG = Logger.getLogger(TaskLoader.class.getName());

  private TaskLoader() {}

  /** The tokenizer a GGUF file carries in its metadata. */
  private static Tokenizer ggufTokenizer(Path gguf, String key) {
    if (!Files.isRegularFile(gguf)) {
      throw new ConfigException("recipe key '" + key + "': no GGUF file " + gguf.toAbsolutePath());
    }
    try (GgufFile f = GgufFile.open(gguf)) {
      return Tokenizers.fromGgufMetadata(f.metadata(), gguf.toString());
    } catch (IllegalArgumentException e) {
      throw new ConfigException("recipe key '" + key + "': " + e.getMessage(), e);
    }
  }

  /**
   * A named model that is not there is an error, not a silent switch to the character tokenizer
   * (which would then skip every prompt it cannot encode).
   */
  private static void requireModelAt(Path dir) {
    if (!Files.exists(dir)) {
      throw new ConfigException(
          "recipe key '"
              + ModelSection.PATH.name()
              + "': no model at "
              + dir.toAbsolutePath()
              + "; put a checkpoint there (config.json, model.safetensors, tokenizer.json), pass"
              + " "
              + ModelSection.PATH.assign("<dir>")
              + ", or "
              + ModelSection.PATH.assign("")
              + " for a random model of the init.* shape");
    }
  }

  /** The recipe's tokenizer: {@code tokenizer_path}, else the model's directory, else char. */
  public static Tokenizer tokenizer(RecipeConfig recipe) {
    String path = recipe.model().tokenizerPath();
    if (path != null && ModelCheckpoint.isGguf(Path.of(path))) {
      return ggufTokenizer(Path.of(path), ModelSection.TOKENIZER_PATH.name());
    }
    if (path == null
        && recipe.model().path() != null
        && ModelCheckpoint.isGguf(Path.of(recipe.model().path()))) {
      return ggufTokenizer(Path.of(recipe.model().path()), ModelSection.PATH.name());
    }
    if (path == null && recipe.model().path() != null) {
      Path dir = Path.of(recipe.model().path());
      requireModelAt(dir);
      path = Files.isRegularFile(dir.resolve("tokenizer.json")) ? dir.toString() : "char";
    }
    if (path == null || path.equals("char")) {
      return Tokenizers.character();
    }
    try {
      return Tokenizers.load(Path.of(path));
    } catch (IllegalArgumentException e) {
      throw new ConfigException(
          "recipe key '" + ModelSection.TOKENIZER_PATH.name() + "': " + e.getMessage(), e);
    }
  }

  /** Loads and tokenizes the train and validation prompts. */
  public static TaskData load(RecipeConfig recipe) {
    Tokenizer tok = tokenizer(recipe);
    DataConfig data = recipe.data();
    List<Example> train;
    List<Example> val;
    if (data.synthetic().enabled()) {
      SyntheticSplit split = synthetic(data);
      train = split.train();
      val = split.heldOut();
    } else {
      train = files(data.trainFiles(), data, DataConfig.TRAIN_FILES.name());
      val = files(data.valFiles(), data, DataConfig.VAL_FILES.name());
    }
    if (data.valMaxSamples() > 0 && val.size() > data.valMaxSamples()) {
      val = val.subList(0, data.valMaxSamples());
    }
    int eos =
        tok.eosId()
            .orElseThrow(
                () -> new ConfigException("the tokenizer has no eos token to stop responses"));
    return new TaskData(
        encode(train, tok, data, "train"), encode(val, tok, data, "val"), tok, new int[] {eos});
  }

  private static SyntheticSplit synthetic(DataConfig data) {
    SyntheticTask task;
    PromptTemplate template;
    if (data.synthetic().task().equals("arith")) {
      List<ArithOperator> ops = new ArrayList<>();
      for (String s : data.synthetic().operators()) {
        ops.add(
            switch (s) {
              case "+" -> ArithOperator.PLUS;
              case "-" -> ArithOperator.MINUS;
              default -> ArithOperator.TIMES;
            });
      }
      task = new ArithmeticTask(new ArithmeticConfig(data.synthetic().digits(), ops, 2));
      template = PromptTemplate.RAW;
    } else {
      task = new CountdownTask(CountdownConfig.standard());
      template = PromptTemplate.COUNTDOWN;
    }
    if (data.promptTemplate() != null) {
      template = PromptTemplate.named(data.promptTemplate());
    }
    try {
      return SyntheticDatasets.split(
          task,
          template,
          data.synthetic().seed(),
          data.synthetic().trainSize(),
          data.synthetic().valSize());
    } catch (IllegalArgumentException e) {
      throw new ConfigException("recipe section 'data.synthetic': " + e.getMessage(), e);
    }
  }

  private static List<Example> files(List<String> paths, DataConfig data, String key) {
    List<DatasetSpec> specs = new ArrayList<>();
    for (String p : paths) {
      Path path = Path.of(p);
      if (!Files.isRegularFile(path)) {
        throw new ConfigException("recipe key '" + key + "': file not found: " + path);
      }
      DatasetSpec spec = spec(path, data.fileFormat());
      if (data.promptTemplate() != null && spec.template() != null) {
        spec = spec.withTemplate(PromptTemplate.named(data.promptTemplate()));
      }
      specs.add(spec);
    }
    if (specs.isEmpty()) {
      return List.of();
    }
    LoadResult result = Datasets.loadAll(specs);
    LOG.info(() -> key + ": " + result.summary());
    return result.examples();
  }

  private static DatasetSpec spec(Path path, String format) {
    String name = path.toString().toLowerCase(Locale.ROOT);
    String f = format;
    if (f.equals("auto")) {
      f =
          name.endsWith(".parquet")
              ? "parquet"
              : name.contains("math") ? "math500" : name.contains("gsm8k") ? "gsm8k" : "";
    }
    return switch (f) {
      case "parquet" -> DatasetSpec.verlParquet(path);
      case "math500" -> DatasetSpec.math500(path);
      case "gsm8k" -> DatasetSpec.gsm8k(path);
      default ->
          throw new ConfigException(
              "recipe key '"
                  + DataConfig.FILE_FORMAT.name()
                  + "': cannot tell the format of "
                  + path
                  + "; set it to gsm8k, math500 or parquet");
    };
  }

  private static List<PromptedExample> encode(
      List<Example> examples, Tokenizer tok, DataConfig data, String split) {
    List<PromptedExample> out = new ArrayList<>(examples.size());
    int dropped = 0;
    int unencodable = 0;
    String firstUnencodable = null;
    for (Example e : examples) {
      String text;
      int[] ids;
      try {
        text =
            data.promptPrefix()
                + tok.applyChatTemplate(e.prompt(), true, data.applyChatTemplateKwargs());
        ids = tok.encode(text);
      } catch (IllegalArgumentException ex) {
        // A row the tokenizer cannot encode is skipped and counted; all of them is a recipe error.
        if (unencodable++ == 0) {
          firstUnencodable = "prompt " + e.uid() + ": " + ex.getMessage();
        }
        continue;
      }
      if (ids.length > data.maxPromptLength()) {
        if (!data.filterOverlongPrompts()) {
          throw new ConfigException(
              "recipe key '"
                  + DataConfig.MAX_PROMPT_LENGTH.name()
                  + "': "
                  + split
                  + " prompt "
                  + e.uid()
                  + " has "
                  + ids.length
                  + " tokens; raise the limit or set "
                  + DataConfig.FILTER_OVERLONG_PROMPTS.assign(true));
        }
        dropped++;
        continue;
      }
      out.add(new PromptedExample(e, text, ids));
    }
    if (dropped > 0) {
      int d = dropped;
      LOG.warning(
          () -> split + ": dropped " + d + " prompts over " + DataConfig.MAX_PROMPT_LENGTH.name());
    }
    reportUnencodable(split, unencodable, firstUnencodable, out.isEmpty() && dropped == 0);
    return out;
  }

  /**
   * Skipped rows the tokenizer cannot encode are a warning; when they are all the rows ({@code
   * none}), a recipe error naming the first one.
   */
  private static void reportUnencodable(String split, int count, String first, boolean none) {
    if (count == 0) {
      return;
    }
    if (none) {
      throw new ConfigException(
          "recipe key '"
              + ModelSection.TOKENIZER_PATH.name()
              + "': the tokenizer cannot encode any of the "
              + count
              + " "
              + split
              + " prompts (first: "
              + first
              + "); use a tokenizer that covers these characters (a Hugging Face tokenizer"
              + " directory) or a "
              + DataConfig.PROMPT_TEMPLATE.name()
              + " / dataset without them");
    }
    LOG.warning(
        () ->
            split
                + ": skipped "
                + count
                + " prompts the tokenizer cannot encode (first: "
                + first
                + ")");
  }
}
