package dev.javelin.datasets.tokenizer;

import java.util.ArrayList;
import java.util.List;

/**
 * One step of a SentencePiece-style {@code decoder}: maps the token strings to new strings, as
 * Hugging Face's {@code decode_chain} does; the decoder joins what the last step leaves.
 */
sealed interface DecodeStep {
  List<String> apply(List<String> tokens);

  /** Replaces the literal {@code pattern} in every token (e.g. "▁" by " "). */
  record Replace(String pattern, String content) implements DecodeStep {
    @Override
    public List<String> apply(List<String> tokens) {
      List<String> out = new ArrayList<>(tokens.size());
      tokens.forEach(t -> out.add(t.replace(pattern, content)));
      return out;
    }
  }

  /**
   * Each run of {@code <0xNN>} tokens becomes the text its bytes spell; a run that is not valid
   * UTF-8 becomes one U+FFFD per byte, as Hugging Face does.
   */
  record ByteFallback() implements DecodeStep {
    @Override
    public List<String> apply(List<String> tokens) {
      List<String> out = new ArrayList<>(tokens.size());
      ByteLevel.ByteSink run = new ByteLevel.ByteSink();
      for (String token : tokens) {
        int b = byteOf(token);
        if (b >= 0) {
          run.write(b);
          continue;
        }
        flush(run, out);
        out.add(token);
      }
      flush(run, out);
      return out;
    }

    private static void flush(ByteLevel.ByteSink run, List<String> out) {
      if (run.size() > 0) {
        out.add(run.isValidUtf8() ? run.toText() : "\uFFFD".repeat(run.size()));
        run.clear();
      }
    }

    /** The byte of a {@code <0xNN>} token, or -1 for any other token. */
    private static int byteOf(String token) {
      if (token.length() != 6 || !token.startsWith("<0x") || token.charAt(5) != '>') {
        return -1;
      }
      int hi = Character.digit(token.charAt(3), 16);
      int lo = Character.digit(token.charAt(4), 16);
      return hi < 0 || lo < 0 || token.charAt(3) > 'f' || token.charAt(4) > 'f' ? -1 : hi * 16 + lo;
    }
  }

  /** Joins all tokens into one. */
  record Fuse() implements DecodeStep {
    @Override
    public List<String> apply(List<String> tokens) {
      return List.of(String.join("", tokens));
    }
  }

  /**
   * Removes up to {@code start} leading and {@code stop} trailing {@code content} chars per token.
   */
  record Strip(int content, int start, int stop) implements DecodeStep {
    @Override
    public List<String> apply(List<String> tokens) {
      List<String> out = new ArrayList<>(tokens.size());
      for (String token : tokens) {
        int[] cps = token.codePoints().toArray();
        int from = 0;
        while (from < Math.min(start, cps.length) && cps[from] == content) {
          from++;
        }
        int to = cps.length;
        while (cps.length - to < stop && to > from && cps[to - 1] == content) {
          to--;
        }
        out.add(new String(cps, from, to - from));
      }
      return out;
    }
  }

  /**
   * Metaspace's decoder: markers become spaces, except that in the first token they are dropped
   * when a marker was prepended while encoding (scheme first or always).
   */
  record MetaspaceDecode(Metaspace metaspace) implements DecodeStep {
    @Override
    public List<String> apply(List<String> tokens) {
      List<String> out = new ArrayList<>(tokens.size());
      for (int i = 0; i < tokens.size(); i++) {
        boolean drop = i == 0 && metaspace.scheme() != Metaspace.Prepend.NEVER;
        out.add(tokens.get(i).replace(metaspace.replacement(), drop ? "" : " "));
      }
      return out;
    }
  }
}
