package dev.javelin.recipes.task;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.javelin.recipes.config.ConfigException;
import dev.javelin.recipes.config.RecipeConfig;
import dev.javelin.recipes.config.Recipes;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.logging.Handler;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code data.filter_overlong_prompts}: prompts over {@code data.max_prompt_length} tokens are
 * dropped and counted; with the filter off such a prompt stops the run naming both keys.
 */
class OverlongPromptsTest {
  private static final String ROWS =
      """
      {"question": "1+1", "answer": "#### 2"}
      {"question": "a question far longer than the prompt limit allows", "answer": "#### 3"}
      {"question": "2+2", "answer": "#### 4"}
      {"question": "another question that is much too long to fit", "answer": "#### 5"}
      {"question": "another question that is much too long to fit as well", "answer": "#### 6"}
      """;

  private static RecipeConfig recipe(Path file, String filter) {
    return Recipes.load(
        "arith-grpo",
        List.of(
            "data.synthetic.task=none",
            "data.train_files=[" + file + "]",
            "data.val_files=[" + file + "]",
            "data.file_format=gsm8k",
            "data.prompt_template=raw",
            "data.max_prompt_length=16",
            "data.filter_overlong_prompts=" + filter,
            "actor_rollout_ref.model.path=",
            "actor_rollout_ref.model.warmup_recipe=",
            "actor_rollout_ref.model.tokenizer_path=char"));
  }

  @Test
  void overlongPromptsAreDroppedAndCounted(@TempDir Path dir) throws Exception {
    Path file = Files.writeString(dir.resolve("rows.jsonl"), ROWS);
    List<String> warnings = new ArrayList<>();
    Handler h =
        new Handler() {
          @Override
          public void publish(LogRecord r) {
            warnings.add(r.getMessage());
          }

          @Override
          public void flush() {}

          @Override
          public void close() {}
        };
    Logger log = Logger.getLogger(TaskLoader.class.getName());
    log.addHandler(h);
    TaskData task;
    try {
      task = TaskLoader.load(recipe(file, "true"));
    } finally {
      log.removeHandler(h);
    }
    assertEquals(2, task.train().size());
    assertEquals(2, task.val().size());
    for (PromptedExample p : task.train()) {
      assertTrue(p.promptIds().length <= 16, p.promptText());
    }
    assertTrue(
        warnings.contains("train: dropped 3 prompts over data.max_prompt_length"),
        warnings.toString());
    assertTrue(
        warnings.contains("val: dropped 3 prompts over data.max_prompt_length"),
        warnings.toString());
  }

  @Test
  void withoutTheFilterAnOverlongPromptNamesTheKeys(@TempDir Path dir) throws Exception {
    Path file = Files.writeString(dir.resolve("rows.jsonl"), ROWS);
    ConfigException e =
        assertThrows(ConfigException.class, () -> TaskLoader.load(recipe(file, "false")));
    assertTrue(e.getMessage().contains("data.max_prompt_length"), e.getMessage());
    assertTrue(e.getMessage().contains("data.filter_overlong_prompts=true"), e.getMessage());
  }
}
