package dev.javelin.backend.xla;

/**
 * Host↔device traffic of an {@link XlaDevice} since it opened: what crossed the boundary, so a
 * caller can check that a train or decode step moves only its batch, not the model.
 *
 * @param uploads buffers copied host → device
 * @param uploadedBytes bytes copied host → device
 * @param downloads buffers copied device → host
 * @param downloadedBytes bytes copied device → host
 */
public record Transfers(long uploads, long uploadedBytes, long downloads, long downloadedBytes) {

  /** The traffic between {@code earlier} and this. */
  public Transfers since(Transfers earlier) {
    return new Transfers(
        uploads - earlier.uploads,
        uploadedBytes - earlier.uploadedBytes,
        downloads - earlier.downloads,
        downloadedBytes - earlier.downloadedBytes);
  }

  Transfers plusUpload(long bytes) {
    return new Transfers(uploads + 1, uploadedBytes + bytes, downloads, downloadedBytes);
  }

  Transfers plusDownload(long bytes) {
    return new Transfers(uploads, uploadedBytes, downloads + 1, downloadedBytes + bytes);
  }
}
