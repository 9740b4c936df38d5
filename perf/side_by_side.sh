#!/usr/bin/env bash
# Floors and crd side by side, in one run, on the same files: sha1sum and `openssl dgst -sha1` over
# every file of the corpus vs one-rank `crd discover` on it; zcat of the .warc.gz vs crd discover on
# it (and on the uncompressed .warc). REPS repetitions each, interleaved so load hits all alike.
#
#   perf/side_by_side.sh [-c CRD] [-r REPS] [-o CSV] [-p SUBSET_DIR] CORPUS_DIR WARC_PREFIX
#
# -p: also the serial Python reference (perf/reference_discover.py) and crd on a smaller directory.
# CSV: what,rep,wall,user,sys,bytes,load1 (bytes: input bytes on disk).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
crd=$root/build-perf/crd
reps=3
csv=$root/perf/out/side_by_side.csv
subset=""
while getopts "c:r:o:p:" opt; do
  case $opt in c) crd=$OPTARG ;; r) reps=$OPTARG ;; o) csv=$OPTARG ;; p) subset=$OPTARG ;; *) exit 2 ;; esac
done
shift $((OPTIND - 1))
corpus=$1
warc=$2
tmp=$(mktemp -d /tmp/crd-side.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
find "$corpus" -type f -print0 | sort -z > "$tmp/files"
corpus_bytes=$(xargs -0 stat -c %s < "$tmp/files" | paste -sd+ | bc)
gz_bytes=$(stat -c %s "$warc.warc.gz")
warc_bytes=$(stat -c %s "$warc.warc")
mkdir -p "$(dirname "$csv")"
echo "what,rep,wall,user,sys,bytes,load1" > "$csv"

measure() {  # name bytes command…
  local name=$1 bytes=$2
  shift 2
  local load
  load=$(cut -d' ' -f1 /proc/loadavg)
  /usr/bin/time -f "%e,%U,%S" -o "$tmp/t" bash -c "$*" > /dev/null 2> "$tmp/err" || { cat "$tmp/err" >&2; exit 1; }
  echo "$name,$rep,$(cat "$tmp/t"),$bytes,$load" >> "$csv"
  echo "$name rep=$rep $(cat "$tmp/t") load=$load" >&2
}

phases() {  # name bytes h5: one row per /run/timings phase (wall = that phase's seconds)
  PYTHONPATH="$root/analysis" /usr/bin/python3 -c '
import sys
from crd_results import open_results
name, rep, nbytes, path = sys.argv[1:]
t = open_results(path).timings
for p, s in zip(t["phase"], t["seconds"]):
    print(f"{name}:{p},{rep},{s:.4f},,,{nbytes},")
' "$1" "$rep" "$2" "$3" >> "$csv"
}

cat "$tmp/files" | xargs -0 cat > /dev/null  # warm the page cache
mpi="$root/scripts/mpirun.sh -np 1 $crd discover"
for rep in $(seq 1 "$reps"); do
  measure sha1sum "$corpus_bytes" "xargs -0 sha1sum < $tmp/files"
  measure openssl_sha1 "$corpus_bytes" "xargs -0 openssl dgst -sha1 < $tmp/files"
  measure crd_discover_dir "$corpus_bytes" "$mpi $corpus -o $tmp/d.h5 --progress-interval 0"
  phases crd_discover_dir "$corpus_bytes" "$tmp/d.h5"
  measure zcat "$gz_bytes" "zcat $warc.warc.gz"
  measure crd_discover_warc_gz "$gz_bytes" "$mpi $warc.warc.gz -o $tmp/g.h5 --progress-interval 0"
  phases crd_discover_warc_gz "$gz_bytes" "$tmp/g.h5"
  measure cat_warc "$warc_bytes" "cat $warc.warc"
  measure crd_discover_warc "$warc_bytes" "$mpi $warc.warc -o $tmp/w.h5 --progress-interval 0"
  phases crd_discover_warc "$warc_bytes" "$tmp/w.h5"
  if [ -n "$subset" ]; then
    sub_bytes=$(find "$subset" -type f -printf '%s\n' | paste -sd+ | bc)
    measure python_reference_subset "$sub_bytes" "/usr/bin/python3 $root/perf/reference_discover.py $subset"
    measure crd_discover_subset "$sub_bytes" "$mpi $subset -o $tmp/s.h5 --progress-interval 0"
    phases crd_discover_subset "$sub_bytes" "$tmp/s.h5"
  fi
done
echo "$csv"
