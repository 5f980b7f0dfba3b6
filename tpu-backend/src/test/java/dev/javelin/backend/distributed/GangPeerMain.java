package dev.javelin.backend.distributed;

import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.Arrays;

/**
 * A gang rank in a process of its own, for {@link GangProcessTest}: {@code <port> <rank> <size>
 * <mode>} joins the store on loopback, all-reduces {@code {rank, 10 rank}} and prints the sums;
 * mode {@code die} halts after joining, without a word to the store; mode {@code abort} aborts the
 * gang after joining, as a rank whose own work failed does, and exits.
 */
public final class GangPeerMain {
  private GangPeerMain() {}

  public static void main(String[] args) {
    int port = Integer.parseInt(args[0]);
    int rank = Integer.parseInt(args[1]);
    int size = Integer.parseInt(args[2]);
    Gang g =
        Gang.join(
            rank,
            size,
            new InetSocketAddress(java.net.InetAddress.getLoopbackAddress(), port),
            Duration.ofSeconds(30));
    if (args[3].equals("die")) {
      Runtime.getRuntime().halt(3);
    }
    if (args[3].equals("abort")) {
      g.abort();
      System.out.println("aborted");
      return;
    }
    float[] x = {rank, 10f * rank};
    g.allReduceSum(x);
    System.out.println("sums " + Arrays.toString(x));
    g.close();
  }
}
