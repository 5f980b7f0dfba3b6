package dev.javelin.recipes.cli;

import dev.javelin.backend.checkpoint.ModelCheckpoint;
import dev.javelin.backend.checkpoint.PeftAdapter;
import dev.javelin.backend.checkpoint.gguf.GgufFile;
import dev.javelin.backend.checkpoint.safetensors.StorageType;
import dev.javelin.backend.model.LoraAdapters;
import dev.javelin.datasets.tokenizer.BpeTokenizer;
import dev.javelin.datasets.tokenizer.Tokenizers;
import dev.javelin.recipes.config.ConfigException;
import dev.javelin.recipes.task.HfTokenizerFiles;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;

/**
 * {@code javelin convert <model.gguf | HF dir> <out dir> [--bf16] [--merge <adapter dir>]}: writes
 * a Hugging Face directory that {@code transformers}' {@code AutoModelForCausalLM} and {@code
 * AutoTokenizer} load as it is: config.json (with the tokenizer's eos/pad ids), model.safetensors
 * (f32, or bf16), tokenizer.json, tokenizer_config.json (with the chat template) and
 * generation_config.json. The directory is written beside the target and moved into place at the
 * end, and an existing non-empty target is refused, so a failed conversion leaves nothing
 * half-written and overwrites nothing. {@code --merge} folds a PEFT LoRA adapter
 * (adapter_config.json + adapter_model.safetensors, such as a checkpoint's {@code lora_adapter/})
 * into the weights first: {@code W + (alpha/r) · B A}.
 */
final class ConvertCommand {
  private final PrintStream out;

  ConvertCommand(PrintStream out) {
    this.out = out;
  }

  int run(List<String> args) {
    int merge = args.indexOf("--merge");
    if (merge >= 0 && merge + 1 >= args.size()) {
      throw new ConfigException("convert: --merge needs the adapter directory after it");
    }
    Path adapterDir = merge >= 0 ? Path.of(args.get(merge + 1)) : null;
    List<String> paths = new ArrayList<>(args);
    if (merge >= 0) {
      paths.subList(merge, merge + 2).clear();
    }
    paths.removeIf(a -> a.equals("--bf16"));
    if (paths.size() != 2) {
      throw new ConfigException(
          "'convert' needs a source and a target: javelin convert <model.gguf|hf dir> <out dir>"
              + " [--bf16] [--merge <adapter dir>]");
    }
    if (adapterDir != null && !PeftAdapter.isIn(adapterDir)) {
      throw new ConfigException(
          "convert --merge: " + adapterDir + " has no " + PeftAdapter.CONFIG + " (a PEFT adapter)");
    }
    Path source = Path.of(paths.get(0));
    Path target = Path.of(paths.get(1)).toAbsolutePath();
    StorageType storage = args.contains("--bf16") ? StorageType.BF16 : StorageType.F32;
    if (!Files.exists(source)) {
      throw new ConfigException("convert: " + source + " does not exist");
    }
    requireEmpty(target);
    long start = System.nanoTime();
    ModelCheckpoint checkpoint = load(source);
    if (adapterDir != null) {
      checkpoint = merged(checkpoint, adapterDir);
    }
    BpeTokenizer tokenizer = tokenizer(source);
    Path tmp = target.resolveSibling(target.getFileName() + ".partial");
    deleteTree(tmp);
    checkpoint.save(tmp, ModelCheckpoint.architecture(source), storage);
    HfTokenizerFiles.write(tmp, tokenizer);
    move(tmp, target);
    out.printf(
        Locale.ROOT,
        "javelin convert: %s -> %s (%s, %,d parameters, %s) in %.1f s%n",
        source,
        target,
        ModelCheckpoint.architecture(source),
        checkpoint.config().parameterCount(),
        storage.name().toLowerCase(Locale.ROOT),
        (System.nanoTime() - start) / 1e9);
    return 0;
  }

  private static ModelCheckpoint load(Path source) {
    try {
      return ModelCheckpoint.load(source);
    } catch (IllegalArgumentException e) {
      throw new ConfigException("convert: " + e.getMessage(), e);
    }
  }

  private static ModelCheckpoint merged(ModelCheckpoint base, Path adapterDir) {
    PeftAdapter adapter;
    try {
      adapter = PeftAdapter.load(adapterDir, base.config());
    } catch (IllegalArgumentException e) {
      throw new ConfigException("convert --merge: " + e.getMessage(), e);
    }
    return new ModelCheckpoint(
        base.config(),
        LoraAdapters.merge(adapter.lora(), base.config(), base.weights(), adapter.tensors()));
  }

  private static BpeTokenizer tokenizer(Path source) {
    if (ModelCheckpoint.isGguf(source)) {
      try (GgufFile gguf = GgufFile.open(source)) {
        return Tokenizers.fromGgufMetadata(gguf.metadata(), source.toString());
      }
    }
    return Tokenizers.load(source);
  }

  private static void requireEmpty(Path target) {
    try (Stream<Path> entries = Files.isDirectory(target) ? Files.list(target) : Stream.empty()) {
      if (Files.exists(target) && (!Files.isDirectory(target) || entries.findAny().isPresent())) {
        throw new ConfigException(
            "convert: " + target + " exists and is not empty; name a new directory");
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot list " + target, e);
    }
  }

  private static void move(Path from, Path to) {
    try {
      Files.deleteIfExists(to); // an empty directory, checked above
      Files.move(from, to, StandardCopyOption.ATOMIC_MOVE);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot move " + from + " to " + to, e);
    }
  }

  private static void deleteTree(Path dir) {
    if (!Files.exists(dir)) {
      return;
    }
    try (Stream<Path> walk = Files.walk(dir)) {
      for (Path p : walk.sorted((x, y) -> y.getNameCount() - x.getNameCount()).toList()) {
        Files.delete(p);
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot remove " + dir, e);
    }
  }
}
