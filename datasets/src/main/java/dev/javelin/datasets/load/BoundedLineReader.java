package dev.javelin.datasets.load;

import java.io.IOException;
import java.io.Reader;

/**
 * Reads lines like {@link java.io.BufferedReader#readLine()}, but never holds more than {@code
 * maxChars} of one line: a longer line is consumed and flagged by {@link #overlong()}, so that a
 * corrupt file with no newlines cannot exhaust memory.
 */
final class BoundedLineReader {

  private final Reader reader;
  private final int maxChars;
  private final char[] buffer = new char[64 * 1024];
  private int start;
  private int end;
  private final StringBuilder line = new StringBuilder();
  private boolean lastOverlong;

  BoundedLineReader(Reader reader, int maxChars) {
    this.reader = reader;
    this.maxChars = maxChars;
  }

  /** Whether the line last returned was longer than the bound (it is then returned empty). */
  boolean overlong() {
    return lastOverlong;
  }

  /** The next line without its terminator, or null at end of input. */
  String readLine() throws IOException {
    line.setLength(0);
    boolean overlong = false;
    boolean sawAny = false;
    while (true) {
      if (start == end && !fill()) {
        return sawAny ? finish(overlong) : null;
      }
      sawAny = true;
      int newline = indexOfNewline();
      int stop = newline < 0 ? end : newline;
      if (!overlong) {
        if (line.length() + (stop - start) > maxChars + 1) { // +1 leaves room for a '\r'
          overlong = true;
          line.setLength(0);
        } else {
          line.append(buffer, start, stop - start);
        }
      }
      if (newline >= 0) {
        start = newline + 1;
        return finish(overlong);
      }
      start = end;
    }
  }

  private String finish(boolean overlong) {
    int length = line.length();
    if (length > 0 && line.charAt(length - 1) == '\r') {
      line.setLength(length - 1);
    }
    lastOverlong = overlong || line.length() > maxChars;
    return lastOverlong ? "" : line.toString();
  }

  private int indexOfNewline() {
    for (int i = start; i < end; i++) {
      if (buffer[i] == '\n') {
        return i;
      }
    }
    return -1;
  }

  private boolean fill() throws IOException {
    int read = reader.read(buffer, 0, buffer.length);
    if (read <= 0) {
      return false;
    }
    start = 0;
    end = read;
    return true;
  }
}
