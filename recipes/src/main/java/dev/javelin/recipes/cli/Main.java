package dev.javelin.recipes.cli;

import dev.javelin.backend.batch.HeadLogits;
import dev.javelin.backend.model.CausalAttention;
import dev.javelin.backend.model.LayerLoop;
import dev.javelin.recipes.config.ConfigException;
import dev.javelin.recipes.config.RecipeConfig;
import dev.javelin.recipes.config.Recipes;
import dev.javelin.recipes.config.TrainerSection;
import dev.javelin.recipes.config.TrainerSection.RayMode;
import dev.javelin.recipes.jobs.JobsApiException;
import dev.javelin.recipes.ray.ClusterUnreachableException;
import dev.javelin.recipes.ray.TrainerDiedException;
import dev.javelin.rewards.RewardConfigException;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * {@code javelin <command> ...}: the command line. Exit codes: 0 success (for {@code submit}: the
 * job succeeded), 1 the run or job failed or was stopped, 2 bad usage or recipe (the message names
 * the key), 3 the Ray cluster or its dashboard could not be reached or refused a request.
 */
public final class Main {
  /** Exit code of a failed run or job. */
  static final int FAILED = 1;

  /** Exit code of bad usage or a bad recipe. */
  static final int USAGE = 2;

  /** Exit code when the cluster or its dashboard fails us. */
  static final int CLUSTER = 3;

  private static final String USAGE_TEXT =
      """
      usage: javelin <command> [options] <recipe> [key=value ...]
        run  <recipe>               GRPO training (runs the recipe's SFT warm-up first if needed)
        eval <recipe|checkpoint>    validation only (a checkpoint dir reads its run's recipe.yaml)
        sft  <recipe>               cross-entropy warm-up on the dataset's reference answers
        check <recipe> [key=value ...]  resolve and validate only: what takes effect, notes, memory
        recipes                     list the bundled recipes
        report <run dir>            write <run dir>/report.html (charts, recipe, samples; also after run)
        convert <model.gguf|hf dir> <out dir> [--bf16] [--merge <adapter dir>]
                                    write an HF directory transformers loads (weights, tokenizer);
                                    --merge folds a PEFT LoRA adapter into the weights
        submit <recipe>             run it as a Ray job on a cluster, following its logs until it ends
        submit --jar JAR --main CLASS [args]
                                    run your own main class (JAR shipped with Javelin's) as the job's driver
        jobs list|logs <id>|stop <id>   the cluster's jobs
        status                      live step, reward and throughput of the cluster's runs
        heap run|sft|eval <recipe> [key=value ...]
                                    the heap the launcher gives that command (JAVELIN_HEAP unset)
        score <responses.jsonl> --reward NAME [--kwargs k=v,...]
                                    score rows {response, ground_truth, label?}; agreement with labels
        plan <recipe> [key=value ...] --topology v5e-8 [--dump DIR]
                                    compile the recipe's programs for a TPU slice (no TPU needed)
                                    and print per-chip memory, flops and bounds against its HBM;
                                    --dump writes each program's StableHLO into DIR
      options of run, eval, sft:
        --samplers N                trainer.samplers=N
        --device SPEC               trainer.device=SPEC (cpu, xla:cpu, xla:gpu, tpu)
        --ray-address HOST:PORT     on a Ray cluster: trainer.ray=cluster trainer.ray_address=HOST:PORT
      options of submit and jobs:
        --address URL               the cluster's dashboard (default http://127.0.0.1:8265)
        submit --no-wait            print the job id and return instead of following it
        submit --print-ray-command  upload the packages and print the equivalent `ray job submit`
        jobs logs --follow          keep printing until the job ends
      options of status:
        --address HOST:PORT         the cluster's GCS address (default RAY_ADDRESS, else 127.0.0.1:6379)
      A recipe is a YAML file, or a bundled name such as recipes/arith-grpo.yaml.
      Exit codes: 0 ok, 1 run or job failed or stopped, 2 bad usage or recipe, 3 cluster unreachable,
      4 the recipe's programs do not fit the TPU's HBM (plan; run --device tpu checks it first).
      """;

  private Main() {}

  public static void main(String[] args) {
    int code;
    try {
      code = run(args, System.out, System.err);
    } catch (RuntimeException | Error e) {
      // Exit explicitly: Ray's non-daemon threads would otherwise keep a failed run's JVM alive.
      e.printStackTrace();
      code = FAILED;
    }
    System.exit(code);
  }

  /**
   * The JVM properties that choose how programs are built ({@code javelin.layers}, {@code
   * javelin.attention.block}, {@code javelin.head.logits}), read up front: a bad value is one line
   * before any work, not an error at the first program built.
   */
  private static void checkProgramProperties() {
    try {
      LayerLoop.configured();
      CausalAttention.configuredBlock();
      HeadLogits.configured();
    } catch (IllegalArgumentException e) {
      throw new ConfigException(e.getMessage());
    }
  }

  /** Runs a command; returns the exit code. */
  public static int run(String[] args, PrintStream out, PrintStream err) {
    if (args.length == 0 || isHelp(args[0]) || (args.length > 1 && wantsHelp(args))) {
      out.print(USAGE_TEXT);
      return args.length == 0 ? USAGE : 0;
    }
    List<String> rest = Arrays.asList(args).subList(1, args.length);
    try {
      checkProgramProperties();
      return switch (args[0]) {
        case "recipes" -> {
          Recipes.bundled().forEach(r -> out.println(Recipes.BUNDLED_DIR + r + ".yaml"));
          yield 0;
        }
        case "submit" -> new SubmitCommand(out, err).run(new CliOptions("submit", rest));
        case "jobs" -> new JobsCommand(out, err).run(new CliOptions("jobs", rest));
        case "status" -> new StatusCommand(out).run(new CliOptions("status", rest));
        case "run", "sft", "eval" -> local(args[0], rest, out);
        case "convert" -> new ConvertCommand(out).run(rest);
        case "heap" -> new HeapCommand(out).run(rest);
        case "score" -> new ScoreCommand(out).run(rest);
        case "check" -> new CheckCommand(out, err).run(rest);
        case "plan" -> new PlanCommand(out).run(rest);
        case "report" -> {
          if (rest.size() != 1) {
            throw new ConfigException("'report' needs one run directory: javelin report <run dir>");
          }
          new Commands(out).report(rest.get(0));
          yield 0;
        }
        default ->
            throw new ConfigException(
                "unknown command '"
                    + args[0]
                    + "' (use run, eval, sft, check, plan, convert, recipes, report, submit, jobs,"
                    + " status, heap or score)");
      };
    } catch (ConfigException e) {
      err.println("javelin: " + e.getMessage());
      return USAGE;
    } catch (RewardConfigException e) {
      err.println("javelin: " + RecipeConfig.rewardProblem(e).getMessage());
      return USAGE;
    } catch (PlanCommand.DoesNotFit e) {
      err.println("javelin: " + e.getMessage());
      return PlanCommand.DOES_NOT_FIT;
    } catch (JobsApiException | ClusterUnreachableException e) {
      err.println("javelin: " + e.getMessage());
      return CLUSTER;
    } catch (TrainerDiedException e) {
      err.println("javelin: " + e.getMessage()); // the run failed: one line, no Ray trace
      return FAILED;
    } catch (RuntimeException e) {
      // A bad file or key found by a worker or deep in a loader: its message, not a stack trace.
      RuntimeException bad = BadInput.in(e).orElseThrow(() -> e);
      err.println("javelin: " + BadInput.message(bad));
      return USAGE;
    }
  }

  private static boolean isHelp(String a) {
    return a.equals("-h") || a.equals("--help") || a.equals("help");
  }

  /** {@code javelin run --help}: a help flag before any recipe or key. */
  private static boolean wantsHelp(String[] args) {
    return args[1].equals("-h") || args[1].equals("--help");
  }

  private static int local(String command, List<String> rest, PrintStream out) {
    if (rest.isEmpty()) {
      throw new ConfigException("'" + command + "' needs a recipe\n" + USAGE_TEXT);
    }
    List<String> overrides = overrides(rest.subList(1, rest.size()));
    Commands commands = new Commands(out);
    boolean stopped =
        switch (command) {
          case "run" -> commands.run(rest.get(0), overrides).stopped();
          case "sft" -> commands.sft(rest.get(0), overrides).stopped();
          default -> {
            commands.eval(rest.get(0), overrides);
            yield false;
          }
        };
    return stopped ? FAILED : 0; // a run stopped by Ctrl-C did not finish: exit 1, as --help says
  }

  /**
   * The {@code key=value} arguments after {@code <command> <recipe>}, with {@code --samplers N},
   * {@code --device SPEC} and {@code --ray-address X} turned into keys.
   */
  static List<String> overrides(String[] args) {
    return overrides(Arrays.asList(args).subList(Math.min(2, args.length), args.length));
  }

  /** The same for the arguments after the recipe. */
  static List<String> overrides(List<String> args) {
    List<String> out = new ArrayList<>();
    for (int i = 0; i < args.size(); i++) {
      String a = args.get(i);
      String option = a.contains("=") ? a.substring(0, a.indexOf('=')) : a;
      if (option.equals("--samplers")
          || option.equals("--device")
          || option.equals("--ray-address")) {
        String value;
        if (a.contains("=")) {
          value = a.substring(a.indexOf('=') + 1);
        } else if (i + 1 < args.size()) {
          value = args.get(++i);
        } else {
          throw new ConfigException(a + " needs a value");
        }
        if (option.equals("--samplers")) {
          out.add(TrainerSection.SAMPLERS.assign(value));
        } else if (option.equals("--device")) {
          out.add(TrainerSection.DEVICE.assign(value));
        } else {
          out.add(TrainerSection.RAY.assign(RayMode.CLUSTER.key()));
          out.add(TrainerSection.RAY_ADDRESS.assign(value));
        }
      } else if (a.startsWith("--")) {
        throw new ConfigException(
            "unknown option "
                + a
                + " (--samplers N, --device SPEC, --ray-address HOST:PORT; --help lists all)");
      } else {
        out.add(a);
      }
    }
    return out;
  }
}
