#!/usr/bin/env bash
# Strong (or weak) scaling of crd discover / crd run: every (command, ranks, repetition) is one job
# under scripts/mpirun.sh; per-phase wall time comes from the result's /run/timings (max over ranks),
# the end-to-end time from the shell (mpirun start to exit), input bytes from /run/counters, shuffle
# volumes and memory from /run/resources.
#
#   perf/strong_scaling.sh [-c CRD] [-r REPS] [-n "1 2 4"] [-m "discover run"] [-o CSV] [-x "ARGS"] INPUT…
#   perf/strong_scaling.sh -w "1 2 4" …   weak scaling: INPUT… is a list of per-rank units
#                                           (directories); N ranks read the first N of them.
#   -x "--reader-thread off"                  extra crd arguments for every job.
# Each repetition runs every rank count in turn (1, 2, 4, 1, 2, 4, …), so the rank counts share the
# machine's slow and fast spells; summarize.py also gives the speedup of each repetition's own pair.
#
# CSV columns: command,ranks,rep,phase,seconds,input_bytes,shuffle_bytes_sent,shuffle_bytes_sent_max,
# peak_rss_max,tables_max,load1 — phase "total" is the end-to-end time. analysis/plot_results.py
# --scaling reads ranks,seconds,phase (phase is written as "COMMAND PHASE" so commands stay apart).
# On a machine with fewer cores than ranks, mpirun oversubscribes (scripts/mpirun.sh).
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
crd=$root/build-perf/crd
reps=3
ranks_list="1 2 4"
commands="discover run"
csv=$root/perf/out/strong_scaling.csv
weak=""
extra_args=""
while getopts "c:r:n:m:o:w:x:" opt; do
  case $opt in
    c) crd=$OPTARG ;; r) reps=$OPTARG ;; n) ranks_list=$OPTARG ;; m) commands=$OPTARG ;;
    o) csv=$OPTARG ;; w) weak=$OPTARG; ranks_list=$OPTARG ;; x) extra_args=$OPTARG ;;
    *) sed -n 2,16p "$0"; exit 2 ;;
  esac
done
shift $((OPTIND - 1))
[ $# -gt 0 ] || { sed -n 2,16p "$0"; exit 2; }
inputs=("$@")

tmp=$(mktemp -d /tmp/crd-scaling.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$(dirname "$csv")"
echo "command,ranks,rep,phase,seconds,input_bytes,shuffle_bytes_sent,shuffle_bytes_sent_max,peak_rss_max,tables_max,load1" > "$csv"

for cmd in $commands; do
  for rep in $(seq 1 "$reps"); do
    for n in $ranks_list; do
      if [ -n "$weak" ]; then job_inputs=("${inputs[@]:0:$n}"); else job_inputs=("${inputs[@]}"); fi
      load=$(cut -d' ' -f1 /proc/loadavg)
      out=$tmp/$cmd-$n-$rep.h5
      start=$(date +%s.%N)
      "$root/scripts/mpirun.sh" -np "$n" "$crd" "$cmd" "${job_inputs[@]}" $extra_args -o "$out" --progress-interval 0 > "$tmp/log" 2>&1 ||
        { cat "$tmp/log" >&2; exit 1; }
      end=$(date +%s.%N)
      total=$(echo "$end - $start" | bc)
      PYTHONPATH="$root/analysis" /usr/bin/python3 - "$out" "$cmd" "$n" "$rep" "$total" "$load" >> "$csv" <<'PY'
import sys
from crd_results import open_results
path, cmd, n, rep, total, load = sys.argv[1:]
r = open_results(path)
c = {**r.counters.to_dict(), **r.resources.to_dict()}  # volumes and memory are resources
phases, secs = r.timings["phase"].tolist(), r.timings["seconds"].tolist()
extra = ",".join(str(c.get(k, "")) for k in ("input.bytes", "shuffle.bytes_sent", "shuffle.bytes_sent_max",
                                             "memory.peak_rss_max", "memory.tables_max"))
for phase, s in list(zip(phases, secs)) + [("total", float(total))]:
    print(f"{cmd},{n},{rep},{cmd} {phase},{s:.4f},{extra},{load}")
PY
      rm -f "$out"
      echo "$cmd ranks=$n rep=$rep total=${total}s (load before: $load)" >&2
    done
  done
done
echo "$csv"
