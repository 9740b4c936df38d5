#!/usr/bin/env bash
# Out-of-core counting (docs/memory.md): wall time of crd discover / run as --memory shrinks to 1/4
# and 1/16 of the in-memory tables, against the in-memory run (budget 1×: no --memory). The
# in-memory run's /run/resources memory.tables_max sets the budgets; each repetition runs every
# budget in turn (1×, 1/4, 1/16, 1×, …) so they share the machine's slow and fast spells.
#
#   perf/out_of_core.sh [-c CRD] [-r REPS] [-n RANKS] [-m "discover run"] INPUT…
#
# Prints one line per job: command, budget, rep, seconds, passes, input bytes read again, peak RSS
# (busiest rank), tables_max, load average; then the median slowdown per (command, budget).
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
crd=$root/build/crd
reps=3
ranks=1
commands="discover run"
while getopts "c:r:n:m:" opt; do
  case $opt in
    c) crd=$OPTARG ;; r) reps=$OPTARG ;; n) ranks=$OPTARG ;; m) commands=$OPTARG ;;
    *) sed -n 2,11p "$0"; exit 2 ;;
  esac
done
shift $((OPTIND - 1))
[ $# -gt 0 ] || { sed -n 2,11p "$0"; exit 2; }

tmp=$(mktemp -d /tmp/crd-outofcore.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
py=/usr/bin/python3
resource() {  # resource FILE NAME
  "$py" -c 'import sys, h5py; f = h5py.File(sys.argv[1], "r"); g = f["/run/resources"]
names = [n.decode() for n in g["name"][:]]; print(int(g["value"][names.index(sys.argv[2])]))' "$1" "$2"
}
job() {  # job COMMAND OUT [--memory N]: prints the wall seconds
  local start end
  start=$(date +%s.%N)
  rm -f "$2"
  # A 1 MiB shuffle round: the default (2 × 64 MiB) would not fit a 1/16 budget of a small corpus.
  "$root/scripts/mpirun.sh" -np "$ranks" "$crd" "$1" "${inputs[@]}" -o "$2" --progress-interval 0 \
    --shuffle-buffer 1M "${@:3}" >/dev/null
  end=$(date +%s.%N)
  echo "$end - $start" | bc
}
inputs=("$@")

{
echo "command,budget,rep,seconds,passes,bytes_reread,peak_rss_max,tables_max,load1"
for command in $commands; do
  job "$command" "$tmp/probe.h5" >/dev/null
  tables=$(resource "$tmp/probe.h5" memory.tables_max)
  for rep in $(seq 1 "$reps"); do
    for div in 1 4 16; do
      # Warm the input (the kernel evicts file pages idle for ~30 s, docs/… platform notes).
      cat "${inputs[@]}" >/dev/null 2>&1 || true
      memory=()
      [ "$div" = 1 ] || memory=(--memory $((tables / div)))
      secs=$(job "$command" "$tmp/out.h5" "${memory[@]}")
      echo "$command,1/$div,$rep,$secs,$(resource "$tmp/out.h5" counting.passes),$(resource "$tmp/out.h5" counting.bytes_reread),$(resource "$tmp/out.h5" memory.peak_rss_max),$(resource "$tmp/out.h5" memory.tables_max),$(cut -d' ' -f1 /proc/loadavg)"
    done
  done
done
} | tee "$tmp/rows.csv"
"$py" - "$tmp/rows.csv" <<'PY'
import csv, statistics, sys
rows = list(csv.DictReader(open(sys.argv[1])))
for command in dict.fromkeys(r["command"] for r in rows):
    base = statistics.median(float(r["seconds"]) for r in rows if r["command"] == command and r["budget"] == "1/1")
    for budget in ("1/1", "1/4", "1/16"):
        sel = [r for r in rows if r["command"] == command and r["budget"] == budget]
        t = statistics.median(float(r["seconds"]) for r in sel)
        print("%s budget %s: median %.1f s, %.2fx, passes %s, peak RSS %.0f MiB" %
              (command, budget, t, t / base, sel[0]["passes"], int(sel[0]["peak_rss_max"]) / 2**20))
PY
