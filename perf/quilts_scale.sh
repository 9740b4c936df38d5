#!/usr/bin/env bash
# The memory budget's goal for crd quilts, as a benchmark: on a synthetic Common-Crawl-shaped corpus
# (perf/synth_corpus.py), quilts' wall time ≤ 5× discover's and its peak RSS (/run/resources
# memory.peak_rss_max, the busiest rank) ≤ 4× discover's, at each rank count. Prints one markdown
# row per rank count (wall s, peak MB, the ratios, the load average) and exits 1 if a goal is missed.
#
#   perf/quilts_scale.sh CRD CORPUS_DIR [RANKS…]     (default ranks: 1 2; extra crd options in QUILTS_OPTS)
#
#   /usr/bin/python3 perf/synth_corpus.py .cache/synth256 --size 256M --shards 2 --level 1 --seed 1
#   perf/quilts_scale.sh build/crd .cache/synth256/warc 1 2
set -euo pipefail
[ $# -ge 2 ] || { sed -n 2,11p "$0"; exit 2; }
root=$(cd "$(dirname "$0")/.." && pwd)
crd=$1 corpus=$2
shift 2
ranks=("${@:-1 2}")
[ $# -eq 0 ] && ranks=(1 2)
tmp=$(mktemp -d /tmp/crd-quilts-scale.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
missed=0

# run NAME RANKS COMMAND…: prints "wall_seconds peak_rss_bytes".
run() {
  local name=$1 n=$2
  shift 2
  local start end
  start=$(date +%s.%N)
  "$root/scripts/mpirun.sh" -np "$n" "$crd" "$@" -o "$tmp/$name.h5" --progress-interval 0 >"$tmp/$name.log" 2>&1 ||
    { cat "$tmp/$name.log"; exit 1; }
  end=$(date +%s.%N)
  /usr/bin/python3 - "$tmp/$name.h5" "$start" "$end" <<'PY'
import sys, h5py
f = h5py.File(sys.argv[1], "r")
res = dict(zip([n.decode() for n in f["run/resources/name"][()]], f["run/resources/value"][()]))
print(float(sys.argv[3]) - float(sys.argv[2]), int(res["memory.peak_rss_max"]))
PY
}

echo "| ranks | discover wall s / peak MB | quilts wall s / peak MB | time ratio (≤ 5) | RSS ratio (≤ 4) | load avg |"
echo "|---|---|---|---|---|---|"
for n in "${ranks[@]}"; do
  read -r dw dr < <(run "discover.np$n" "$n" discover "$corpus")
  # shellcheck disable=SC2086
  read -r qw qr < <(run "quilts.np$n" "$n" quilts "$corpus" ${QUILTS_OPTS:-})
  load=$(cut -d' ' -f1 /proc/loadavg)
  line=$(/usr/bin/python3 -c "
dw, dr, qw, qr = $dw, $dr, $qw, $qr
t, r = qw / dw, qr / dr
print('| %d | %.2f / %.0f | %.2f / %.0f | %.1f %s | %.1f %s | $load |' % ($n, dw, dr / 1e6, qw, qr / 1e6,
      t, 'ok' if t <= 5 else 'MISSED', r, 'ok' if r <= 4 else 'MISSED'))")
  echo "$line"
  [[ "$line" == *MISSED* ]] && missed=1
done
exit $missed
