package dev.javelin.datasets.tokenizer;

import dev.javelin.datasets.ChatMessage;
import dev.javelin.datasets.Tokenizer;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;

/**
 * One id per character over a fixed alphabet, for tiny models on synthetic arithmetic ({@code
 * 123+456=} → {@code 579}). Ids: {@code <pad>}=0, {@code <bos>}=1, {@code <eos>}=2, then newline,
 * space, digits, operators and ASCII letters in {@link #ALPHABET} order. The chat template
 * concatenates the user messages and has an empty generation prompt.
 */
public final class CharTokenizer implements Tokenizer {
  /** The characters after the three specials, in id order. */
  public static final String ALPHABET =
      "\n 0123456789+-*/=()<>.,:;?!%^_'\"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ";

  public static final int PAD = 0;
  public static final int BOS = 1;
  public static final int EOS = 2;
  private static final String[] SPECIALS = {"<pad>", "<bos>", "<eos>"};
  private static final int[] CHAR_TO_ID = new int[128];

  static {
    java.util.Arrays.fill(CHAR_TO_ID, -1);
    for (int i = 0; i < ALPHABET.length(); i++) {
      CHAR_TO_ID[ALPHABET.charAt(i)] = SPECIALS.length + i;
    }
  }

  CharTokenizer() {}

  /**
   * {@inheritDoc}
   *
   * @throws IllegalArgumentException naming the first character outside the alphabet
   */
  @Override
  public int[] encode(String text) {
    IntList ids = new IntList();
    int i = 0;
    while (i < text.length()) {
      int special = specialAt(text, i);
      if (special >= 0) {
        ids.add(special);
        i += SPECIALS[special].length();
        continue;
      }
      char c = text.charAt(i);
      int id = c < CHAR_TO_ID.length ? CHAR_TO_ID[c] : -1;
      if (id < 0) {
        throw new IllegalArgumentException(
            String.format(
                "character tokenizer: U+%04X '%c' at index %d is not in its alphabet",
                (int) c, c, i));
      }
      ids.add(id);
      i++;
    }
    return ids.toArray();
  }

  private static int specialAt(String text, int i) {
    if (text.charAt(i) != '<') {
      return -1;
    }
    for (int s = 0; s < SPECIALS.length; s++) {
      if (text.startsWith(SPECIALS[s], i)) {
        return s;
      }
    }
    return -1;
  }

  /**
   * {@inheritDoc}
   *
   * @throws IllegalArgumentException for an id outside {@code [0, vocabSize())}
   */
  @Override
  public String decode(int[] ids, boolean skipSpecial) {
    StringBuilder sb = new StringBuilder(ids.length);
    for (int id : ids) {
      if (id < 0 || id >= vocabSize()) {
        throw new IllegalArgumentException(
            "character tokenizer: id " + id + " is outside [0, " + vocabSize() + ")");
      }
      if (id < SPECIALS.length) {
        if (!skipSpecial) {
          sb.append(SPECIALS[id]);
        }
      } else {
        sb.append(ALPHABET.charAt(id - SPECIALS.length));
      }
    }
    return sb.toString();
  }

  @Override
  public int vocabSize() {
    return SPECIALS.length + ALPHABET.length();
  }

  @Override
  public OptionalInt eosId() {
    return OptionalInt.of(EOS);
  }

  @Override
  public OptionalInt padId() {
    return OptionalInt.of(PAD);
  }

  @Override
  public String applyChatTemplate(
      List<ChatMessage> messages, boolean addGenerationPrompt, Map<String, ?> kwargs) {
    StringBuilder sb = new StringBuilder();
    for (ChatMessage m : messages) {
      if (m.role().equals("user")) {
        sb.append(m.content());
      }
    }
    return sb.toString();
  }
}
