#!/usr/bin/env python3
"""crd discover against the floor a core allows: one inflate (libdeflate-gunzip, igzip) plus two
SHA-1 passes (openssl sha1, SHA-NI) over the same bytes, since discover hashes every byte twice
(the file and its chunks). sha1sum and zcat, the yardstick before, are measured beside it.

    perf/floor.py -c build/crd --gz A.warc.gz… --warc A.warc… --dir DIR [-r 3] [--two-ranks] [--old CRD]

--warc must hold the bytes --gz decompresses to (perf/make_warc.py --plain writes both; for
other .warc.gz, `igzip -dc`). Every repetition warms the files, then runs every command once in
a rotated order (paired: platform.md), 1 rank, --reader-thread off. Figures are CPU seconds
(user+sys of the command and its children); ratios are taken within each repetition, then the
median and range are printed. Ratios: floor / crd (≥ 1: crd is faster than the floor).

--two-ranks adds, in wall seconds: crd at 1 and 2 ranks on the .warc.gz files, against the floor
run once over all of them and as two independent pipelines over halves of them (by bytes, at the
same time), and --reader-thread auto against off at 1 and 2 ranks (with --old, the other binary's
speedup too). Wall, since a speedup is a matter of wall time. crd runs under scripts/mpirun.sh at
both rank counts, so mpirun's own start and end (about 40 ms, perf/fixed_cost.py) is in both
times; the floor has no launcher. A second line takes 1 rank run directly, as a user would (crd
skips MPI at one rank): the strictest reading.
"""
import argparse
import os
import shlex
import statistics as st
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def run(cmd):
    start = time.perf_counter()
    proc = subprocess.Popen(["bash", "-c", cmd], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(proc.pid, 0)  # the shell's usage includes its waited-for children
    wall = time.perf_counter() - start
    err = proc.stderr.read().decode(errors="replace")
    if os.waitstatus_to_exitcode(status) != 0:
        sys.exit(f"floor.py: command failed ({cmd}):\n{err}")
    return wall, usage.ru_utime + usage.ru_stime


def q(paths):
    return " ".join(shlex.quote(p) for p in paths)


def halves(paths):
    """Two lists of about equal bytes (largest first, each to the lighter side)."""
    sides = ([], []), [0, 0]
    for p in sorted(paths, key=os.path.getsize, reverse=True):
        i = 0 if sides[1][0] <= sides[1][1] else 1
        sides[0][i].append(p)
        sides[1][i] += os.path.getsize(p)
    return sides[0]


def paired(cmds, reps, warm, measure):
    """{name: [value per rep]} with measure(wall, cpu) -> value; order rotated each repetition."""
    out = {name: [] for name in cmds}
    names = list(cmds)
    for r in range(reps):
        order = names[r % len(names):] + names[:r % len(names)]
        for name in order:
            subprocess.run(["bash", "-c", f"cat {warm} > /dev/null"], check=True)
            out[name].append(measure(*run(cmds[name])))
    return out


def summary(values):
    return f"{st.median(values):.3f} ({min(values):.3f}–{max(values):.3f})"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("-c", "--crd", default=os.path.join(ROOT, "build", "crd"))
    ap.add_argument("--gz", nargs="+", required=True)
    ap.add_argument("--warc", nargs="+", required=True)
    ap.add_argument("--dir", required=True)
    ap.add_argument("-r", "--reps", type=int, default=3)
    ap.add_argument("--two-ranks", action="store_true")
    ap.add_argument("--only-two-ranks", action="store_true", help="--two-ranks without the 1-rank CPU part")
    ap.add_argument("--old", help="another crd binary, paired with -c on the .warc.gz and .warc (before/after)")
    a = ap.parse_args()
    tmp = tempfile.mkdtemp(prefix="crd-floor.")
    out = os.path.join(tmp, "d.h5")
    crd = f"{shlex.quote(a.crd)} discover --progress-interval 0 -o {out}"
    dir_files = f"find {shlex.quote(a.dir)} -type f -print0 | xargs -0"
    gz, warc = q(a.gz), q(a.warc)
    warm = f"{gz} {warc} $(find {shlex.quote(a.dir)} -type f)"
    cmds = {
        "libdeflate-gunzip": f"libdeflate-gunzip -c {gz} > /dev/null",
        "igzip": f"igzip -dc {gz} > /dev/null",
        "zcat": f"zcat {gz} > /dev/null",
        "openssl-sha1 warc": f"openssl sha1 {warc} > /dev/null",
        "sha1sum warc": f"sha1sum {warc} > /dev/null",
        "openssl-sha1 dir": f"{dir_files} openssl sha1 > /dev/null",
        "sha1sum dir": f"{dir_files} sha1sum > /dev/null",
        "crd .warc.gz": f"{crd} --reader-thread off {gz}",
        "crd .warc": f"{crd} --reader-thread off {warc}",
        "crd dir": f"{crd} --reader-thread off {shlex.quote(a.dir)}",
    }
    old = f"{shlex.quote(a.old)} discover --progress-interval 0 -o {out}" if a.old else None
    if a.old:
        cmds["old crd .warc.gz"] = f"{old} --reader-thread off {gz}"
        cmds["old crd .warc"] = f"{old} --reader-thread off {warc}"
    reps = range(a.reps)
    if a.only_two_ranks:
        return two_ranks(a, crd, old, gz, warm, reps)
    cpu = paired(cmds, a.reps, warm, lambda wall, c: c)
    print(f"CPU seconds, median (range) of {a.reps} paired runs, 1 rank, --reader-thread off:")
    for name, v in cpu.items():
        print(f"  {name:20s} {summary(v)}")
    c = cpu
    floor_gz = [c["libdeflate-gunzip"][i] + 2 * c["openssl-sha1 warc"][i] for i in reps]
    floor_warc = [2 * c["openssl-sha1 warc"][i] for i in reps]
    floor_dir = [2 * c["openssl-sha1 dir"][i] for i in reps]
    print("Ratios (floor / crd, per repetition):")
    print(f"  .warc.gz: (libdeflate-gunzip + 2 openssl sha1) / crd   {summary([floor_gz[i] / c['crd .warc.gz'][i] for i in reps])}")
    print(f"  .warc:    2 openssl sha1 / crd                         {summary([floor_warc[i] / c['crd .warc'][i] for i in reps])}")
    print(f"  dir:      2 openssl sha1 / crd                         {summary([floor_dir[i] / c['crd dir'][i] for i in reps])}")
    print("  before (continuity):")
    print(f"  .warc.gz: (zcat + sha1sum) / crd                        {summary([(c['zcat'][i] + c['sha1sum warc'][i]) / c['crd .warc.gz'][i] for i in reps])}")
    print(f"  dir:      sha1sum / crd                                {summary([c['sha1sum dir'][i] / c['crd dir'][i] for i in reps])}")
    if a.old:
        print(f"  old crd / crd, .warc.gz                                {summary([c['old crd .warc.gz'][i] / c['crd .warc.gz'][i] for i in reps])}")
        print(f"  old crd / crd, .warc                                   {summary([c['old crd .warc'][i] / c['crd .warc'][i] for i in reps])}")
    if a.two_ranks:
        two_ranks(a, crd, old, gz, warm, reps)


def two_ranks(a, crd, old, gz, warm, reps):
    mpirun = os.path.join(ROOT, "scripts", "mpirun.sh")
    h1, h2 = halves(a.gz)
    w1, w2 = halves(a.warc)

    def floor_of(g, w):
        return f"libdeflate-gunzip -c {q(g)} > /dev/null; openssl sha1 {q(w)} > /dev/null; openssl sha1 {q(w)} > /dev/null"

    two = {
        "floor, one": floor_of(a.gz, a.warc),
        "floor, two halves": f"( {floor_of(h1, w1)} ) & ( {floor_of(h2, w2)} ) & wait",
        "crd np1 off": f"{mpirun} -np 1 {crd} --reader-thread off {gz}",
        "crd np2 off": f"{mpirun} -np 2 {crd} --reader-thread off {gz}",
        "crd np1 auto": f"{mpirun} -np 1 {crd} --reader-thread auto {gz}",
        "crd np2 auto": f"{mpirun} -np 2 {crd} --reader-thread auto {gz}",
        "crd 1 direct": f"{crd} --reader-thread off {gz}",
    }
    if a.old:
        two["old crd np1 off"] = f"{mpirun} -np 1 {old} --reader-thread off {gz}"
        two["old crd np2 off"] = f"{mpirun} -np 2 {old} --reader-thread off {gz}"
    wall = paired(two, a.reps, warm, lambda w, c: w)
    print(f"Wall seconds, median (range) of {a.reps} paired runs, .warc.gz:")
    for name, v in wall.items():
        print(f"  {name:20s} {summary(v)}")
    w = wall
    floor_speedup = [w["floor, one"][i] / w["floor, two halves"][i] for i in reps]
    crd_speedup = [w["crd np1 off"][i] / w["crd np2 off"][i] for i in reps]
    print(f"  floor's speedup, one / two halves                      {summary(floor_speedup)}")
    print(f"  crd's speedup, 1 / 2 ranks (off)                       {summary(crd_speedup)}")
    print(f"  crd's speedup / the floor's (goal ≥ 0.9)               {summary([crd_speedup[i] / floor_speedup[i] for i in reps])}")
    # As a user runs it: 1 rank needs no launcher (crd then skips MPI), 2 ranks need mpirun.
    direct = [w["crd 1 direct"][i] / w["crd np2 off"][i] / floor_speedup[i] for i in reps]
    print(f"  the same, 1 rank run directly (no mpirun)              {summary(direct)}")
    if a.old:
        old_speedup = [w["old crd np1 off"][i] / w["old crd np2 off"][i] / floor_speedup[i] for i in reps]
        print(f"  old crd's speedup / the floor's                        {summary(old_speedup)}")
    print(f"  --reader-thread off / auto, 1 rank (> 1: auto faster)  {summary([w['crd np1 off'][i] / w['crd np1 auto'][i] for i in reps])}")
    print(f"  --reader-thread off / auto, 2 ranks                    {summary([w['crd np2 off'][i] / w['crd np2 auto'][i] for i in reps])}")


if __name__ == "__main__":
    main()
