package dev.javelin.recipes.task;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.javelin.datasets.Tokenizer;
import dev.javelin.datasets.tokenizer.BpeTokenizer;
import dev.javelin.datasets.tokenizer.Tokenizers;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.OptionalInt;

/**
 * The tokenizer half of a Hugging Face model directory: tokenizer.json and tokenizer_config.json
 * (with the chat template), eos/pad ids in config.json and generation_config.json, so {@code
 * AutoTokenizer} loads it and {@code generate} stops at eos. Written beside the config.json and
 * model.safetensors of a converted model and of every trainer checkpoint.
 */
public final class HfTokenizerFiles {
  private HfTokenizerFiles() {}

  /**
   * Writes {@code tokenizer}'s files into {@code dir}, which already holds config.json. The
   * character tokenizer of the tiny recipes has no Hugging Face form: nothing is written for it.
   *
   * @return whether files were written
   */
  public static boolean write(Path dir, Tokenizer tokenizer) {
    if (!(tokenizer instanceof BpeTokenizer bpe)) {
      return false;
    }
    ObjectMapper json = new ObjectMapper();
    Path configFile = dir.resolve("config.json");
    try {
      ObjectNode config = (ObjectNode) json.readTree(configFile.toFile());
      Tokenizers.save(bpe, dir, config.path("max_position_embeddings").asInt(2048));
      ObjectNode generation = json.createObjectNode();
      put(config, generation, "eos_token_id", bpe.eosId());
      put(config, generation, "pad_token_id", bpe.padId().isPresent() ? bpe.padId() : bpe.eosId());
      json.writerWithDefaultPrettyPrinter().writeValue(configFile.toFile(), config);
      json.writerWithDefaultPrettyPrinter()
          .writeValue(dir.resolve("generation_config.json").toFile(), generation);
      return true;
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write the tokenizer files into " + dir, e);
    }
  }

  private static void put(ObjectNode a, ObjectNode b, String key, OptionalInt id) {
    if (id.isPresent()) {
      a.put(key, id.getAsInt());
      b.put(key, id.getAsInt());
    }
  }
}
