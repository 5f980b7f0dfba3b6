package dev.javelin.backend.cpu;

/**
 * Evaluates a fused elementwise expression into its materialised result, block by block, the blocks
 * split across the workers.
 */
final class FusedKernel implements Kernel {
  /** At least this many blocks per worker, so thread hand-off stays small next to the work. */
  private static final int GRAIN_BLOCKS = 8;

  private final int out;
  private final int size;
  private final BlockProgram program;
  private final Parallel parallel;
  private final BlockProgram.Scratch[] scratch;

  FusedKernel(int out, int size, BlockProgram program, Parallel parallel) {
    this.out = out;
    this.size = size;
    this.program = program;
    this.parallel = parallel;
    this.scratch = new BlockProgram.Scratch[parallel.threads()];
    for (int w = 0; w < scratch.length; w++) {
      scratch[w] = program.newScratch();
    }
  }

  @Override
  public void run(Frame frame) {
    Object dest = frame.values[out];
    int blocks = (size + BlockProgram.BLOCK - 1) / BlockProgram.BLOCK;
    parallel.forRange(
        blocks,
        GRAIN_BLOCKS,
        (w, from, to) -> {
          BlockProgram.Scratch s = scratch[w];
          for (int b = from; b < to; b++) {
            int start = b * BlockProgram.BLOCK;
            int n = Math.min(BlockProgram.BLOCK, size - start);
            program.eval(frame, s, start, n, dest, start);
          }
        });
    BlockProgram.Scratch.release(scratch);
  }

  @Override
  public int[] reads() {
    return program.reads();
  }

  @Override
  public int writes() {
    return out;
  }

  @Override
  public String toString() {
    return "Fused[%" + out + " <- " + program + "]";
  }
}
