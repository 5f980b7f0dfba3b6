package dev.javelin.datasets.load;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.StringReader;
import org.junit.jupiter.api.Test;

class BoundedLineReaderTest {

  @Test
  void splitsLinesAndStripsCarriageReturns() throws IOException {
    BoundedLineReader reader = new BoundedLineReader(new StringReader("a\r\nbb\n\nccc"), 10);
    assertEquals("a", reader.readLine());
    assertEquals("bb", reader.readLine());
    assertEquals("", reader.readLine());
    assertFalse(reader.overlong());
    assertEquals("ccc", reader.readLine());
    assertNull(reader.readLine());
  }

  @Test
  void flagsOverlongLinesAndContinuesAfterThem() throws IOException {
    String huge = "z".repeat(200_000); // spans several internal buffers
    BoundedLineReader reader =
        new BoundedLineReader(new StringReader("ok\n" + huge + "\nnext"), 100);
    assertEquals("ok", reader.readLine());
    assertEquals("", reader.readLine());
    assertTrue(reader.overlong());
    assertEquals("next", reader.readLine());
    assertFalse(reader.overlong());
    assertNull(reader.readLine());
  }

  @Test
  void lineOfExactlyTheBoundIsKept() throws IOException {
    BoundedLineReader reader = new BoundedLineReader(new StringReader("12345\r\n123456\n"), 5);
    assertEquals("12345", reader.readLine());
    assertFalse(reader.overlong());
    assertEquals("", reader.readLine());
    assertTrue(reader.overlong());
  }
}
