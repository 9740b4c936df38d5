#!/usr/bin/env bash
# Near-duplicate clusters of 10^5 near-identical pages (tests/support/stub_pages.py: OpenJDK-like
# "No usage of X" stubs, one navigation block and footer, one class name different), as a benchmark:
# CPU seconds (user + sys of all ranks, /usr/bin/time) and peak RSS (/run/resources memory.peak_rss_max,
# the busiest rank) of crd neardup at 1 and 2 ranks under --memory MEMORY (default 4G: crd refuses
# to start a step its estimate puts over it), with Henzinger's preset, the high-recall preset, and the
# high-recall preset without its boilerplate rule, and the clusters it reports. Prints one markdown
# row per run.
#
#   perf/neardup_stubs.sh CRD [PAGES] [MEMORY]   (default 100000 4G; the WARC is written under /tmp)
set -euo pipefail
[ $# -ge 1 ] || { sed -n 2,10p "$0"; exit 2; }
root=$(cd "$(dirname "$0")/.." && pwd)
crd=$(realpath "$1")
pages=${2:-100000}
memory=${3:-4G}
tmp=$(mktemp -d /tmp/crd-neardup-stubs.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
/usr/bin/python3 "$root/tests/support/stub_pages.py" "$pages" "$tmp/stubs.warc"
mb=$(( $(stat -c %s "$tmp/stubs.warc") / 1000000 ))
echo "| preset | ranks | CPU s (user+sys) | wall s | peak RSS MB (busiest rank) | clusters | pages in the largest | pairs | capped buckets |"
echo "|---|---:|---:|---:|---:|---:|---:|---:|---:|"
for run in neardup-henzinger neardup-high-recall neardup-high-recall+no-boilerplate; do
  preset=${run%%+*}
  extra=()
  [ "$run" = "$preset" ] || extra=(--boilerplate-pages 0)
  for n in 1 2; do
    out=$tmp/$run-$n.h5
    cat "$tmp/stubs.warc" >/dev/null  # warm: the kernel evicts pages idle for ~30 s
    /usr/bin/time -f '%U %S %e' -o "$tmp/time" "$root/scripts/mpirun.sh" -np "$n" "$crd" neardup "$tmp/stubs.warc" \
      --config "$root/configs/$preset.ini" "${extra[@]}" --memory "$memory" --progress-interval 0 -o "$out" \
      >"$tmp/log" 2>&1 || { cat "$tmp/log"; exit 1; }
    read -r user sys wall <"$tmp/time"
    /usr/bin/python3 - "$out" "$run" "$n" "$user" "$sys" "$wall" <<'PY'
import sys
import h5py
out, preset, n, user, sys_s, wall = sys.argv[1:]
with h5py.File(out, "r") as f:
    nd = f["neardup"]
    res = f["run/resources"]
    names = [bytes(x).decode() for x in res["name"]]
    rss = int(res["value"][names.index("memory.peak_rss_max")])
    sizes = list(nd["representatives/pages"][:])
    print("| %s | %s | %.1f | %.1f | %d | %d | %d | %d | %d |" % (
        preset, n, float(user) + float(sys_s), float(wall), rss // 1000000, int(nd.attrs["clusters"]),
        max(sizes) if sizes else 0, int(nd.attrs["pairs"]), int(nd.attrs["capped_buckets"])))
PY
  done
done
echo "($pages pages, $mb MB of WARC, --memory $memory)"
