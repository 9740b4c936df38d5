#!/usr/bin/python3
"""Where a 2-rank discover's wall time goes, beside one rank's: per rank CPU and time spent inside
MPI (waiting for the other rank), and the job's phases, from alternating runs.

    /usr/bin/python3 perf/two_ranks.py -c build/crd [--old OTHER_CRD] [-r 7] INPUT…

Each repetition warms the inputs, then runs, in rotated order, `crd discover --reader-thread off`
under scripts/mpirun.sh at -np 1 and -np 2 (and the same for --old). Every rank runs under
/usr/bin/time (its CPU: user + sys, every thread, its exit included), and at 2 ranks under
perf/mpi_wait_trace.c (its wall time inside MPI's collectives and MPI-IO calls, built here with
mpicc). Printed per configuration, as the median (minimum) over the repetitions, in ms: the whole
job's wall time; the phases of /run/timings (each the slowest rank's); what lies outside them
(launch, MPI_Init, the result file's commit, MPI_Finalize, exit and teardown); and per rank the CPU
time and the time inside MPI, each the least and the most of the ranks (CPU in steps of 10 ms, as
/usr/bin/time gives it). docs/discover-speed.md ("Two ranks") has a breakdown made so.
Needs h5py (Debian's /usr/bin/python3).
"""
import argparse
import os
import shlex
import statistics as st
import subprocess
import sys
import tempfile
import time

import h5py

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def timings(path):
    with h5py.File(path, "r") as f:
        g = f["/run/timings"]
        return {p.decode(): float(s) for p, s in zip(g["phase"][:], g["seconds"][:])}


def run(crd, ranks, inputs, shim, out):
    """(job wall s, {phase: s}, [rank CPU s], [rank s inside MPI])"""
    # Each rank's /usr/bin/time writes a file of its own: lines of two ranks on stderr interleave.
    cpu_dir = tempfile.mkdtemp(dir=os.path.dirname(out))
    timed = 'exec /usr/bin/time -o "$0/cpu.${OMPI_COMM_WORLD_RANK:-0}" -f "%U %S" "$@"'
    job = ["sh", "-c", timed, cpu_dir, "env"] + ([f"LD_PRELOAD={shim}"] if ranks > 1 else [])
    job += [crd, "discover", "--progress-interval", "0", "--reader-thread", "off", "-o", out] + inputs
    cmd = [os.path.join(ROOT, "scripts", "mpirun.sh"), "-np", str(ranks)] + job
    start = time.perf_counter()
    proc = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    wall = time.perf_counter() - start
    if proc.returncode != 0:
        sys.exit(f"two_ranks.py: failed: {shlex.join(cmd)}\n{proc.stderr}")
    cpu = []
    for name in os.listdir(cpu_dir):
        with open(os.path.join(cpu_dir, name)) as f:
            user, system = f.read().split()[-2:]
        cpu.append(float(user) + float(system))
    in_mpi = []
    for line in proc.stderr.splitlines():
        words = line.split()
        if words[:1] == ["mpi_wait"]:  # "mpi_wait rank R: cpu C ms, in MPI T ms over N calls; …"
            in_mpi.append(float(words[words.index("MPI") + 1]) / 1e3)
    if len(cpu) != ranks or len(in_mpi) != (ranks if ranks > 1 else 0):
        sys.exit(f"two_ranks.py: expected {ranks} ranks' figures: {cpu} {in_mpi}\n{proc.stderr}")
    return wall, timings(out), sorted(cpu), sorted(in_mpi)


def ms(values):
    return f"{1e3 * st.median(values):7.1f} ({1e3 * min(values):.1f})"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("-c", "--crd", default=os.path.join(ROOT, "build", "crd"))
    ap.add_argument("--old", help="another crd binary, alternated with -c")
    ap.add_argument("-r", "--reps", type=int, default=7)
    ap.add_argument("inputs", nargs="+")
    a = ap.parse_args()
    tmp = tempfile.mkdtemp(prefix="crd-two-ranks.")
    shim = os.path.join(tmp, "mpi_wait_trace.so")
    subprocess.run(["mpicc", "-O2", "-shared", "-fPIC", "-o", shim, os.path.join(ROOT, "perf", "mpi_wait_trace.c")],
                   check=True)
    configs = {}
    for tag, crd in [("new", a.crd)] + ([("old", a.old)] if a.old else []):
        for ranks in (1, 2):
            configs[f"{tag} np{ranks}"] = (crd, ranks)
    names = list(configs)
    runs = {n: [] for n in names}
    load0 = os.getloadavg()[0]
    for r in range(a.reps):
        for n in names[r % len(names):] + names[:r % len(names)]:
            subprocess.run(["cat"] + a.inputs, stdout=subprocess.DEVNULL, check=True)
            runs[n].append(run(*configs[n], a.inputs, shim, os.path.join(tmp, "d.h5")))
    print(f"ms, median (min) of {a.reps} alternating runs; load {load0:.1f} → {os.getloadavg()[0]:.1f}")
    for n in names:
        rs = runs[n]
        print(f"{n}: whole job {ms([w for w, _, _, _ in rs])}")
        phases = list(rs[0][1])
        for p in phases:
            print(f"  {p:12s} {ms([t[p] for _, t, _, _ in rs])}")
        print(f"  {'outside':12s} {ms([w - sum(t.values()) for w, t, _, _ in rs])}  (launch, MPI start and end, commit, exit)")
        for k in range(configs[n][1]):  # each run's ranks sorted: the least first
            mpi = f", inside MPI {ms([m[k] for _, _, _, m in rs])}" if configs[n][1] > 1 else ""
            print(f"  {'least' if k == 0 else 'most'} of the ranks: CPU {ms([c[k] for _, _, c, _ in rs])}{mpi}")


if __name__ == "__main__":
    main()
