#!/bin/sh
# Writes a result file with N ranks and checks it with h5py: run_result_file_check.sh N WRITER CHECKER OUTDIR
# (N = threadsK: K thread ranks in one process, no mpirun)
set -eu
n=$1 writer=$2 checker=$3 outdir=$4
python=${CRD_PYTHON:-/usr/bin/python3}
"$python" -c "import h5py, pandas" 2>/dev/null || { echo "no h5py/pandas in $python: skipping"; exit 77; }
rm -rf "$outdir" && mkdir -p "$outdir"
case $n in
  threads*) "$writer" --threads "${n#threads}" "$outdir/out.h5" ;;
  *) "${MPIEXEC:?MPIEXEC not set}" -np "$n" "$writer" "$outdir/out.h5" ;;
esac
"$python" "$checker" "$outdir/out.h5"
