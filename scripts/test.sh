#!/usr/bin/env bash
# Runs every test of crd from a fresh Debian 12 machine: installs what the tests need (build
# dependencies, Slurm, Jupyter, clang), builds, fetches the test corpus, runs CTest (unit, MPI under
# mpirun with 1–4 ranks, integration, h5py read-backs, Python analysis, Slurm jobs, hostile input,
# kill-and-resume, install/.deb/Lmod, the HTML report in headless Chromium), then each libFuzzer
# target for a bounded time, then the C++, hostile-input and big-record tests again in an
# AddressSanitizer + UndefinedBehaviorSanitizer build (scripts/test_sanitized.sh).
#   CRD_QUICK=1        stop after the first CTest run (no fuzzing, no sanitizer build)
#   CRD_FUZZ_SECONDS   seconds per fuzz target (default 30)
# Extra arguments go to the first ctest run (e.g. -R io).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
scripts/install_deps.sh --slurm --notebook --fuzz --browser
scripts/build.sh
scripts/fetch_corpus.sh >/dev/null
ctest --test-dir build --output-on-failure -j "$(nproc)" "$@"
[ "${CRD_QUICK:-0}" = 1 ] && exit 0

echo "test.sh: fuzzing (${CRD_FUZZ_SECONDS:-30} s per target)" >&2
scripts/fuzz.sh "${CRD_FUZZ_SECONDS:-30}"
echo "test.sh: whole suite under ASan + UBSan" >&2
scripts/test_sanitized.sh
