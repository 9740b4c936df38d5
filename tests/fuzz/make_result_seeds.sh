#!/usr/bin/env bash
# Seeds of fuzz_result_file: real results of every command that writes one (label, discover,
# detect, run, merge, neardup, quilts, compare-hashing) over a small generated corpus, each behind
# the 4 header bytes fuzz_result_file.cpp reads (all zero: no structural mutation, inspect and report).
# Made at fuzz time by the crd being fuzzed, so the seeds always carry the current schema.
# Usage: tests/fuzz/make_result_seeds.sh CRD OUT_DIR
set -euo pipefail
crd=$1
out=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$out"

page() {  # page FILE TITLE PARAGRAPH…
  local file=$1 title=$2
  shift 2
  mkdir -p "$(dirname "$file")"
  { printf '<html><head><title>%s</title></head><body><div>%s</div>\n' "$title" "$title"
    for p in "$@"; do printf '<p>%s</p>\n' "$p"; done
    printf '</body></html>\n'; } >"$file"
}
shared=()
for i in 0 1 2 3 4 5; do shared+=("Shared paragraph number $i is copied across every site of this small corpus, word for word."); done
for site in a.example b.example; do
  for n in 0 1 2; do
    page "$work/corpus/$site/page$n.html" "$site $n" "${shared[@]:0:$((3 + n))}" \
      "Paragraph one of page $n on $site, written only here." "Paragraph two of page $n on $site, its own."
  done
done
page "$work/expert/expert.example/index.html" expert "${shared[@]}"
printf 'a.example/\n' >"$work/truth.txt"

q=(--progress-interval 0)
"$crd" label "$work/expert" -o "$work/label.h5" "${q[@]}"
"$crd" discover "$work/corpus" --keep-counts --chunk-threshold 0 -o "$work/discover.h5" "${q[@]}"
"$crd" discover "$work/corpus/a.example" --keep-counts --chunk-threshold 0 -o "$work/discover-a.h5" "${q[@]}"
"$crd" detect "$work/corpus" --labels "$work/label.h5" -o "$work/detect.h5" "${q[@]}"
"$crd" run "$work/corpus" --chunk-threshold 1 -o "$work/run.h5" "${q[@]}"
"$crd" merge "$work/discover.h5" "$work/discover-a.h5" -o "$work/merge.h5" "${q[@]}"
"$crd" neardup "$work/corpus" -o "$work/neardup.h5" "${q[@]}"
"$crd" quilts "$work/corpus" -o "$work/quilts.h5" "${q[@]}"
"$crd" compare-hashing "$work/corpus" --labels "$work/label.h5" --truth "$work/truth.txt" \
  -o "$work/compare-hashing.h5" "${q[@]}"
for f in "$work"/*.h5; do
  { printf '\0\0\0\0'; cat "$f"; } >"$out/$(basename "$f" .h5)"
done
