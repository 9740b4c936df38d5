#!/bin/bash
# usage: D=DIR perf/cpu_pairs.sh REPS BIN|sha1sum ... : paired alternating perf stat (CPU counters) of
# one-rank `crd discover DIR` run directly, each repetition warming the corpus first and rotating the order.
# Prints one line per run: repetition, binary, task-clock ms, page faults, user ns, system ns, load.
# Summarize: perf/cpu_pairs.sh 5 OLD NEW sha1sum > runs.txt; perf/cpu_pairs_summary.py runs.txt OLD-BASENAME
D=${D:-.cache/perf-corpus/docs}
reps=$1; shift
cmds=("$@")
for r in $(seq $reps); do
  find $D -type f -print0 | xargs -0 cat > /dev/null
  n=${#cmds[@]}
  for k in $(seq 0 $((n-1))); do
    b=${cmds[$(( (k + r) % n ))]}
    if [ "$b" = sha1sum ]; then
      out=$(perf stat -x, -e task-clock,page-faults,user_time,system_time sh -c "find $D -type f -print0 | xargs -0 sha1sum > /dev/null" 2>&1 | grep -E "task-clock|page-faults|user_time|system_time" | cut -d, -f1 | tr '\n' ' ')
    else
      out=$(perf stat -x, -e task-clock,page-faults,user_time,system_time $b discover $D --reader-thread off -o /tmp/hp-$(basename $b).h5 --progress-interval 0 2>&1 >/dev/null | grep -E "task-clock|page-faults|user_time|system_time" | cut -d, -f1 | tr '\n' ' ')
    fi
    echo "$r $(basename $b) $out load=$(cut -d' ' -f1 /proc/loadavg)"
  done
done
