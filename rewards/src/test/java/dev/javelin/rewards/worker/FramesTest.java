package dev.javelin.rewards.worker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.math.BigInteger;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The workers' frames and JSON: round trips, and untrusted bytes refused with bounds checks. */
class FramesTest {

  private static DataInputStream bytes(byte[] b) {
    return new DataInputStream(new ByteArrayInputStream(b));
  }

  @Test
  void valuesRoundTripWithTheTypesRewardsSeeInProcess() throws IOException {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("t", "x");
    m.put("int", 7);
    m.put("long", 1L << 40);
    m.put("big", new BigInteger("123456789012345678901234567890"));
    m.put("double", 0.25);
    m.put("nan", Double.NaN);
    m.put(
        "text",
        "quote \" backslash \\ newline \n lone \uD800 surrogate, ünïcödé, a pair \uD83D\uDE00 and a lone low \uDC00");
    m.put("list", List.of(true, false, List.of()));
    m.put("null", null);
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    Frames.write(new DataOutputStream(out), m);
    Map<String, Object> back = Frames.read(bytes(out.toByteArray()), 1 << 20);
    assertEquals(7, back.get("int"));
    assertEquals(1L << 40, back.get("long"));
    assertEquals(m.get("big"), back.get("big"));
    assertEquals(0.25, back.get("double"));
    assertNull(back.get("nan"));
    assertEquals(m.get("text"), back.get("text"));
    assertEquals(m.get("list"), back.get("list"));
    assertTrue(back.containsKey("null"));
  }

  @Test
  void cleanEndIsNullAndBadFramesAreRefused() throws IOException {
    assertNull(Frames.read(bytes(new byte[0]), 100));
    // A length over the limit, a negative length, a frame cut short, text that is not an object.
    assertThrows(IOException.class, () -> Frames.read(bytes(new byte[] {0, 0, 1, 0}), 100));
    assertThrows(IOException.class, () -> Frames.read(bytes(new byte[] {-1, -1, -1, -1}), 100));
    assertThrows(IOException.class, () -> Frames.read(bytes(new byte[] {0, 0, 0, 9, '{'}), 100));
    assertThrows(IOException.class, () -> Frames.read(bytes(new byte[] {0, 0, 0, 2, '[', ']'}), 9));
    assertThrows(IOException.class, () -> Frames.read(bytes(new byte[] {0, 0}), 100));
  }

  @Test
  void deepOrMalformedJsonIsRefused() {
    assertThrows(
        IllegalArgumentException.class, () -> Json.read("[".repeat(100) + "]".repeat(100)));
    for (String bad : List.of("{", "{\"a\"}", "[1,]", "\"\\x\"", "tru", "1 2", "\"\\u12\"", "-")) {
      assertThrows(IllegalArgumentException.class, () -> Json.read(bad), bad);
    }
    assertEquals(Map.of("a", List.of(1, -2.5e3)), Json.read(" {\"a\" : [1, -2.5e3]} "));
  }

  @Test
  void malformedResultsFromAWorkerAreErrorsNotScores() {
    List<Wire.Item> items =
        Wire.items(
            Json.readObject(
                "{\"items\":[{\"s\":1.5},{\"s\":\"1\"},{\"e\":\"boom\"},7,{\"s\":1,\"x\":3}]}"));
    assertEquals(1.5, ((Wire.Scored) items.get(0)).result().score());
    assertTrue(items.get(1) instanceof Wire.Failed);
    assertEquals("boom", ((Wire.Failed) items.get(2)).message());
    assertTrue(items.get(3) instanceof Wire.Failed);
    assertTrue(items.get(4) instanceof Wire.Failed);
  }
}
