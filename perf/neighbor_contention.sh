#!/usr/bin/env bash
# What a busy neighbor core costs a one-rank job: crd discover (and sha1sum, the yardstick's
# program) on core 0, alone and while core 1 runs crd or sha1sum over the same corpus in a loop.
# Two ranks of crd are two such neighbors: a slowdown here is a cap on the 2-rank speedup that
# no division of the work removes (the ranks share the last-level cache and memory bandwidth).
# Paired, alternating runs (perf/paired.py); prints medians and each job's slowdown.
#
#   perf/neighbor_contention.sh [-c CRD] [-r REPS] CORPUS_DIR
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
crd=$root/build/crd
reps=6
while getopts "c:r:" opt; do
  case $opt in c) crd=$OPTARG ;; r) reps=$OPTARG ;; *) sed -n 2,8p "$0"; exit 2 ;; esac
done
shift $((OPTIND - 1))
[ $# -eq 1 ] || { sed -n 2,8p "$0"; exit 2; }
corpus=$(cd "$1" && pwd)
[ "$(nproc)" -ge 2 ] || { echo "neighbor_contention.sh: needs two cores" >&2; exit 2; }
tmp=$(mktemp -d /tmp/crd-neighbor.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
find "$corpus" -type f -print0 > "$tmp/all"

job_crd="taskset -c 0 $crd discover $corpus -o $tmp/job.h5 --progress-interval 0 --reader-thread off"
job_sha="taskset -c 0 xargs -0 sha1sum < $tmp/all"
# The neighbor runs in its own session, so that killing it ends the loop and what it started.
loop_crd="$crd discover $corpus -o $tmp/neighbor.h5 --progress-interval 0 --reader-thread off > /dev/null 2>&1"
loop_sha="xargs -0 sha1sum < $tmp/all > /dev/null"
with() {  # with NEIGHBOR_COMMAND JOB
  echo "taskset -c 1 setsid bash -c 'while :; do $1; done' & n=\$!; $2; kill -- -\$n; wait \$n || true"
}
/usr/bin/python3 "$root/perf/paired.py" -r "$reps" --warm "$corpus" \
  --ratio "crd slowed by a crd neighbor=crd_by_crd/crd_alone" \
  --ratio "crd slowed by a sha1sum neighbor=crd_by_sha1sum/crd_alone" \
  --ratio "sha1sum slowed by a sha1sum neighbor=sha1sum_by_sha1sum/sha1sum_alone" \
  -- \
  crd_alone="$job_crd" \
  crd_by_crd="$(with "$loop_crd" "$job_crd")" \
  crd_by_sha1sum="$(with "$loop_sha" "$job_crd")" \
  sha1sum_alone="$job_sha" \
  sha1sum_by_sha1sum="$(with "$loop_sha" "$job_sha")"
