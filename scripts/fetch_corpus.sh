#!/usr/bin/env bash
# Fetches a real HTML corpus: Debian documentation packages, downloaded with `apt-get download`
# and unpacked (symlinks removed, so every file is read once) into DIR/<package>/.
# Usage: scripts/fetch_corpus.sh [DIR] [PACKAGE…]   (default DIR: .cache/corpus)
# Idempotent: packages already unpacked are kept.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
dir=${1:-$root/.cache/corpus}
shift || true
packages=("$@")
[ ${#packages[@]} -gt 0 ] || packages=(python3.11-doc sphinx-doc debian-reference-en)

mkdir -p "$dir"
debs="$dir/../debs"
mkdir -p "$debs"
for p in "${packages[@]}"; do
  [ -f "$dir/.complete-$p" ] && continue
  (cd "$debs" && ls "${p}"_*.deb >/dev/null 2>&1 || apt-get download "$p" >/dev/null 2>&1 ||
     { apt-get update -qq && apt-get download "$p" >/dev/null; })
  tmp=$(mktemp -d "$dir/.unpack.XXXXXX")
  dpkg-deb -x "$(ls "$debs/${p}"_*.deb | head -n 1)" "$tmp"
  find "$tmp" -type l -delete
  rm -rf "${dir:?}/$p"
  mv "$tmp" "$dir/$p"
  touch "$dir/.complete-$p"
done
echo "$dir"
