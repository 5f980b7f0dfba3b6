#!/usr/bin/env bash
# stale-sources.sh ROOT STAMP: prints the first build input under ROOT newer than STAMP (nothing when
# the build is current). Build inputs are the poms and each module's src/ tree (modules inside a
# module's folder too, as tpu-backend/core); run directories,
# checkpoints and recipe.yaml copies written anywhere else never count.
set -euo pipefail
ROOT="$1"
STAMP="$2"
find "$ROOT" -maxdepth 3 -name pom.xml -not -path "*/target/*" -newer "$STAMP" -print -quit
for src in "$ROOT"/*/src "$ROOT"/*/*/src; do
  [[ -d "$src" ]] || continue
  find "$src" -path '*/target' -prune -o -type f -newer "$STAMP" -print -quit
done | head -n 1
