#!/usr/bin/env bash
# Runs every test of crd from a fresh Debian 12 machine: installs what the tests need (build
# dependencies, Slurm, Jupyter), builds, fetches the test corpus, and runs CTest (unit, MPI under
# mpirun with 1–4 ranks, integration, h5py read-backs, Python analysis, Slurm jobs).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
scripts/install_deps.sh --slurm --notebook
scripts/build.sh
scripts/fetch_corpus.sh >/dev/null
ctest --test-dir build --output-on-failure -j "$(nproc)" "$@"
