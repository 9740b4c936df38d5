#!/usr/bin/env bash
# Builds crd with AddressSanitizer + UndefinedBehaviorSanitizer (CRD_SANITIZE=ON, gcc) in
# build-asan and runs the whole CTest suite under them. Extra arguments go to ctest (e.g. -R io).
# Any sanitizer report stops the process that made it (halt_on_error), so its test fails.
# Leaks: LeakSanitizer stays on for crd's own code; allocations made inside Open MPI, PMIx,
# hwloc, libevent and HDF5 (kept until exit by design) are suppressed by library name.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${CRD_ASAN_BUILD_DIR:-$root/build-asan}
jobs=${CRD_JOBS:-$(nproc)}

start=$(date +%s)
cmake -S "$root" -B "$build" -DCRD_SANITIZE=ON -DCRD_BUILD_BENCHMARKS=OFF \
      -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build "$build" -j "$jobs"
built=$(date +%s)

supp="$build/lsan.supp"
cat >"$supp" <<'SUPP'
leak:libmpi.so
leak:libopen-pal.so
leak:libopen-rte.so
leak:libpmix.so
leak:libhwloc.so
leak:libevent
leak:libhdf5
leak:mca_
SUPP

export ASAN_OPTIONS="halt_on_error=1:abort_on_error=1:detect_leaks=1:detect_stack_use_after_return=0:strict_string_checks=1:check_initialization_order=1"
export LSAN_OPTIONS="suppressions=$supp:print_suppressions=0"
export UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1"
status=0
ctest --test-dir "$build" --output-on-failure -j "$jobs" --timeout 1800 "$@" || status=$?
end=$(date +%s)
echo "test_sanitized.sh: build $((built - start)) s, tests $((end - built)) s, total $((end - start)) s" >&2
exit $status
