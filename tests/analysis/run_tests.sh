#!/bin/sh
# Runs the Python analysis tests (reader, figures, notebook) with Debian's Python; CTest calls this.
# Exit status: 0 all passed, 77 skipped (no h5py/pandas/matplotlib), anything else a failure.
set -u
here=$(cd "$(dirname "$0")" && pwd)
py=${CRD_PYTHON:-/usr/bin/python3}
if ! "$py" -c "import h5py, numpy, pandas, matplotlib" 2>/dev/null; then
  echo "run_tests.sh: skipped: $py lacks h5py/numpy/pandas/matplotlib (scripts/install_deps.sh)"
  exit 77
fi
export MPLBACKEND=Agg PYDEVD_DISABLE_FILE_VALIDATION=1
exec "$py" -m unittest discover -s "$here" -t "$here" -v
