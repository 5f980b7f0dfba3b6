package dev.javelin.datasets.load;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.javelin.datasets.ChatMessage;
import dev.javelin.datasets.DatasetException;
import dev.javelin.datasets.DatasetSpec;
import dev.javelin.datasets.Example;
import dev.javelin.datasets.FieldMapping;
import dev.javelin.datasets.LoadResult;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Loads one JSON object per line, picking question and answer through a {@link FieldMapping}.
 *
 * <p>Row numbers are 1-based line numbers; blank lines are ignored. The example's {@code extraInfo}
 * holds {@code index} (0-based data row) followed by every non-null field of the row.
 */
public final class JsonlLoader {
  private JsonlLoader() {}

  /** Reads {@code spec.path()}; see {@link dev.javelin.datasets.Datasets#load}. */
  public static LoadResult load(DatasetSpec spec) {
    DatasetFiles.requireReadable(spec.path());
    // InputStreamReader replaces malformed UTF-8 instead of failing the whole file.
    try (Reader reader =
        new InputStreamReader(Files.newInputStream(spec.path()), StandardCharsets.UTF_8)) {
      return new Run(spec).readAll(new BoundedLineReader(reader, spec.limits().maxRowChars()));
    } catch (IOException e) {
      throw new DatasetException("cannot read dataset file " + spec.path() + ": " + e, e);
    }
  }

  /** State of one load. */
  private static final class Run {
    private final DatasetSpec spec;
    private final FieldMapping fields;
    private final ObjectMapper mapper;
    private final RowErrors errors;
    private final List<Example> examples = new ArrayList<>();
    private boolean columnsChecked;

    Run(DatasetSpec spec) {
      this.spec = spec;
      this.fields = spec.fields();
      this.mapper = JsonValues.boundedMapper(spec.limits().maxRowChars());
      this.errors = new RowErrors(spec.path());
    }

    LoadResult readAll(BoundedLineReader lines) throws IOException {
      int maxRows = spec.limits().maxRows();
      long lineNumber = 0;
      int rows = 0;
      String line;
      while (rows < maxRows && (line = lines.readLine()) != null) {
        lineNumber++;
        if (!lines.overlong() && line.isBlank()) {
          continue;
        }
        int index = rows++;
        try {
          if (lines.overlong()) {
            throw new MalformedRowException(
                "line longer than maxRowChars=" + spec.limits().maxRowChars());
          }
          examples.add(convert(parse(line, lineNumber), index));
        } catch (MalformedRowException e) {
          errors.skip(lineNumber, e.getMessage());
        }
      }
      return errors.result(examples);
    }

    private JsonNode parse(String line, long lineNumber) throws MalformedRowException {
      JsonNode node;
      try {
        node = mapper.readTree(line);
      } catch (JsonProcessingException e) {
        throw new MalformedRowException("invalid JSON: " + e.getOriginalMessage());
      }
      if (node == null || !node.isObject()) {
        throw new MalformedRowException("not a JSON object");
      }
      if (!columnsChecked) {
        requireColumn(node, fields.question(), lineNumber);
        requireColumn(node, fields.answer(), lineNumber);
        columnsChecked = true;
      }
      return node;
    }

    /** A field absent from the first row is a mapping error, not a bad row: stop and name it. */
    private void requireColumn(JsonNode firstRow, String column, long lineNumber) {
      if (!firstRow.has(column)) {
        List<String> present = new ArrayList<>();
        firstRow.fieldNames().forEachRemaining(present::add);
        throw new DatasetException(
            "column '"
                + column
                + "' not found in "
                + spec.path()
                + " (first row, line "
                + lineNumber
                + ", has "
                + present
                + "); check the field mapping");
      }
    }

    private Example convert(JsonNode row, int index) throws MalformedRowException {
      String question = textField(row, fields.question());
      String rawAnswer = textField(row, fields.answer());
      String groundTruth =
          fields
              .extractor()
              .extract(rawAnswer)
              .orElseThrow(
                  () ->
                      new MalformedRowException(
                          "no ground truth in field '"
                              + fields.answer()
                              + "' ("
                              + fields.extractor()
                              + ")"));
      List<ChatMessage> prompt = spec.template().render(question);
      PromptBounds.check(prompt, spec.limits().maxPromptChars());
      Map<String, Object> extraInfo = new LinkedHashMap<>();
      extraInfo.put("index", (long) index);
      JsonValues.toMap(row).forEach(extraInfo::putIfAbsent);
      String dataSource = spec.dataSource();
      return new Example(
          Example.uid(dataSource, index, prompt, groundTruth),
          dataSource,
          prompt,
          groundTruth,
          extraInfo);
    }

    private static String textField(JsonNode row, String name) throws MalformedRowException {
      String text = JsonValues.scalarText(row.get(name));
      if (text == null) {
        throw new MalformedRowException("field '" + name + "' is missing, null or not a scalar");
      }
      return text;
    }
  }
}
