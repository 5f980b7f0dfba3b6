package dev.javelin.recipes.jobs;

import dev.javelin.recipes.ray.JvmOpens;

/**
 * {@code bin/javelin-job.sh}, the entrypoint shipped in a job's working dir. It rebuilds the class
 * path on the node where the job runs: the job's {@code java_jars} packages (Ray unpacks them under
 * the node's {@code runtime_resources/java_jars_files/}, next to {@code working_dir_files/} that
 * holds this script) behind the cluster's own {@code ray_dist.jar}, which it finds in the ray
 * package of the job supervisor (the Ray worker process it descends from) unless {@code
 * JAVELIN_RAY_JAR} names it. It runs in the submitter's directory ({@code JAVELIN_JOB_CWD}) when
 * the node has it (one machine, or a shared file system), so that relative paths in a recipe, such
 * as the warm-up checkpoint {@code checkpoints/javelin/arith-sft/model}, are the ones {@code
 * ./javelin run} would use; otherwise in the job's working dir.
 */
final class LauncherScript {
  /** Path of the script inside the working-dir package. */
  static final String PATH = "bin/javelin-job.sh";

  static final String TEXT =
      """
      #!/bin/sh
      # Runs the Javelin CLI inside a Ray job (written by `javelin submit`; see LauncherScript.java).
      #   sh bin/javelin-job.sh run <recipe> [key=value ...]
      # (or, with JAVELIN_JOB_MAIN set, that main class of the user's jar with these arguments)
      # Env: JAVELIN_JOB_JARS (the java_jars package folders, set in the job's runtime env),
      # JAVELIN_JOB_CWD (the submitter's directory), JAVELIN_RAY_JAR (default: the ray_dist.jar of
      # the Ray that runs this job), JAVELIN_HEAP (4g).
      set -eu
      here=$(cd "$(dirname "$0")/.." && pwd)
      resources=$(cd "$here/../.." && pwd)
      cp=""
      for pkg in ${JAVELIN_JOB_JARS:?the runtime env must set JAVELIN_JOB_JARS}; do
        dir="$resources/java_jars_files/$pkg"
        if [ ! -d "$dir" ]; then
          echo "javelin-job: java_jars package $pkg is not unpacked at $dir" >&2
          exit 1
        fi
        cp="$cp:$dir/*"
      done
      jar="${JAVELIN_RAY_JAR:-}"
      # The job supervisor above this script is a Ray Python worker (.../ray/_private/workers/
      # default_worker.py): its ray package holds the cluster's jar. (RAY_RAYLET_PID, used before,
      # is no longer passed to job entrypoints from Ray 2.60 on.)
      p=$PPID
      while [ -z "$jar" ] && [ "${p:-1}" -gt 1 ]; do
        for arg in $(tr '\\0' ' ' < "/proc/$p/cmdline" 2>/dev/null || true); do
          case "$arg" in
            */ray/_private/workers/default_worker.py)
              jar="${arg%/_private/workers/default_worker.py}/jars/ray_dist.jar" ;;
          esac
        done
        p=$(awk '/^PPid:/ {print $2}' "/proc/$p/status" 2>/dev/null || echo 1)
      done
      if [ ! -f "$jar" ]; then
        echo "javelin-job: cannot find Ray's ray_dist.jar (tried '$jar'): set JAVELIN_RAY_JAR" >&2
        exit 1
      fi
      # The shipped recipe by absolute path, then run where the submitter ran (when this node has
      # that directory), so relative paths in the recipe mean what they mean for ./javelin run.
      n=$#
      for a in "$@"; do
        case "$a" in recipe/*) if [ -f "$here/$a" ]; then a="$here/$a"; fi ;; esac
        set -- "$@" "$a"
      done
      shift "$n"
      if [ -n "${JAVELIN_JOB_CWD:-}" ]; then
        if [ -d "$JAVELIN_JOB_CWD" ]; then
          cd "$JAVELIN_JOB_CWD"
        else
          echo "javelin-job: $JAVELIN_JOB_CWD is not on this node; relative paths resolve in $here" >&2
        fi
      fi
      exec java @OPENS@ \\
        -Xmx"${JAVELIN_HEAP:-4g}" -Djava.util.logging.SimpleFormatter.format='%4$s %3$s: %5$s%6$s%n' \\
        -cp "$jar$cp" "${JAVELIN_JOB_MAIN:-dev.javelin.recipes.cli.Main}" "$@"
      """
          .replace("@OPENS@", JvmOpens.inline());

  private LauncherScript() {}
}
