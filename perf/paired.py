#!/usr/bin/env python3
"""Paired, alternating timing of shell commands on a drifting shared machine (platform.md).

Every repetition runs each command once, in a rotated order, after warming the page cache (the
kernel's DAMON scheme evicts file pages idle for ~30 s), so all commands meet the machine's slow
and fast spells alike. Prints the median wall and CPU time of each command and, for each ratio
asked for, the median and range of that ratio taken within each repetition ("paired").

    perf/paired.py -r 5 --warm DIR --ratio 'crd/sha1sum=sha1sum/crd' \\
        --phases crd=/tmp/d.h5 -- sha1sum='xargs -0 sha1sum < LIST' crd='crd discover DIR -o /tmp/d.h5'

A ratio is A/B (wall of A over wall of B, per repetition) or A/B:C/D ((A/B) over (C/D)).
--phases NAME=H5 reads /run/timings of the result NAME wrote (Debian's /usr/bin/python3 has h5py)
after each run, and reports each phase and the time outside them (process and MPI start and
end, HDF5 open and commit). --csv keeps every run: name,rep,wall,cpu,load1[,phase=s…].
"""
import argparse
import os
import statistics as st
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PHASES = """
import sys
sys.path.insert(0, sys.argv[1] + "/analysis")
from crd_results import open_results
t = open_results(sys.argv[2]).timings
print(" ".join(f"{p}={s:.4f}" for p, s in zip(t["phase"], t["seconds"])))
"""


def run(cmd):
    start = time.perf_counter()
    proc = subprocess.Popen(["bash", "-c", cmd], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - start
    err = proc.stderr.read().decode(errors="replace")
    if os.waitstatus_to_exitcode(status) != 0:
        sys.exit(f"paired.py: command failed ({cmd}):\n{err}")
    return wall, usage.ru_utime + usage.ru_stime


def phases(h5):
    out = subprocess.run(["/usr/bin/python3", "-c", PHASES, ROOT, h5], check=True, capture_output=True, text=True)
    return {k: float(v) for k, v in (kv.split("=") for kv in out.stdout.split())}


def warm(paths):
    for p in paths:
        subprocess.run(["bash", "-c", 'find "$1" -type f -print0 | xargs -0 cat > /dev/null', "_", p], check=True)


def ratio_values(spec, walls, reps):
    def one(a, b, i):
        return walls[a][i] / walls[b][i]
    if ":" in spec:
        left, right = spec.split(":")
        return [one(*left.split("/"), i) / one(*right.split("/"), i) for i in range(reps)]
    return [one(*spec.split("/"), i) for i in range(reps)]


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("-r", "--reps", type=int, default=5)
    ap.add_argument("--warm", action="append", default=[], help="file or directory to read before every repetition")
    ap.add_argument("--ratio", action="append", default=[], help="LABEL=A/B or LABEL=A/B:C/D")
    ap.add_argument("--phases", action="append", default=[], help="NAME=RESULT.h5")
    ap.add_argument("--csv")
    ap.add_argument("commands", nargs="+", help="NAME=COMMAND (after --)")
    args = ap.parse_args()
    commands = [c.split("=", 1) for c in args.commands]
    h5 = dict(p.split("=", 1) for p in args.phases)
    walls = {n: [] for n, _ in commands}
    cpus = {n: [] for n, _ in commands}
    phase_rows = {n: [] for n in h5}
    rows = []
    for rep in range(args.reps):
        warm(args.warm)
        k = rep % len(commands)
        for name, cmd in commands[k:] + commands[:k]:
            load = open("/proc/loadavg").read().split()[0]
            wall, cpu = run(cmd)
            walls[name].append(wall)
            cpus[name].append(cpu)
            extra = ""
            if name in h5:
                ph = phases(h5[name])
                phase_rows[name].append(ph)
                extra = "," + ",".join(f"{p}={s:.4f}" for p, s in ph.items())
            rows.append(f"{name},{rep + 1},{wall:.4f},{cpu:.4f},{load}{extra}")
            print(f"  rep {rep + 1} {name}: {wall:.3f} s wall, {cpu:.3f} s CPU, load {load}", file=sys.stderr)
    if args.csv:
        with open(args.csv, "w") as f:
            f.write("name,rep,wall,cpu,load1,phases\n" + "\n".join(rows) + "\n")
    loads = [float(r.split(",")[4]) for r in rows]
    print(f"{args.reps} repetitions, load average {min(loads):.1f}–{max(loads):.1f} (uptime: {os.getloadavg()[0]:.2f} now)")
    print("| command | median wall s | best s | median CPU s |\n|---|---:|---:|---:|")
    for name, _ in commands:
        print(f"| {name} | {st.median(walls[name]):.3f} | {min(walls[name]):.3f} | {st.median(cpus[name]):.3f} |")
    for name, runs in phase_rows.items():
        keys = list(runs[0])
        parts = {p: st.median(r.get(p, 0.0) for r in runs) for p in keys}
        outside = st.median(w - sum(r.values()) for w, r in zip(walls[name], runs))
        print(f"{name} phases (median s): " + ", ".join(f"{p} {s:.3f}" for p, s in parts.items()) +
              f", outside the phases {outside:.3f}")
    if args.ratio:
        print("\n| ratio | paired median | range |\n|---|---:|---:|")
    for spec in args.ratio:
        label, expr = spec.split("=", 1)
        v = ratio_values(expr, walls, args.reps)
        print(f"| {label} | **{st.median(v):.2f}** | {min(v):.2f}–{max(v):.2f} |")


if __name__ == "__main__":
    main()
