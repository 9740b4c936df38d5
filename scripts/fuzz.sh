#!/usr/bin/env bash
# Builds crd's libFuzzer targets with clang (ASan + UBSan) and runs each for a bounded time on its
# seed corpus. Usage: scripts/fuzz.sh [SECONDS_PER_TARGET=60] [TARGET…]
# Exits non-zero when a target crashes; the reproducer is left in build-fuzz/artifacts/<target>/.
# The working corpus grows in build-fuzz/corpus/<target>/ (never in the repository); the archive
# target also starts from the project's sample archives (tests/support/archives.py) and from
# ../shared/data/warc-samples when that directory exists; the result_file target from real results
# of every command, made by the fuzz build's own crd (tests/fuzz/make_result_seeds.sh).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
seconds=${1:-60}
shift || true
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(archive scan_chunker dom_chunker url result_file)
build=${CRD_FUZZ_BUILD_DIR:-$root/build-fuzz}
shared=${CRD_SHARED_DIR:-$root/../shared}

command -v clang++ >/dev/null || { echo "fuzz.sh: clang++ missing (scripts/install_deps.sh --fuzz)" >&2; exit 2; }
cmake -S "$root/tests/fuzz" -B "$build" -DCMAKE_C_COMPILER=clang -DCMAKE_CXX_COMPILER=clang++ >/dev/null
cmake --build "$build" --target crd_fuzzers -j "${CRD_FUZZ_JOBS:-2}" >/dev/null

# Archive seeds from the sample archives the tests write and the real samples: each file as it is on
# disk (gzipped or not), behind the two mode bytes fuzz_archive.cpp reads (mode 0 = bytes as they are).
seed_samples() {
  local out=$1 f own="$build/sample-archives"
  mkdir -p "$own"
  "${CRD_PYTHON:-python3}" -c 'import sys; sys.path.insert(0, sys.argv[1]); import archives; archives.write_sample_shapes(sys.argv[2])' \
    "$root/tests/support" "$own"
  for f in "$own"/* "$shared"/data/warc-samples/*; do
    [ -f "$f" ] || continue
    case "$f" in *.md) continue ;; esac
    { printf '\0\0'; head -c 65536 "$f"; } >"$out/$(basename "$(dirname "$f")")-$(basename "$f")"
  done
}

status=0
for t in "${targets[@]}"; do
  bin="$build/fuzz_$t"
  [ -x "$bin" ] || { echo "fuzz.sh: no target fuzz_$t" >&2; exit 2; }
  corpus="$build/corpus/$t"
  artifacts="$build/artifacts/$t"
  mkdir -p "$corpus" "$artifacts"
  extra=()
  asan=halt_on_error=1:detect_leaks=1
  if [ "$t" = archive ]; then
    samples="$build/seeds-samples"
    mkdir -p "$samples"
    seed_samples "$samples"
    extra=("$samples" -max_len=65536 -rss_limit_mb=4096)
  elif [ "$t" = result_file ]; then
    results="$build/seeds-results"
    rm -rf "$results"
    ASAN_OPTIONS=detect_leaks=0 "$root/tests/fuzz/make_result_seeds.sh" "$build/crd/crd" "$results" >/dev/null
    # malloc_limit: HDF5 allocates a corrupted header's declared size (GBs) before it finds the file short.
    extra=("$results" -max_len=1048576 -rss_limit_mb=4096 -malloc_limit_mb=65536)
    # HDF5 allocates what a corrupted header declares (terabytes) and handles malloc's NULL as an
    # error, as it does outside ASan; ASan would abort on the request itself. HDF5 (not
    # instrumented) also leaks a few hundred bytes on some of its error paths for corrupted files,
    # so leaks are not checked here.
    # Over-reads inside HDF5's own decoder are suppressed (tests/fuzz/result_file.supp says why).
    asan=halt_on_error=1:detect_leaks=0:allocator_may_return_null=1:suppressions=$root/tests/fuzz/result_file.supp
  fi
  log="$build/fuzz_$t.log"
  echo "fuzz.sh: fuzz_$t for ${seconds}s (log $log)" >&2
  # halt_on_error: the first sanitizer report is the crash; leaks are real bugs in these targets.
  if ASAN_OPTIONS=$asan UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
     "$bin" "$corpus" "$root/tests/fuzz/seeds/$t" "${extra[@]}" -max_total_time="$seconds" \
            -timeout=25 -print_final_stats=1 -artifact_prefix="$artifacts/" >"$log" 2>&1; then
    grep -E '^stat::number_of_executed_units' "$log" | sed "s/^/fuzz_$t /" >&2 || true
  else
    status=1
    echo "fuzz.sh: fuzz_$t FAILED; reproducer(s):" >&2
    ls "$artifacts" >&2
    grep -E 'ERROR|SUMMARY|invariant|#[0-9]+ ' "$log" | head -20 >&2
  fi
done
exit $status
