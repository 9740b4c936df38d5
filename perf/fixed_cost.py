#!/usr/bin/env python3
"""Where the fixed time of a crd job goes, at 1 and 2 ranks: a one-page discover run many times
under perf/fixed_cost_trace.c (an LD_PRELOAD shim that timestamps MPI_Init, H5Fcreate, the first
H5Dwrite, H5Fflush, H5Fclose, MPI_Finalize and each rank's exec and exit), with the launcher's own
start and end around it. Prints, per configuration, the MINIMUM over the repetitions of each step
(wall ms; the slowest rank's time for each event), which a loaded machine inflates the least.

    perf/fixed_cost.py -c build/crd [--old OTHER_CRD] [-r 30] [--yardstick build/perf/fixed_cost_yardstick]

Configurations, run in rotated order each repetition: crd run directly (no launcher; crd then
does not start MPI, nor under `-np 1`), `scripts/mpirun.sh -np 1`, `scripts/mpirun.sh -np 2`; with
--old the same for the other binary; with --yardstick, a C program that does only MPI_Init,
H5Fcreate, H5Fclose and MPI_Finalize (perf/fixed_cost_yardstick.c) under the same launcher at 1 and
2 ranks: Open MPI's and HDF5's own floor. Steps whose events a configuration lacks stay blank.
"""
import argparse
import os
import shlex
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
STEPS = [  # (name, from event, to event); events are the slowest rank's
    ("launch (start → last rank's libraries loaded)", "start", "main"),
    ("main → MPI_Init call", "main", "MPI_Init.call"),
    ("MPI_Init", "MPI_Init.call", "MPI_Init.return"),
    ("options, listing, scan, shuffle", "MPI_Init.return", "H5Fcreate.call"),
    ("H5Fcreate", "H5Fcreate.call", "H5Fcreate.return"),
    ("create → first H5Dwrite", "H5Fcreate.return", "H5Dwrite.first"),
    ("writes (first H5Dwrite → H5Fflush)", "H5Dwrite.first", "H5Fflush.call"),
    ("H5Fflush", "H5Fflush.call", "H5Fflush.return"),
    ("H5Fclose", "H5Fclose.call", "H5Fclose.return"),
    ("close → MPI_Finalize", "H5Fclose.return", "MPI_Finalize.call"),
    ("MPI_Finalize", "MPI_Finalize.call", "MPI_Finalize.return"),
    ("after MPI_Finalize → last rank's exit", "MPI_Finalize.return", "exit"),
    ("teardown (last exit → launcher's end)", "exit", "end"),
    ("whole job (launcher's start → end)", "start", "end"),
]


def build_shim(tmp):
    so = os.path.join(tmp, "fixed_cost_trace.so")
    subprocess.run(["cc", "-O2", "-shared", "-fPIC", "-o", so, os.path.join(ROOT, "perf", "fixed_cost_trace.c"),
                    "-ldl"], check=True)
    return so


def run_traced(cmd, shim, extra_env):
    """{event: slowest rank's time} relative to the launcher's start, plus 'end'."""
    env = dict(os.environ, LD_PRELOAD=shim, **extra_env)
    start = time.time()
    proc = subprocess.run(cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    end = time.time()
    if proc.returncode != 0:
        sys.exit(f"fixed_cost.py: failed: {' '.join(cmd)}\n{proc.stderr}")
    events = {"start": 0.0, "end": end - start}
    lines = [line.split() for line in proc.stderr.splitlines()]
    lines = [p for p in lines if len(p) == 4 and p[0] == "trace" and p[2] != "exec"]  # exec: clock ticks
    launched = any(p[1] != "-" for p in lines)  # then "-" is the launcher (mpirun, its shell)
    for _, rank, event, at in lines:
        if launched and rank == "-":
            continue
        t = float(at) - start
        events[event] = max(events.get(event, t), t)
    return events


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("-c", "--crd", default=os.path.join(ROOT, "build", "crd"))
    ap.add_argument("--old", help="another crd binary, alternated with -c")
    ap.add_argument("--yardstick", help="perf/fixed_cost_yardstick.c built (build/perf/fixed_cost_yardstick)")
    ap.add_argument("-r", "--reps", type=int, default=30)
    a = ap.parse_args()
    tmp = tempfile.mkdtemp(prefix="crd-fixed.")
    shim = build_shim(tmp)
    page = os.path.join(tmp, "page")
    os.mkdir(page)
    with open(os.path.join(page, "p.html"), "w") as f:
        f.write("<html><body><p>One page of text, so that the job is its fixed costs.</p></body></html>\n")
    mpirun = os.path.join(ROOT, "scripts", "mpirun.sh")
    out = os.path.join(tmp, "o.h5")
    binaries = {"new": a.crd}
    if a.old:
        binaries["old"] = a.old
    cmds = {}
    for tag, crd in binaries.items():
        job = [crd, "discover", "--progress-interval", "0", "-o", out, page]
        cmds[f"{tag} direct"] = job
        cmds[f"{tag} np1"] = [mpirun, "-np", "1", "-x", "LD_PRELOAD"] + job
        cmds[f"{tag} np2"] = [mpirun, "-np", "2", "-x", "LD_PRELOAD"] + job
    if a.yardstick:
        ys = [a.yardstick, os.path.join(tmp, "y.h5")]
        cmds["yardstick np1"] = [mpirun, "-np", "1", "-x", "LD_PRELOAD"] + ys
        cmds["yardstick np2"] = [mpirun, "-np", "2", "-x", "LD_PRELOAD"] + ys
    # The yardstick gets the Open MPI settings crd makes for itself (comm/mpi_startup.cpp; the
    # TCP_NODELAY one is in its code). A singleton yardstick is left out: crd never starts MPI
    # for one process.
    yard_env = {"OMPI_MCA_pml": "ob1", "OMPI_MCA_mpi_yield_when_idle": "1", "OMPI_MCA_sharedfp": "^lockedfile,individual"}
    names = list(cmds)
    runs = {n: [] for n in names}
    load0 = os.getloadavg()[0]
    for r in range(a.reps):
        order = names[r % len(names):] + names[:r % len(names)]
        for n in order:
            runs[n].append(run_traced(cmds[n], shim, yard_env if n.startswith("yardstick") else {}))
    load1 = os.getloadavg()[0]
    print(f"wall ms, minimum over {a.reps} runs of each step (slowest rank); load {load0:.1f} → {load1:.1f}")
    width = max(len(s[0]) for s in STEPS)
    print(" " * width + "".join(f"{n:>17s}" for n in names))
    for label, e0, e1 in STEPS:
        row = []
        for n in names:
            vals = [ev[e1] - ev[e0] for ev in runs[n] if e0 in ev and e1 in ev]
            row.append(f"{1000 * min(vals):17.1f}" if vals else f"{'':>17s}")
        print(f"{label:{width}s}" + "".join(row))
    print(f"{'whole job, median':{width}s}" +
          "".join(f"{1000 * sorted(ev['end'] for ev in runs[n])[len(runs[n]) // 2]:17.1f}" for n in names))


if __name__ == "__main__":
    main()
