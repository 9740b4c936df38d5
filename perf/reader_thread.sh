#!/usr/bin/env bash
# --reader-thread off / auto / on, for each input kind, in paired alternating runs (perf/paired.py),
# run directly (no mpirun: a singleton may use both CPUs, where auto used to choose the thread on
# directories too). The goal: auto must never be slower than off on a directory, a plain WARC or
# a .warc.gz; "off / auto" ≥ 1 (within the noise) says so, "off / on" shows what the thread does.
#
#   perf/reader_thread.sh [-c CRD] [-r REPS] [-o CSV_PREFIX] CORPUS_DIR WARC_PREFIX
#
# WARC_PREFIX.warc and WARC_PREFIX.warc.gz are read (scripts/perf_corpus.sh makes docs300.*).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
crd=$root/build/crd
reps=5
prefix=$root/perf/out/reader_thread
while getopts "c:r:o:" opt; do
  case $opt in c) crd=$OPTARG ;; r) reps=$OPTARG ;; o) prefix=$OPTARG ;; *) sed -n 2,9p "$0"; exit 2 ;; esac
done
shift $((OPTIND - 1))
[ $# -eq 2 ] || { sed -n 2,9p "$0"; exit 2; }
tmp=$(mktemp -d /tmp/crd-reader.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$(dirname "$prefix")"
for kind in directory warc warc_gz; do
  case $kind in
    directory) input=$1 ;; warc) input=$2.warc ;; warc_gz) input=$2.warc.gz ;;
  esac
  echo "## $kind: $input"
  cmds=()
  for mode in off auto on; do
    cmds+=("$mode=$crd discover $input --reader-thread $mode --progress-interval 0 -o $tmp/$mode.h5")
  done
  /usr/bin/python3 "$root/perf/paired.py" -r "$reps" --csv "$prefix.$kind.csv" --warm "$input" \
    --phases off="$tmp/off.h5" --phases auto="$tmp/auto.h5" --phases on="$tmp/on.h5" \
    --ratio "$kind: off / auto (≥ 1: auto not slower)=off/auto" --ratio "$kind: off / on=off/on" -- "${cmds[@]}"
done
