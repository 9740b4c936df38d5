#!/usr/bin/env bash
# Two crd binaries must write the same results: runs both on the same input and compares every
# dataset under /discovery, /detection and /labels byte for byte (perf/compare_results.py; /run
# holds timings and is left out). Covers `crd run` and `crd discover` at 1 and 3 ranks, `crd run`
# with a tiny shuffle buffer (many rounds) and with --badness chunks, `crd label`, and
# `crd detect --labels` (both badness modes, and the partitioned join), the labels coming from the old binary's discovery;
# `crd quilts` (/quilts: at 1 and 2 ranks, the sweep, --foreign-sourced domain with φ, tiny rounds) and
# `crd neardup` (/neardup: both methods); `crd compare-hashing` (/compare_hashing: at 1 and 2 ranks).
#
#   perf/compare_outputs.sh OLD_CRD NEW_CRD INPUT…
#   CRD_COMPARE_ONLY='quilts|neardup' perf/compare_outputs.sh …   (only the jobs whose names match)
#
# Exit 0 when every pair is identical; prints one line per comparison.
set -euo pipefail
[ $# -ge 3 ] || { sed -n 2,9p "$0"; exit 2; }
root=$(cd "$(dirname "$0")/.." && pwd)
old=$1 new=$2
shift 2
tmp=$(mktemp -d /tmp/crd-compare.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
failed=0

# job NAME RANKS COMMAND ARGS…: runs both binaries, then compares their results.
job() {
  local name=$1 ranks=$2 groups=()
  shift 2
  [[ -z "${CRD_COMPARE_ONLY:-}" || "$name" =~ ${CRD_COMPARE_ONLY} ]] || return 0
  case "$1" in
    quilts) groups=(--group /quilts) ;;
    neardup) groups=(--group /neardup) ;;
    compare-hashing) groups=(--group /compare_hashing) ;;
  esac
  for which in old new; do
    local bin=$old
    [ "$which" = new ] && bin=$new
    "$root/scripts/mpirun.sh" -np "$ranks" "$bin" "$@" -o "$tmp/$name.$which.h5" --progress-interval 0 \
      > "$tmp/$name.$which.log" 2>&1 || { echo "$name ($which): crd failed"; cat "$tmp/$name.$which.log"; exit 1; }
  done
  printf '%-28s ' "$name"
  /usr/bin/python3 "$root/perf/compare_results.py" "$tmp/$name.old.h5" "$tmp/$name.new.h5" "${groups[@]}" || failed=1
}

for n in 1 3; do
  job "run.np$n" "$n" run "$@"
  job "discover.np$n" "$n" discover "$@"
done
job run.np3.tiny-rounds 3 run "$@" --shuffle-buffer 4K
job run.np2.badness-chunks 2 run "$@" --badness chunks
job label.np2 2 label "$@"
for n in 1 3; do
  job "detect.np$n" "$n" detect "$@" --labels "$tmp/discover.np1.old.h5"
  job "detect.np$n.badness-chunks" "$n" detect "$@" --labels "$tmp/discover.np1.old.h5" --badness chunks
  job "detect.np$n.partitioned" "$n" detect "$@" --labels "$tmp/discover.np1.old.h5" --join partitioned
done
for n in 1 2; do
  job "quilts.np$n" "$n" quilts "$@"
  job "quilts.np$n.sweep" "$n" quilts "$@" --sweep-m 2,10,20,100 --sweep-c 2,8 --sweep-theta 0.3,0.7
done
job quilts.np2.foreign-share 2 quilts "$@" --foreign-sourced domain --min-source-share 0.05
job quilts.np2.tiny-rounds 2 quilts "$@" --shuffle-buffer 4K
for method in minhash simhash; do
  job "neardup.np2.$method" 2 neardup "$@" --method "$method"
done
# compare-hashing's labels: the old binary's `crd label` of the first input (its first subdirectory
# or file when it is a directory), so most chunks meet labels they are not; its truth: the host of
# that labeled set's first page.
if [[ -z "${CRD_COMPARE_ONLY:-}" || "compare-hashing" =~ ${CRD_COMPARE_ONLY} ]]; then
  first=$1
  [ -d "$first" ] && first=$(find "$first" -mindepth 1 -maxdepth 1 \( -type d -o -type f \) ! -name '.*' | sort | head -1)
  "$old" label "$first" -o "$tmp/compare.labels.h5" --progress-interval 0 > "$tmp/compare.labels.log" 2>&1 ||
    { echo "compare-hashing labels: crd failed"; cat "$tmp/compare.labels.log"; exit 1; }
  /usr/bin/python3 -c 'import h5py, sys
url = h5py.File(sys.argv[1])["labels_documents/url"][0].decode()
print(url.split("/", 1)[0] + "/")' "$tmp/compare.labels.h5" > "$tmp/compare.truth.txt"
  for n in 1 2; do
    job "compare-hashing.np$n" "$n" compare-hashing "$@" --labels "$tmp/compare.labels.h5" --truth "$tmp/compare.truth.txt"
  done
fi
exit $failed
