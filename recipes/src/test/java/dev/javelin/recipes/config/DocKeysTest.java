package dev.javelin.recipes.config;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Every recipe key the documentation names exists in {@link RecipeSchema}. A key mention is a
 * backticked span that is a dotted name under a recipe section ({@code data}, {@code
 * actor_rollout_ref}, {@code algorithm}, {@code trainer}, {@code reward_model}, {@code
 * custom_reward_function}, {@code reward}, {@code sft}), optionally followed by {@code =value} or
 * {@code .*}; it must be a key or the prefix of one (a section such as {@code
 * algorithm.rollout_correction}), a VeRL engine key the loader accepts without effect, a dataset
 * column, or a key the docs list as rejected (checked to be rejected). Files read: {@code
 * README.md}, {@code docs/*.md} and every module's {@code README.md}.
 */
class DocKeysTest {
  private static final Pattern MENTION =
      Pattern.compile(
          "`((?:data|actor_rollout_ref|algorithm|trainer|reward_model|custom_reward_function"
              + "|reward|sft)(?:\\.[a-z0-9_]+)+)(?:\\.\\*|=[^`]*)?`");

  /** VeRL parquet columns that share a section name with recipe keys; not recipe keys. */
  private static final List<String> DATASET_COLUMNS =
      List.of("reward_model.ground_truth", "reward_model.style");

  /** VeRL keys docs/PORTING.md lists as rejected; the loader must indeed reject them. */
  private static final List<String> REJECTED = List.of("reward_model.enable");

  @Test
  void keysDocumentedAsRejectedAreRejected() {
    for (String key : REJECTED) {
      assertThrows(
          ConfigException.class, () -> Recipes.load("arith-grpo", List.of(key + "=true")), key);
    }
  }

  /** Whether the loader accepts {@code key} as a VeRL engine key, or a section of them. */
  private static boolean engineKey(String key) {
    return VerlEngineKeys.reason(key).isPresent() || VerlEngineKeys.reason(key + ".x").isPresent();
  }

  /**
   * Schema keys docs/ALGORITHMS.md must list: the algorithm's, the reward shaping's, the loss's.
   */
  private static boolean algorithmKey(String key) {
    return key.startsWith("algorithm.")
        || key.startsWith("reward_model.")
        || key.equals("data.gen_batch_size")
        || key.matches(
            "actor_rollout_ref\\.actor\\.(clip_ratio.*|loss_agg_mode|policy_loss\\..*|entropy_coeff"
                + "|use_kl_loss|kl_loss_.*)");
  }

  @Test
  void algorithmsDocListsEveryAlgorithmKey() throws IOException {
    Path root = Path.of("..").toAbsolutePath().normalize();
    String doc = Files.readString(root.resolve("docs/ALGORITHMS.md"));
    List<String> missing = new ArrayList<>();
    for (String key : RecipeSchema.schema().names()) {
      if (algorithmKey(key) && !doc.contains("`" + key + "`") && !doc.contains("`" + key + "=")) {
        missing.add(key);
      }
    }
    assertTrue(missing.isEmpty(), "docs/ALGORITHMS.md does not list: " + missing);
  }

  @Test
  void everyDocumentedKeyIsInTheSchema() throws IOException {
    Path root = Path.of("..").toAbsolutePath().normalize();
    List<Path> docs = new ArrayList<>();
    docs.add(root.resolve("README.md"));
    try (Stream<Path> s = Files.list(root.resolve("docs"))) {
      s.filter(p -> p.toString().endsWith(".md")).forEach(docs::add);
    }
    try (Stream<Path> s = Files.list(root)) {
      s.map(p -> p.resolve("README.md")).filter(Files::isRegularFile).forEach(docs::add);
    }
    assertTrue(docs.size() > 3, "docs found under " + root + ": " + docs);
    Schema schema = RecipeSchema.schema();
    List<String> unknown = new ArrayList<>();
    int mentions = 0;
    for (Path doc : docs) {
      Matcher m = MENTION.matcher(Files.readString(doc));
      while (m.find()) {
        mentions++;
        String key = m.group(1);
        boolean known =
            DATASET_COLUMNS.contains(key)
                || REJECTED.contains(key)
                || engineKey(key)
                || schema.key(key).isPresent()
                || schema.names().stream().anyMatch(n -> n.startsWith(key + "."))
                || schema.isMapKey(key)
                || schema.mapKeyAbove(key).isPresent() // an entry, e.g. ...kwargs.enable_thinking
                || schema.aliases().containsKey(key)
                || schema.aliases().keySet().stream().anyMatch(n -> n.startsWith(key + "."));
        if (!known) {
          unknown.add(root.relativize(doc) + ": " + key);
        }
      }
    }
    assertTrue(mentions > 20, "too few key mentions found (" + mentions + "); pattern broken?");
    assertTrue(
        unknown.isEmpty(),
        "keys named in docs but not in the schema:\n" + String.join("\n", unknown));
  }
}
