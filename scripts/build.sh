#!/usr/bin/env bash
# Configures and builds crd (and its tests and benchmarks) into BUILD_DIR (default: build/).
# BUILD_TARGETS (e.g. "crd") builds only those targets: scripts/quickstart.sh builds just crd.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD_DIR:-$root/build}
type=${CMAKE_BUILD_TYPE:-RelWithDebInfo}
cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE="$type" -DHDF5_C_COMPILER_EXECUTABLE=/usr/bin/h5pcc.openmpi "$@" >/dev/null
targets=()
for t in ${BUILD_TARGETS:-}; do targets+=(--target "$t"); done
cmake --build "$build" -j "$(nproc)" "${targets[@]}"
