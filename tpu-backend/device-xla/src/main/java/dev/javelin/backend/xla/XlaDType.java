package dev.javelin.backend.xla;

import dev.javelin.backend.DType;

/** Maps Javelin element types to {@code PJRT_Buffer_Type} values of pjrt_c_api.h. */
final class XlaDType {
  private XlaDType() {}

  static int pjrtType(DType dtype) {
    return switch (dtype) {
      case PRED -> 1; // PJRT_Buffer_Type_PRED
      case I32 -> 4; // PJRT_Buffer_Type_S32
      case F32 -> 11; // PJRT_Buffer_Type_F32
      case BF16 -> 13; // PJRT_Buffer_Type_BF16
      case F64 -> 12; // PJRT_Buffer_Type_F64
    };
  }
}
