#!/usr/bin/python3
"""Cost per byte of the winnow page rules against scan discover (docs/winnow.md): CPU seconds (user +
system, median of --repeat runs, the commands alternated within each repeat so that a slow spell of
a shared machine hits them all) of discover (scan), detect with scan, winnow (the binomial rule by
default, with the stop grams per host and across hosts) and winnow+scan (the combined rule, neither
stop by default) labels, the same two with --host-stop-pages 20 (what the stop grams per host cost
winnow+scan), winnow with --cross-host-stop-hosts 0 (the default's row minus this is what the stop
grams across hosts cost), and run with each winnow chunker, at 1 rank. A job that a --baseline binary refuses
(an option it does not have) is shown as — in its column.
The labels are `crd label` of the corpus's first shard with the same chunker, as perf/cost_table.py
makes them.

    /usr/bin/python3 perf/synth_corpus.py /tmp/synth48x2 --size 48M --shards 2 --level 1 --seed 1
    /usr/bin/python3 perf/winnow_rule_cost.py --crd build/crd --corpus /tmp/synth48x2/warc [--repeat 3]
        [--baseline OLD/crd]   (also runs OLD on every job, alternated with --crd: a column each)
"""
import argparse
import os
import resource
import shutil
import statistics
import subprocess
import tempfile


def cpu_seconds(cmd):
    """CPU seconds of cmd, or None when it fails (a baseline without one of the job's options)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    ok = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL).returncode == 0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime) if ok else None


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--crd", required=True)
    ap.add_argument("--corpus", required=True, help="a directory of .warc.gz shards (perf/synth_corpus.py OUT/warc)")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--baseline", help="another crd binary, run alternately with --crd (both use --crd's labels)")
    args = ap.parse_args()
    crd = os.path.abspath(args.crd)
    binaries = [crd] + ([os.path.abspath(args.baseline)] if args.baseline else [])
    shards = sorted(os.path.join(args.corpus, n) for n in os.listdir(args.corpus) if n.endswith(".warc.gz"))
    work = tempfile.mkdtemp(prefix="crd-winnow-cost-")
    quiet = ["--progress-interval", "0"]
    labels = {}
    for chunker in ("scan", "winnow", "winnow+scan"):
        labels[chunker] = os.path.join(work, "L-%s.h5" % chunker)
        subprocess.run([crd, "label", shards[0], "--chunker", chunker, "-o", labels[chunker]] + quiet, check=True,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    jobs = [("discover (scan)", ["discover", args.corpus])]
    for chunker in ("scan", "winnow", "winnow+scan"):
        jobs.append(("detect --chunker %s" % chunker, ["detect", args.corpus, "--chunker", chunker, "--labels", labels[chunker]]))
    # The stop grams per host (--host-stop-pages: 20 by default under winnow, 0 under winnow+scan).
    for chunker in ("winnow", "winnow+scan"):
        jobs.append(("detect --chunker %s --host-stop-pages 20" % chunker,
                     ["detect", args.corpus, "--chunker", chunker, "--labels", labels[chunker], "--host-stop-pages", "20"]))
    # The stop grams across hosts (--cross-host-stop-hosts: 4 by default under winnow) turned off: a second reduce
    # fewer.
    jobs.append(("detect --chunker winnow --cross-host-stop-hosts 0",
                 ["detect", args.corpus, "--chunker", "winnow", "--labels", labels["winnow"], "--cross-host-stop-hosts", "0"]))
    for chunker in ("winnow", "winnow+scan"):
        jobs.append(("run --chunker %s" % chunker, ["run", args.corpus, "--chunker", chunker]))
    seconds = {(b, name): [] for b in binaries for name, _ in jobs}
    out = os.path.join(work, "out.h5")
    for _ in range(args.repeat):
        for name, job in jobs:
            for b in binaries:
                if os.path.exists(out):
                    os.unlink(out)
                seconds[(b, name)].append(cpu_seconds([b] + job + ["-o", out] + quiet))
    # Each binary against its own scan discover.
    base = {b: statistics.median(seconds[(b, "discover (scan)")]) for b in binaries}
    heads = ["CPU s (median of %d) | × scan discover" % args.repeat] + (["baseline CPU s | ×"] if args.baseline else [])
    print("| command | %s |" % " | ".join(heads))
    print("|---|" + "---:|---:|" * len(binaries))
    for name, _ in jobs:
        cells = []
        for b in binaries:
            runs = seconds[(b, name)]
            if None in runs:
                cells.append("— | —")
                continue
            cpu = statistics.median(runs)
            cells.append("%.2f | %.1f" % (cpu, cpu / base[b]))
        print("| `%s` | %s |" % (name, " | ".join(cells)))
    shutil.rmtree(work)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
