package dev.javelin.backend.cpu;

import java.util.Optional;
import org.bytedeco.javacpp.FloatPointer;
import org.bytedeco.javacpp.Loader;
import org.bytedeco.openblas.global.openblas_nolapack;

/**
 * OpenBLAS through JavaCPP. OpenBLAS is pinned to one thread: the cpu device splits each matrix
 * product across its own workers, so BLAS threads never compete with Java threads for the cores.
 */
final class Blas {
  private static volatile Optional<String> loadFailure;

  private Blas() {}

  /** Empty when OpenBLAS loaded; otherwise why not. Loads it on first call. */
  static synchronized Optional<String> load() {
    if (loadFailure == null) {
      try {
        Loader.load(openblas_nolapack.class);
        openblas_nolapack.blas_set_num_threads(1);
        loadFailure = Optional.empty();
      } catch (UnsatisfiedLinkError | RuntimeException e) {
        loadFailure = Optional.of("OpenBLAS native library failed to load: " + e);
      }
    }
    return loadFailure;
  }

  /**
   * Row-major {@code C = op(A) op(B)} with {@code op(A)} m x k and {@code op(B)} k x n, at the
   * pointers' positions.
   */
  static void sgemm(
      boolean transA,
      boolean transB,
      int m,
      int n,
      int k,
      FloatPointer a,
      int lda,
      FloatPointer b,
      int ldb,
      FloatPointer c,
      int ldc) {
    openblas_nolapack.cblas_sgemm(
        openblas_nolapack.CblasRowMajor,
        transA ? openblas_nolapack.CblasTrans : openblas_nolapack.CblasNoTrans,
        transB ? openblas_nolapack.CblasTrans : openblas_nolapack.CblasNoTrans,
        m,
        n,
        k,
        1f,
        a,
        lda,
        b,
        ldb,
        0f,
        c,
        ldc);
  }
}
