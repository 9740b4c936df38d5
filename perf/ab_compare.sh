#!/usr/bin/env bash
# Two crd binaries on the same job, alternating (old, new, old, new, …) so that both meet the
# machine's slow and fast spells alike; prints the medians and the median of each pair's ratio.
#
#   perf/ab_compare.sh -a OLD_CRD -b NEW_CRD [-r REPS] [-n RANKS] [-m COMMAND] [-x "ARGS"] INPUT…
#
# Each job is `scripts/mpirun.sh -np RANKS CRD COMMAND INPUT… ARGS -o OUT.h5 --progress-interval 0`;
# the wall time is the shell's around mpirun, the phases come from the result's /run/timings.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
old="" new="" reps=6 ranks=1 cmd=discover extra_args=""
while getopts "a:b:r:n:m:x:" opt; do
  case $opt in
    a) old=$OPTARG ;; b) new=$OPTARG ;; r) reps=$OPTARG ;; n) ranks=$OPTARG ;; m) cmd=$OPTARG ;;
    x) extra_args=$OPTARG ;; *) sed -n 2,8p "$0"; exit 2 ;;
  esac
done
shift $((OPTIND - 1))
[ -n "$old" ] && [ -n "$new" ] && [ $# -gt 0 ] || { sed -n 2,8p "$0"; exit 2; }
tmp=$(mktemp -d /tmp/crd-ab.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
for rep in $(seq 1 "$reps"); do
  for which in old new; do
    bin=$old; [ "$which" = new ] && bin=$new
    start=$(date +%s.%N)
    "$root/scripts/mpirun.sh" -np "$ranks" "$bin" "$cmd" "$@" $extra_args -o "$tmp/out.h5" --progress-interval 0 \
      > "$tmp/log" 2>&1 || { cat "$tmp/log" >&2; exit 1; }
    end=$(date +%s.%N)
    PYTHONPATH="$root/analysis" /usr/bin/python3 - "$tmp/out.h5" "$which" "$(echo "$end - $start" | bc)" >> "$tmp/rows" <<'PY'
import sys
from crd_results import open_results
path, which, wall = sys.argv[1:]
t = open_results(path).timings
print(which, wall, " ".join(f"{p}={s:.3f}" for p, s in zip(t["phase"], t["seconds"])))
PY
  done
done
/usr/bin/python3 - "$tmp/rows" <<'PY'
import sys, statistics as st
rows = [line.split() for line in open(sys.argv[1])]
walls = {w: [float(r[1]) for r in rows if r[0] == w] for w in ("old", "new")}
ratios = [o / n for o, n in zip(walls["old"], walls["new"])]
print(f"old: median {st.median(walls['old']):.3f} s (best {min(walls['old']):.3f}); "
      f"new: median {st.median(walls['new']):.3f} s (best {min(walls['new']):.3f}); "
      f"old/new per pair: median {st.median(ratios):.3f} ({min(ratios):.3f}–{max(ratios):.3f}), {len(ratios)} pairs")
for which in ("old", "new"):
    phases = {}
    for r in rows:
        if r[0] == which:
            for kv in r[2:]:
                k, v = kv.split("=")
                phases.setdefault(k, []).append(float(v))
    print(f"  {which} phases (median): " + " ".join(f"{k}={st.median(v):.3f}" for k, v in phases.items()))
PY
