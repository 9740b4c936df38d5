#!/usr/bin/env bash
# Builds the performance corpus under .cache/perf-corpus (ignored by git):
#   docs/      ≥ 1 GB of real HTML: Debian documentation packages (scripts/fetch_corpus.sh)
#   warc/      docs300.warc.gz (one gzip member per record) and docs300.warc: the first 300 MB of
#              HTML of docs/ as WARC response records (perf/make_warc.py)
#   weak/uK    K = 1..4: hard-linked copies of one unit (openjdk-17-doc, 279 MB) under distinct
#              paths, the per-rank unit for weak scaling (N ranks read u1..uN)
#   docs28k/   hard links to 28,460 files of docs/, the file count of the fixed-costs study's corpus (fixed
#              costs grow with files): four packages whole, then rust-doc's first files by path
# Idempotent. Usage: scripts/perf_corpus.sh [DIR]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
dir=${1:-$root/.cache/perf-corpus}
"$root/scripts/fetch_corpus.sh" "$dir/docs" rust-doc openjdk-17-doc erlang-doc libstdc++-12-doc python3.11-doc
mkdir -p "$dir/warc" "$dir/weak"
[ -f "$dir/warc/docs300.warc.gz" ] ||
  /usr/bin/python3 "$root/perf/make_warc.py" "$dir/docs" "$dir/warc/docs300" --max-bytes 300000000 --plain
for k in 1 2 3 4; do
  [ -d "$dir/weak/u$k" ] || cp -al "$dir/docs/openjdk-17-doc" "$dir/weak/u$k"
done
if [ ! -d "$dir/docs28k" ]; then
  rm -rf "$dir/docs28k.tmp" && mkdir -p "$dir/docs28k.tmp"
  (cd "$dir/docs" &&
    for p in openjdk-17-doc libstdc++-12-doc erlang-doc python3.11-doc; do cp -al "$p" "$dir/docs28k.tmp/"; done &&
    have=$(find "$dir/docs28k.tmp" -type f | wc -l) &&
    find rust-doc -type f | LC_ALL=C sort | awk -v n=$((28460 - have)) 'NR <= n' | xargs -d '\n' cp -l --parents -t "$dir/docs28k.tmp")
  mv "$dir/docs28k.tmp" "$dir/docs28k"
fi
du -sh "$dir"/docs "$dir"/docs28k "$dir"/warc/*
