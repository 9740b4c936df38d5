#!/usr/bin/env bash
# Builds crd's Debian package with CPack (cmake/Install.cmake): BUILD_DIR/crd_VERSION_ARCH.deb,
# installing under /usr, its Depends naming Debian 12's runtime libraries. Configures and builds
# only the crd target when BUILD_DIR (default: build/) has not been built.
#   scripts/package.sh [BUILD_DIR]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-${BUILD_DIR:-$root/build}}
[ -f "$build/CMakeCache.txt" ] || BUILD_DIR="$build" BUILD_TARGETS=crd "$root/scripts/build.sh"
cmake --build "$build" --target crd -j "$(nproc)" >/dev/null
(cd "$build" && cpack -G DEB >/dev/null)
ls "$build"/crd_*.deb
