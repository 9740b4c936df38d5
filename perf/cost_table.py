#!/usr/bin/python3
"""One cost table for every corpus command: each command on the same synthetic
Common-Crawl-shaped corpus, at 1 and 2 ranks, as MB/s per core, peak RSS per input MB and the
ratio of its CPU cost per byte to discover's. Input MB are the pages' HTML bytes from
synth_corpus.py's manifest.json beside the warc directory (else the .warc.gz files' bytes).

    /usr/bin/python3 perf/cost_table.py --crd build/crd --corpus DIR/warc [--ranks 1 2] [--repeat 3]
                                        [--only REGEX] [--markdown OUT.md]

DIR comes from perf/synth_corpus.py (e.g. `--seed 1 --size 48M --shards 2 --level 1`). Wall time
is the median of --repeat runs of the whole job (mpirun included at 2 ranks; at 1 rank crd runs
without mpirun, as users run it). Peak RSS is crd's own /run/resources memory.peak_rss_max (the
largest rank's). "× discover" is (wall × ranks) / (discover's wall × ranks) at the same rank
count: the cost per byte against discover's; "CPU × discover" is the same by CPU seconds (user +
system of the job and its processes, median of the repeats), which a shared machine disturbs less.
--only runs the commands whose names match (discover always runs: it is the base). label and detect need labels: label runs over the
corpus's first shard; detect and compare-hashing use those labels; merge sums two discover
--keep-counts results, one per half of the shards; compare-hashing's truth is the first page's host.
"""
import argparse
import gzip
import re
import resource as rusage
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

import h5py

ROOT_ENV = {"OMPI_ALLOW_RUN_AS_ROOT": "1", "OMPI_ALLOW_RUN_AS_ROOT_CONFIRM": "1",
            "OMPI_MCA_rmaps_base_oversubscribe": "1"}


def resource(path, name):
    with h5py.File(path, "r") as f:
        names = [n.decode() for n in f["run/resources/name"][:]]
        return int(f["run/resources/value"][names.index(name)])


def run(crd, args, ranks, env):
    """Runs one job; returns (wall seconds, CPU seconds of it and its processes)."""
    cmd = ([crd] if ranks == 1 else ["mpirun", "-np", str(ranks), crd]) + args + ["--progress-interval", "0"]
    before = rusage.getrusage(rusage.RUSAGE_CHILDREN)
    t = time.monotonic()
    subprocess.run(cmd, check=True, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    wall = time.monotonic() - t
    after = rusage.getrusage(rusage.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--crd", required=True)
    ap.add_argument("--corpus", required=True, help="a directory of .warc.gz shards (perf/synth_corpus.py OUT/warc)")
    ap.add_argument("--ranks", type=int, nargs="+", default=[1, 2])
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--only", help="a regular expression: run only the commands whose names match")
    ap.add_argument("--markdown")
    args = ap.parse_args()
    crd = os.path.abspath(args.crd)
    env = dict(os.environ, **ROOT_ENV)
    shards = sorted(os.path.join(args.corpus, n) for n in os.listdir(args.corpus) if n.endswith(".warc.gz"))
    mb = sum(os.path.getsize(s) for s in shards) / 1e6
    manifest = os.path.join(os.path.dirname(os.path.abspath(args.corpus)), "manifest.json")
    if os.path.exists(manifest):
        with open(manifest) as f:
            mb = json.load(f)["html_bytes"] / 1e6
    work = tempfile.mkdtemp(prefix="crd-cost-")
    out = lambda name: os.path.join(work, name)  # noqa: E731
    labels = out("labels.h5")
    run(crd, ["label", shards[0], "-o", labels], 1, env)
    half = max(1, len(shards) // 2)
    run(crd, ["discover"] + shards[:half] + ["--keep-counts", "-o", out("a.h5")], 1, env)
    run(crd, ["discover"] + (shards[half:] or shards[:1]) + ["--keep-counts", "-o", out("b.h5")], 1, env)
    truth = out("truth.txt")
    with gzip.open(shards[0], "rb") as f, open(truth, "w") as t:
        for line in f:
            if line.startswith(b"WARC-Target-URI: "):
                t.write(line.split(b"://", 1)[1].split(b"/", 1)[0].decode() + "/\n")  # its host's pages
                break
    jobs = [
        ("discover", ["discover", args.corpus]),
        ("label", ["label", args.corpus]),
        ("detect", ["detect", args.corpus, "--labels", labels]),
        ("run", ["run", args.corpus]),
        ("run --chunker dom", ["run", args.corpus, "--chunker", "dom"]),
        ("run --chunker sentence", ["run", args.corpus, "--chunker", "sentence"]),
        ("run --chunker winnow", ["run", args.corpus, "--chunker", "winnow"]),
        ("neardup --method minhash", ["neardup", args.corpus, "--method", "minhash"]),
        ("neardup --method simhash", ["neardup", args.corpus, "--method", "simhash"]),
        ("neardup --method combined", ["neardup", args.corpus, "--method", "combined"]),
        ("quilts", ["quilts", args.corpus]),
        ("merge (2 halves)", ["merge", out("a.h5"), out("b.h5")]),
        ("compare-hashing", ["compare-hashing", args.corpus, "--labels", labels, "--truth", truth]),
    ]
    if args.only:
        jobs = [(name, job) for name, job in jobs if name == "discover" or re.search(args.only, name)]
    rows = []
    base = {}
    for ranks in args.ranks:
        for name, job in jobs:
            result = out("r.h5")
            runs = []
            for _ in range(args.repeat):
                if os.path.exists(result):
                    os.unlink(result)
                runs.append(run(crd, job + ["-o", result], ranks, env))
            wall = statistics.median(w for w, _ in runs)
            cpu = statistics.median(c for _, c in runs)
            rss = resource(result, "memory.peak_rss_max") / 1e6
            if name == "discover":
                base[ranks] = (wall, cpu)
            rows.append((name, ranks, wall, cpu, mb / wall / ranks, rss / mb, wall / base[ranks][0], cpu / base[ranks][1]))
            print("%-26s np%d  %7.2f s  %7.2f CPU s  %7.1f MB/s/core  %6.2f MB RSS per input MB  %6.1f× discover"
                  "  %6.1f× by CPU" % rows[-1], flush=True)
    lines = ["| command | ranks | wall (s) | CPU (s) | MB/s per core | peak RSS / input MB | × discover | CPU × discover |",
             "|---|---|---|---|---|---|---|---|"]
    for row in rows:
        lines.append("| `%s` | %d | %.2f | %.2f | %.1f | %.2f | %.1f | %.1f |" % row)
    text = "corpus: %s (%.0f MB of input in %d shards)\n\n" % (args.corpus, mb, len(shards)) + "\n".join(lines) + "\n"
    print(text)
    if args.markdown:
        with open(args.markdown, "w") as f:
            f.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
