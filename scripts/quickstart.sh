#!/usr/bin/env bash
# One command from a fresh Debian 12 machine to a result: installs the dependencies, builds crd,
# fetches a real HTML corpus (Debian documentation packages), runs `crd run` (discovery, then
# detection against what was discovered) on it with two MPI ranks, prints a human summary of the
# result file, and writes a self-contained HTML report of it.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
scripts/install_deps.sh
BUILD_TARGETS=crd scripts/build.sh  # only what it runs: scripts/test.sh builds the tests
corpus=$(scripts/fetch_corpus.sh)
mkdir -p results
scripts/mpirun.sh -np 2 build/crd run "$corpus" --config configs/quickstart.ini -o results/quickstart.h5
build/crd inspect results/quickstart.h5 --top 10
build/crd report results/quickstart.h5 -o results/quickstart.html
echo "Open $root/results/quickstart.html in a browser (it is one self-contained file: copy it anywhere)."
