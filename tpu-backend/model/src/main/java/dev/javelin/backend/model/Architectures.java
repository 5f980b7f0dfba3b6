package dev.javelin.backend.model;

import java.util.List;
import java.util.Optional;

/** The registry of model families: every {@link Architecture} Javelin can load, train and save. */
public final class Architectures {
  private Architectures() {}

  /** Every family, in the order messages list them. */
  public static final List<Architecture> ALL =
      List.of(
          LlamaFamily.LLAMA,
          LlamaFamily.QWEN2,
          Qwen3Family.QWEN3,
          Qwen3MoeFamily.QWEN3_MOE,
          Gemma3Family.GEMMA3);

  /** The {@code model_type}s, for messages and recipe key validation. */
  public static List<String> modelTypes() {
    return ALL.stream().map(Architecture::modelType).toList();
  }

  /** The family of a config.json {@code model_type}, if supported. */
  public static Optional<Architecture> byModelType(String modelType) {
    return ALL.stream().filter(a -> a.modelType().equals(modelType)).findFirst();
  }

  /**
   * The family of {@code modelType}.
   *
   * @throws IllegalArgumentException naming the supported types when it is none of them
   */
  public static Architecture of(String modelType) {
    return byModelType(modelType)
        .orElseThrow(
            () ->
                new IllegalArgumentException(
                    "model_type '" + modelType + "' is not supported " + modelTypes()));
  }

  /** The family of a GGUF {@code general.architecture}, if supported. */
  public static Optional<Architecture> byGguf(String ggufArchitecture) {
    return ALL.stream().filter(a -> a.ggufArchitecture().equals(ggufArchitecture)).findFirst();
  }

  /** The GGUF {@code general.architecture} values, for messages. */
  public static List<String> ggufArchitectures() {
    return ALL.stream().map(Architecture::ggufArchitecture).toList();
  }
}
