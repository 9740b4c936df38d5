#!/usr/bin/env bash
# The slurm/*.sbatch jobs under a real single-node Slurm (scripts/slurm_local.sh): a 2-task blind run
# on the project's sample archives (tests/support/archives.py) plus part of the documentation corpus,
# label-detect, a strong-scaling sweep, and a job that must fail. Exit 77 (skipped) when Slurm, root,
# the binary or the corpus are absent.
set -euo pipefail

skip() { echo "SKIP: $*"; exit 77; }
src="${CRD_SOURCE_DIR:?run through ctest (CRD_SOURCE_DIR)}"
crd="${CRD_BINARY:-}"
py="${CRD_PYTHON:-/usr/bin/python3}"
[ -x "$crd" ] || skip "CRD_BINARY is not set or not executable (run through ctest)"
for t in sbatch sinfo /usr/sbin/slurmctld /usr/sbin/slurmd /usr/sbin/munged; do
  command -v "$t" >/dev/null 2>&1 || skip "$t not installed (scripts/install_deps.sh --slurm)"
done
[ "$(id -u)" -eq 0 ] || skip "the local Slurm needs root (slurmd without cgroups)"
"$py" -c 'import h5py, pandas' 2>/dev/null || skip "$py cannot import h5py and pandas"
corpus="${CRD_CORPUS_DIR:-}"
subset=()
for pkg in debian-reference-en sphinx-doc; do
  [ -d "$corpus/$pkg" ] && subset+=("$corpus/$pkg")
done
# The sample archives alone repeat no chunk as often as configs/quickstart.ini's threshold asks, so
# without the corpus the jobs' results could not be checked: skipped, as other tests without their data.
[ ${#subset[@]} -gt 0 ] || skip "the documentation corpus is absent under '$corpus' (scripts/fetch_corpus.sh)"

# Whatever happens, the daemons this test started are stopped and the scratch dir removed.
scratch="$(mktemp -d /tmp/crd-slurm-test.XXXXXX)"
chmod 0755 "$scratch"  # munged runs as user munge and keeps its socket below
cluster="$scratch/cluster"
failed=1
finish() {
  if [ "$failed" -ne 0 ]; then
    echo "--- logs of the failed run:"
    tail -n 15 "$cluster"/log/* "$scratch"/jobs/*.out 2>/dev/null || true
  fi
  "$src/scripts/slurm_local.sh" stop "$cluster" || true
  rm -rf "$scratch"
}
trap finish EXIT

# A free port pair for slurmctld/slurmd, so a Slurm already running here is left alone.
CRD_SLURM_PORT="$("$py" - <<'EOF'
import random, socket
for _ in range(200):
    p = random.randrange(20000, 60000, 2)
    try:
        with socket.socket() as a, socket.socket() as b:
            a.bind(("127.0.0.1", p)); b.bind(("127.0.0.1", p + 1))
        print(p); break
    except OSError:
        pass
EOF
)"
export CRD_SLURM_PORT
"$src/scripts/slurm_local.sh" start "$cluster"
export SLURM_CONF="$cluster/slurm.conf"
# Do not inherit an outer allocation's identity if ctest itself runs inside a Slurm job.
unset SLURM_JOB_ID SLURM_JOBID SLURM_NTASKS SLURM_NPROCS SLURM_JOB_NUM_NODES SLURM_NNODES

jobs="$scratch/jobs"
mkdir -p "$jobs"
samples="$scratch/samples"
mkdir -p "$samples"
"$py" -c 'import sys; sys.path.insert(0, sys.argv[1]); import archives; archives.write_sample_shapes(sys.argv[2])' \
  "$src/tests/support" "$samples"
printf '%s\n' "$samples" "${subset[@]}" >"$jobs/corpus.list"
export CRD="$crd" CRD_ARGS="--progress-interval 0"
submit() {  # submit NAME SCRIPT [script args…] : sbatch --wait, 2 tasks, output in $jobs/NAME.out
  local name="$1" script="$2"; shift 2
  sbatch --wait -O -n 2 --chdir="$jobs" --output="$jobs/$name.out" "$src/slurm/$script" "$@" >/dev/null
}

echo "== blind-run (2 tasks) on @$jobs/corpus.list"
t0=$SECONDS
OUTPUT="$jobs/run.h5" CONFIG="$src/configs/quickstart.ini" submit run blind-run.sbatch "@$jobs/corpus.list"
echo "   job ok in $((SECONDS - t0)) s"
[ -f "$jobs/run.h5" ] || { echo "FAIL: blind-run succeeded but $jobs/run.h5 is missing"; exit 1; }
# The reference: the same command at 1 rank, outside Slurm.
OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 mpirun -np 1 "$crd" run "@$jobs/corpus.list" \
  --config "$src/configs/quickstart.ini" --progress-interval 0 -o "$jobs/ref.h5" >/dev/null
"$py" "$src/tests/slurm/check_slurm_result.py" run "$jobs/run.h5" "$jobs/ref.h5"
grep -q "wrote $jobs/run.h5" "$jobs/run.out" || { echo "FAIL: job log lacks the result path"; exit 1; }
leftover="$(find /tmp -maxdepth 1 -name 'crd-[0-9]*' -newer "$jobs/corpus.list" 2>/dev/null | head -n1)"
[ -z "$leftover" ] || { echo "FAIL: node-local work dir $leftover left behind"; exit 1; }

echo "== label-detect (2 tasks)"
if [ ${#subset[@]} -gt 0 ]; then expert="${subset[0]}"; else expert="$samples/site.warc.gz"; fi
EXPERT="$expert" CRAWL="@$jobs/corpus.list" LABELS="$jobs/labels.h5" OUTPUT="$jobs/detect.h5" \
  CONFIG="$src/configs/quickstart.ini" submit label-detect label-detect.sbatch
"$py" "$src/tests/slurm/check_slurm_result.py" labels "$jobs/labels.h5"
"$py" "$src/tests/slurm/check_slurm_result.py" detect "$jobs/detect.h5" "$jobs/labels.h5"

echo "== strong-scaling (ranks 1 2)"
INPUTS="@$jobs/corpus.list" RANKS="1 2" OUT_DIR="$jobs/scaling" submit scaling strong-scaling.sbatch
"$py" "$src/tests/slurm/check_slurm_result.py" scaling "$jobs/scaling/timings.csv" 1 2
for k in 1 2; do
  [ -f "$jobs/scaling/np$k-r1.h5" ] || { echo "FAIL: scaling run np$k-r1.h5 missing"; exit 1; }
done

echo "== a job that must fail (unknown option)"
if OUTPUT="$jobs/bad.h5" CRD_ARGS="--no-such-option" submit bad blind-run.sbatch "$samples"; then
  echo "FAIL: sbatch --wait reported success for a job with a bad option"; exit 1
fi
grep -q "no-such-option" "$jobs/bad.out" || { echo "FAIL: the failed job's log does not name the bad option"; exit 1; }
if compgen -G "$jobs/bad.h5*" >/dev/null; then
  echo "FAIL: the failed job left a result file:" "$jobs"/bad.h5*; exit 1
fi
echo "   failed as expected, no result file left"

echo "== a job with no inputs must fail before srun"
if OUTPUT="$jobs/empty.h5" submit empty blind-run.sbatch; then
  echo "FAIL: sbatch --wait reported success for a job without inputs"; exit 1
fi

# The installed template, after `module load crd` (Lmod), finds crd on PATH and the preset
# by name under $CRD_HOME; nothing of the source tree is used. Skipped without Lmod.
lmod_init=/usr/share/lmod/lmod/init/bash
build="$(dirname "$crd")"
if [ -f "$lmod_init" ] && [ -f "$build/cmake_install.cmake" ]; then
  echo "== installed blind-run after module load crd"
  prefix="$scratch/prefix"
  cmake --install "$build" --prefix "$prefix" >/dev/null
  env -u CRD -u CRD_HOME PATH=/usr/bin:/bin MODULEPATH= bash --noprofile --norc -c '
    set -euo pipefail
    source "$1"; module use "$2/share/modulefiles"; module load crd
    [ "$(command -v crd)" = "$2/bin/crd" ] || { echo "FAIL: crd on PATH is $(command -v crd)"; exit 1; }
    cp "$CRD_HOME/slurm/blind-run.sbatch" "$3/installed.sbatch"  # the copy a user edits
    OUTPUT="$3/installed.h5" CONFIG="$CRD_HOME/configs/quickstart.ini" \
      sbatch --wait -O -n 2 --chdir="$3" --output="$3/installed.out" "$3/installed.sbatch" "@$3/corpus.list" >/dev/null
  ' bash "$lmod_init" "$prefix" "$jobs"
  "$py" "$src/tests/slurm/check_slurm_result.py" run "$jobs/installed.h5" "$jobs/ref.h5"
else
  echo "note: Lmod or the build's install script absent: the installed template is not tried"
fi

failed=0
echo "PASS: slurm jobs"
