#!/usr/bin/env bash
# One-rank crd discover against sha1sum over the same files, and the 2-rank speedup against the
# machine's own yardstick, measured together in paired alternating runs (perf/paired.py):
#   sha1sum         one sha1sum over every file
#   sha1sum_halves  two sha1sum at once, one per half of the bytes (the yardstick for 2 ranks)
#   crd_direct      crd discover DIR, run directly (no launcher: crd does not start MPI)
#   crd_np1         scripts/mpirun.sh -np 1 crd discover DIR
#   crd_np2         scripts/mpirun.sh -np 2 crd discover DIR
#   crd_tiny        scripts/mpirun.sh -np 1 crd discover ONE_SMALL_FILE: the fixed costs alone
# Prints medians, each phase of the crd jobs (/run/timings) and the paired ratios: crd against
# sha1sum (the goal is ≥ 0.8 both ways), the yardstick's speedup, crd's, and crd's over it.
#
#   perf/side_by_side.sh [-c CRD] [-r REPS] [-o CSV] [-x "EXTRA CRD ARGS"] CORPUS_DIR
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
crd=$root/build/crd
reps=5
csv=$root/perf/out/side_by_side.csv
extra=""
while getopts "c:r:o:x:" opt; do
  case $opt in c) crd=$OPTARG ;; r) reps=$OPTARG ;; o) csv=$OPTARG ;; x) extra=$OPTARG ;; *) sed -n 2,15p "$0"; exit 2 ;; esac
done
shift $((OPTIND - 1))
[ $# -eq 1 ] || { sed -n 2,15p "$0"; exit 2; }
corpus=$1
tmp=$(mktemp -d /tmp/crd-side.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$(dirname "$csv")"
# Every file, and two halves of about equal bytes (largest first, each to the lighter half).
find "$corpus" -type f -printf '%s\t%p\0' | /usr/bin/python3 -c '
import sys
rows = [r.split("\t", 1) for r in sys.stdin.read().split("\0") if r]
rows.sort(key=lambda r: -int(r[0]))
halves, load = ([], []), [0, 0]
for size, path in rows:
    k = 0 if load[0] <= load[1] else 1
    halves[k].append(path)
    load[k] += int(size)
d = sys.argv[1]
open(f"{d}/all", "w").write("\0".join(sorted(p for _, p in rows)) + "\0")
for k in (0, 1):
    open(f"{d}/half{k}", "w").write("\0".join(sorted(halves[k])) + "\0")
print(f"{len(rows)} files, {sum(load)} bytes; halves {load[0]} and {load[1]} bytes", file=sys.stderr)
' "$tmp"
tiny=$(find "$corpus" -type f -name '*.html' -size -8k -print -quit)
mpi="$root/scripts/mpirun.sh"
out="--progress-interval 0 $extra"
/usr/bin/python3 "$root/perf/paired.py" -r "$reps" --csv "$csv" --warm "$corpus" \
  --phases crd_direct="$tmp/d.h5" --phases crd_np1="$tmp/1.h5" --phases crd_np2="$tmp/2.h5" --phases crd_tiny="$tmp/t.h5" \
  --ratio "sha1sum / crd direct (goal ≥ 0.8)=sha1sum/crd_direct" \
  --ratio "sha1sum / crd mpirun -np 1 (goal ≥ 0.8)=sha1sum/crd_np1" \
  --ratio "yardstick: 1 sha1sum / 2 parallel halves=sha1sum/sha1sum_halves" \
  --ratio "crd 2-rank speedup (np1 / np2)=crd_np1/crd_np2" \
  --ratio "crd speedup / yardstick's (goal ≥ 0.9)=crd_np1/crd_np2:sha1sum/sha1sum_halves" \
  -- \
  sha1sum="xargs -0 sha1sum < $tmp/all" \
  sha1sum_halves="xargs -0 sha1sum < $tmp/half0 & xargs -0 sha1sum < $tmp/half1; wait" \
  crd_direct="$crd discover $corpus -o $tmp/d.h5 $out" \
  crd_np1="$mpi -np 1 $crd discover $corpus -o $tmp/1.h5 $out" \
  crd_np2="$mpi -np 2 $crd discover $corpus -o $tmp/2.h5 $out" \
  crd_tiny="$mpi -np 1 $crd discover $tiny -o $tmp/t.h5 $out"
echo "runs: $csv" >&2
