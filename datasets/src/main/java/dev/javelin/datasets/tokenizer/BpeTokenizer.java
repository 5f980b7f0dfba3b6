package dev.javelin.datasets.tokenizer;

import dev.javelin.datasets.ChatMessage;
import dev.javelin.datasets.Tokenizer;
import dev.javelin.datasets.tokenizer.template.ChatTemplate;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * A Hugging Face {@code tokenizer.json} BPE tokenizer, byte-level (GPT-2/SmolLM2, Qwen2/Qwen3,
 * Llama 3) or SentencePiece-style (Llama 2, Mistral, Gemma), id-for-id with the {@code tokenizers}
 * library: added tokens are cut out first, the rest is normalized as the file says, split by the
 * pre-tokenizer (byte-level: mapped to the byte alphabet; SentencePiece: spaces marked "▁", chars
 * missing from the vocabulary as {@code <0xNN>} bytes) and merged by BPE rank. Thread-safe;
 * instances come from {@link Tokenizers#load}.
 */
public final class BpeTokenizer implements Tokenizer {
  private final TokenizerFile file;
  private final AddedTokenMatcher matcher;
  private final Map<Integer, AddedToken> addedById = new HashMap<>();
  private final Optional<ChatTemplate> template;
  private final Map<String, String> templateVariables;
  private final OptionalInt eos;
  private final OptionalInt pad;
  private final TokenizerConfig config;

  BpeTokenizer(TokenizerFile file, TokenizerConfig config) {
    this.file = file;
    this.config = config;
    this.matcher = new AddedTokenMatcher(file.addedTokens());
    file.addedTokens().forEach(t -> addedById.put(t.id(), t));
    this.template = config.chatTemplate().map(ChatTemplate::compile);
    this.templateVariables = config.specialTokens();
    this.eos = idOfSpecial(config, "eos_token");
    OptionalInt padToken = idOfSpecial(config, "pad_token");
    this.pad = padToken.isPresent() ? padToken : eos;
  }

  private OptionalInt idOfSpecial(TokenizerConfig config, String key) {
    String text = config.specialTokens().get(key);
    if (text == null) {
      return OptionalInt.empty();
    }
    int[] ids = encode(text);
    if (ids.length != 1) {
      throw new IllegalArgumentException(
          "tokenizer_config.json: "
              + key
              + " '"
              + text
              + "' is not a single token of tokenizer.json");
    }
    return OptionalInt.of(ids[0]);
  }

  BpeModel model() {
    return file.model();
  }

  TokenizerFile file() {
    return file;
  }

  TokenizerConfig config() {
    return config;
  }

  /**
   * {@inheritDoc}
   *
   * <p>No BOS/EOS is added: Hugging Face's {@code encode(text, add_special_tokens=False)}, what
   * chat prompts rendered by a template need.
   */
  @Override
  public int[] encode(String text) {
    return encode(text, false);
  }

  /**
   * Encodes {@code text}; with {@code addSpecialTokens}, the post-processor's template ids (e.g.
   * BOS) go around it, as Hugging Face's {@code encode(text)} does by default.
   */
  public int[] encode(String text, boolean addSpecialTokens) {
    IntList out = new IntList();
    if (addSpecialTokens) {
      out.addAll(file.pipeline().prefix());
    }
    matcher.split(
        text,
        new AddedTokenMatcher.Pieces() {
          @Override
          public void text(String s, int from, int to) {
            encodePlain(s.substring(from, to), from == 0, out);
          }

          @Override
          public void token(AddedToken token) {
            out.add(token.id());
          }
        });
    if (addSpecialTokens) {
      out.addAll(file.pipeline().suffix());
    }
    return out.toArray();
  }

  /** Encodes one run between added tokens; {@code atStart}: it starts the input. */
  private void encodePlain(String text, boolean atStart, IntList out) {
    Pipeline pipeline = file.pipeline();
    String s = text;
    for (TextNormalizer step : pipeline.normalizers()) {
      s = step.apply(s);
    }
    if (pipeline.metaspace().isPresent()) {
      s = pipeline.metaspace().get().apply(s, atStart);
    }
    if (pipeline.addPrefixSpace() && !s.isEmpty() && s.charAt(0) != ' ') {
      s = " " + s;
    }
    Splitter split = pipeline.splitter();
    BpeModel model = file.model();
    int pos = 0;
    while (pos < s.length()) {
      int end = split.end(s, pos);
      model.encodeWord(s.substring(pos, end), out);
      pos = end;
    }
  }

  /**
   * {@inheritDoc}
   *
   * <p>Ids outside the vocabulary are skipped, as Hugging Face does (a model's embedding table is
   * often larger than its tokenizer); bytes that do not form valid UTF-8 decode to U+FFFD.
   */
  @Override
  public String decode(int[] ids, boolean skipSpecial) {
    List<String> tokens = new ArrayList<>(ids.length);
    for (int id : ids) {
      AddedToken added = addedById.get(id);
      if (added != null) {
        if (!(skipSpecial && added.special())) {
          tokens.add(added.content());
        }
        continue;
      }
      String token = file.model().token(id); // null when id is outside [0, vocabSize)
      if (token != null) {
        tokens.add(token);
      }
    }
    return file.pipeline().decoder().decode(tokens);
  }

  @Override
  public int vocabSize() {
    return file.vocabSize();
  }

  @Override
  public OptionalInt eosId() {
    return eos;
  }

  @Override
  public OptionalInt padId() {
    return pad;
  }

  /**
   * {@inheritDoc}
   *
   * @throws IllegalStateException when tokenizer_config.json had no chat template
   */
  @Override
  public String applyChatTemplate(
      List<ChatMessage> messages, boolean addGenerationPrompt, Map<String, ?> kwargs) {
    ChatTemplate t =
        template.orElseThrow(
            () ->
                new IllegalStateException(
                    "this tokenizer has no chat_template in tokenizer_config.json"));
    Map<String, Object> variables = new HashMap<>(templateVariables);
    variables.putAll(kwargs); // transformers: {**special_tokens_map, **kwargs}
    return t.render(messages, addGenerationPrompt, variables);
  }
}
