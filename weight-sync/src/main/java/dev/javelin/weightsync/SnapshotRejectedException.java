package dev.javelin.weightsync;

/** A well-formed snapshot that a receiver refuses to load; the current weights stay in place. */
public final class SnapshotRejectedException extends RuntimeException {
  /** Why a snapshot was refused. */
  public enum Reason {
    /** Its version is not newer than the loaded one: samplers never go back. */
    STALE,
    /** Its tensor names, shapes or types differ from the model's. */
    LAYOUT,
    /** Its payload does not match its checksum. */
    CHECKSUM,
    /** It carries LoRA adapters only and the receiver holds no base weights to apply them to. */
    NO_BASE
  }

  private final Reason reason;

  public SnapshotRejectedException(Reason reason, String message) {
    super(reason + ": " + message);
    this.reason = reason;
  }

  public Reason reason() {
    return reason;
  }
}
