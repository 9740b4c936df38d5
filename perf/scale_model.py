#!/usr/bin/env python3
"""Measures crd discover/run at 1–4 ranks on synthetic crawls of 1×–8× a unit size, fits per-rank
memory, shuffle volume and CPU/wall time per input byte, checks the fit on a held-out point, and
projects whole crawls onto clusters (docs/scale.md).

    /usr/bin/python3 perf/scale_model.py [--crd build/crd] [--unit-pages 800] [--sizes 1,2,4,8]
        [--ranks 1,2,3,4] [--commands discover,run] [--reps 3] [--holdout 4:8] [--out DIR]
        [--assume fs_read_rate=100e9 …]
    /usr/bin/python3 perf/scale_model.py --refit DIR/measurements.csv [--out DIR]   (no new jobs)

Corpora are generated once into .cache/scale/ (perf/synth_corpus.py, reused while their manifest
matches). Every job is scripts/mpirun.sh -np R crd COMMAND CORPUS -o OUT.h5, the corpus read once
right before it (the kernel here evicts idle file pages after ~30 s). Recorded per job: wall time
(mpirun start to exit), CPU time of mpirun and its ranks (getrusage of children), the 1-minute load
average, and from the result /run/counters, /run/resources, /run/timings. Writes into --out:
measurements.csv, fit.json (coefficients, the held-out check, the projection) and projection.md.

The model (fitted per command, relative least squares, the held-out point left out):
  cpu   = c₀ + κ·B            one-rank jobs only; B: uncompressed payload bytes (bytes.chunked)
  wall  = w₀ + w₁·R + τ·B / min(R, c)   R ranks share c ≤ cores (--cores, default: nproc)
                                        cores; c is fitted: load from other jobs leaves fewer
  rss   = m₀ + μ·C/R          memory.peak_rss_max (busiest rank); C: chunk occurrences
  S     = β·C·(R−1)/R         shuffle.bytes_sent, all ranks
κ (CPU seconds per byte of one core) carries the projection; τ (wall) is this machine's.
The projection and its assumptions (node I/O, network, file system, crawls): perf/scale_projection.py.
"""

import argparse
import csv
import json
import os
import resource
import subprocess
import sys
import time

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, ".."))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(ROOT, "analysis"))
import synth_corpus  # noqa: E402
from scale_projection import ASSUMPTIONS, CRAWLS, min_nodes_in_memory, projection, projection_table  # noqa: E402

FIELDS = ["command", "ranks", "size", "rep", "wall_s", "cpu_s", "load1", "bytes", "input_bytes", "chunks",
          "pages", "distinct", "peak_rss_max", "tables_max", "shuffle_bytes", "shuffle_bytes_max",
          "shuffle_rounds", "passes", "scan_s"]

# --- measuring ---

def corpus(cache, unit_pages, size, seed, shards, log):
    """The corpus of `size` units (generated once; reused while its manifest matches)."""
    path = os.path.join(cache, "u%d-x%d-s%d" % (unit_pages, size, seed))
    pages = unit_pages * size
    manifest = os.path.join(path, "manifest.json")
    if os.path.exists(manifest):
        with open(manifest) as f:
            m = json.load(f)
        if m.get("version") == synth_corpus.VERSION and m.get("pages") == pages and m.get("shards") == shards:
            return path, m
    log("generating %s (%d pages)" % (path, pages))
    return path, synth_corpus.generate(path, synth_corpus.Shape(pages, seed=seed, shards=shards))


def warm(path):
    """Reads every shard so the timed job starts from the page cache (platform notes: DAMON)."""
    for name in sorted(os.listdir(path)):
        with open(os.path.join(path, name), "rb") as f:
            while f.read(1 << 22):
                pass


def run_job(crd, command, ranks, warc_dir, out):
    cmd = [os.path.join(ROOT, "scripts", "mpirun.sh"), "-np", str(ranks), crd, command, warc_dir,
           "-o", out, "--progress-interval", "0"]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.monotonic()
    proc = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    wall = time.monotonic() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if proc.returncode != 0:
        sys.exit("scale_model.py: %s failed (%d):\n%s" % (" ".join(cmd), proc.returncode,
                                                          proc.stderr.decode("utf-8", "replace")[-2000:]))
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu


def read_result(path):
    from crd_results import open_results
    r = open_results(path)
    c, res = r.counters.to_dict(), r.resources.to_dict()
    t = r.timings
    scan = float(t.loc[t["phase"].str.startswith("scan"), "seconds"].sum()) if t is not None else 0.0
    return {"bytes": c.get("bytes.chunked", 0), "input_bytes": c.get("input.bytes", 0),
            "chunks": c.get("chunks", 0), "pages": c.get("documents.chunked", 0),
            "distinct": r.chunks_attrs.get("distinct", 0),
            "peak_rss_max": res.get("memory.peak_rss_max", 0), "tables_max": res.get("memory.tables_max", 0),
            "shuffle_bytes": res.get("shuffle.bytes_sent", 0),
            "shuffle_bytes_max": res.get("shuffle.bytes_sent_max", 0),
            "shuffle_rounds": res.get("shuffle.rounds", 0), "passes": res.get("counting.passes", 1),
            "scan_s": scan}


def measure(a, log):
    corpora = {s: corpus(a.cache, a.unit_pages, s, a.seed, a.shards, log) for s in a.sizes}
    rows = []
    os.makedirs(a.out, exist_ok=True)
    out_h5 = os.path.join(a.out, "job.h5")
    jobs = len(a.sizes) * len(a.commands) * len(a.ranks) * a.reps
    n = 0
    for rep in range(1, a.reps + 1):
        for size in a.sizes:
            path, _ = corpora[size]
            warc_dir = os.path.join(path, "warc")
            for command in a.commands:
                for ranks in a.ranks:  # rank counts back to back: they share the machine's spells
                    warm(warc_dir)
                    load = os.getloadavg()[0]
                    wall, cpu = run_job(a.crd, command, ranks, warc_dir, out_h5)
                    row = {"command": command, "ranks": ranks, "size": size, "rep": rep,
                           "wall_s": round(wall, 3), "cpu_s": round(cpu, 3), "load1": load}
                    row.update(read_result(out_h5))
                    rows.append(row)
                    n += 1
                    log("[%d/%d] %s np=%d %d× : wall %.2f s, cpu %.2f s, rss %.0f MB, shuffle %.1f MB, load %.1f"
                        % (n, jobs, command, ranks, size, wall, cpu, row["peak_rss_max"] / 1e6,
                           row["shuffle_bytes"] / 1e6, load))
    os.remove(out_h5)
    return rows


def uptime():
    return subprocess.run(["uptime"], stdout=subprocess.PIPE, text=True).stdout.strip()


def write_csv(rows, path):
    with open(path, "w", newline="") as f:
        w = csv.DictWriter(f, FIELDS)
        w.writeheader()
        for r in rows:
            w.writerow({k: r[k] for k in FIELDS})


def read_csv(path):
    with open(path) as f:
        rows = list(csv.DictReader(f))
    for r in rows:
        for k in FIELDS:
            if k != "command":
                r[k] = float(r[k])
        r["ranks"], r["size"] = int(r["ranks"]), int(r["size"])
    return rows


# --- fitting ---

def relative_lstsq(X, y):
    """Least squares on relative errors (each row divided by its measured value), so the 1× and
    8× points count alike. Every coefficient here is a cost, so none may be negative: a column
    whose coefficient comes out negative (noise on tiny inputs) is dropped and its coefficient
    set to 0, and the rest refitted."""
    X, y = np.asarray(X, float), np.asarray(y, float)
    w = 1.0 / np.maximum(np.abs(y), 1e-12)
    keep = list(range(X.shape[1]))
    coef = np.zeros(X.shape[1])
    while keep:
        c, *_ = np.linalg.lstsq(X[:, keep] * w[:, None], y * w, rcond=None)
        if (c >= 0).all():
            coef[keep] = c
            break
        del keep[int(np.argmin(c))]
    return coef


class Model:
    """The fitted model of one command (see the module docstring)."""

    def __init__(self, rows, cores):
        self.cores = cores
        single = [r for r in rows if r["ranks"] == 1]
        multi = [r for r in rows if r["ranks"] > 1]
        # Per-core cost from one-rank jobs: their CPU time has no MPI busy-waiting in it (a rank
        # spins in a collective while its peer is descheduled), so it stands up to machine load.
        self.c0, self.kappa = (float(v) for v in relative_lstsq(
            [[1.0, r["bytes"]] for r in single], [r["cpu_s"] for r in single])) if len(single) >= 2 else (0.0, 0.0)
        # Wall time: start-up per job and per rank, and the bytes shared by min(R, c) cores, where
        # c ≤ the machine's cores is fitted too: other jobs on the machine leave it fewer (on a
        # quiet machine c ≈ cores; under load it can fall to 1: ranks then bring no speed-up).
        best = None
        for c in np.arange(1.0, cores + 1e-9, 0.05):
            X = [[1.0, r["ranks"], r["bytes"] / min(r["ranks"], c)] for r in rows]
            coef = relative_lstsq(X, [r["wall_s"] for r in rows])
            err = sum(((np.dot(x, coef) - r["wall_s"]) / r["wall_s"]) ** 2 for x, r in zip(X, rows))
            if best is None or err < best[0] - 1e-12:
                best = (err, float(c), coef)
        self.effective_cores = best[1]
        self.w0, self.w1, self.tau = (float(v) for v in best[2])
        self.m0, self.mu = (float(v) for v in relative_lstsq(
            [[1.0, r["chunks"] / r["ranks"]] for r in rows], [r["peak_rss_max"] for r in rows]))
        # S = β·C·(R−1)/R: no shuffle on one rank
        self.beta = (float(relative_lstsq([[r["chunks"] * (r["ranks"] - 1) / r["ranks"]] for r in multi],
                                          [r["shuffle_bytes"] for r in multi])[0]) if multi else 0.0)
        self.bytes_per_chunk = sum(r["bytes"] for r in rows) / sum(r["chunks"] for r in rows)

    def shuffle(self, chunks, ranks):
        return self.beta * chunks * (ranks - 1) / ranks

    def cpu(self, bytes_):
        """CPU seconds of one rank reading `bytes_` (start-up included)."""
        return self.c0 + self.kappa * bytes_

    def wall(self, bytes_, ranks):
        return self.w0 + self.w1 * ranks + self.tau * bytes_ / min(ranks, self.effective_cores)

    def rss(self, chunks, ranks):
        return self.m0 + self.mu * chunks / ranks

    def as_dict(self):
        return {k: getattr(self, k) for k in ("cores", "effective_cores", "c0", "kappa", "w0", "w1", "tau", "m0", "mu", "beta",
                                              "bytes_per_chunk")}


def check(rows, holdout, cores):
    """Fits without the held-out (ranks, size) point and compares its prediction with it."""
    ranks, size = holdout
    out = {}
    for command in sorted({r["command"] for r in rows}):
        mine = [r for r in rows if r["command"] == command]
        held = [r for r in mine if r["ranks"] == ranks and r["size"] == size]
        if not held:
            continue
        m = Model([r for r in mine if not (r["ranks"] == ranks and r["size"] == size)], cores)
        mean = {k: float(np.mean([r[k] for r in held])) for k in ("wall_s", "peak_rss_max",
                                                                   "shuffle_bytes", "bytes", "chunks")}
        pred = {"wall_s": m.wall(mean["bytes"], ranks),
                "peak_rss_max": m.rss(mean["chunks"], ranks),
                "shuffle_bytes": m.shuffle(mean["chunks"], ranks)}
        out[command] = {k: {"predicted": pred[k], "measured": mean[k],
                            "error": (pred[k] - mean[k]) / mean[k] if mean[k] else None} for k in pred}
    return out


def check_table(result, holdout):
    lines = ["| command | quantity | predicted | measured | error |", "|---|---|---:|---:|---:|"]
    for command, q in result.items():
        for k, v in q.items():
            err = "–" if v["error"] is None else "%+.0f %%" % (100 * v["error"])
            lines.append("| %s np=%d %d× | %s | %.4g | %.4g | %s |" % (command, holdout[0], holdout[1], k,
                                                                      v["predicted"], v["measured"], err))
    return "\n".join(lines)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--crd", default=os.path.join(ROOT, "build", "crd"))
    ap.add_argument("--cache", default=os.path.join(ROOT, ".cache", "scale"), help="corpora (never tracked)")
    ap.add_argument("--out", default=os.path.join(ROOT, "perf", "out", "scale"))
    ap.add_argument("--unit-pages", type=int, default=800, help="pages of the 1× corpus")
    ap.add_argument("--sizes", default="1,2,4,8")
    ap.add_argument("--ranks", default="1,2,3,4")
    ap.add_argument("--commands", default="discover,run")
    ap.add_argument("--reps", type=int, default=3)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--shards", type=int, default=12)
    ap.add_argument("--holdout", default=None, help="RANKS:SIZE left out of the fit (default: largest of both)")
    ap.add_argument("--cores", type=int, default=os.cpu_count(), help="cores of this machine (default: all)")
    ap.add_argument("--refit", metavar="CSV", help="fit and project from an earlier measurements.csv")
    ap.add_argument("--assume", action="append", default=[], metavar="NAME=VALUE",
                    help="override one of the projection's ASSUMPTIONS, e.g. fs_read_rate=100e9")
    ap.add_argument("-q", "--quiet", action="store_true")
    a = ap.parse_args()
    for item in a.assume:
        name, _, value = item.partition("=")
        if name not in ASSUMPTIONS or not value:
            sys.exit("scale_model.py: --assume %r: expected NAME=VALUE with NAME one of %s"
                     % (item, ", ".join(sorted(ASSUMPTIONS))))
        ASSUMPTIONS[name] = float(value)
    a.sizes = [int(x) for x in a.sizes.split(",")]
    a.ranks = [int(x) for x in a.ranks.split(",")]
    a.commands = a.commands.split(",")
    holdout = (tuple(int(x) for x in a.holdout.split(":")) if a.holdout else (max(a.ranks), max(a.sizes)))

    def log(msg):
        if not a.quiet:
            print(msg, file=sys.stderr, flush=True)

    os.makedirs(a.out, exist_ok=True)
    if a.refit:
        rows = read_csv(a.refit)
        info_path = os.path.join(os.path.dirname(os.path.abspath(a.refit)), "run_info.json")
        info = json.load(open(info_path)) if os.path.exists(info_path) else {}
    else:
        if not os.access(a.crd, os.X_OK):
            sys.exit("scale_model.py: no crd binary at %s (build it, or give --crd)" % a.crd)
        info = {"uptime_before": uptime()}
        rows = measure(a, log)
        info.update(uptime_after=uptime(), crd=a.crd, cores=a.cores, unit_pages=a.unit_pages,
                    commit=subprocess.run(["git", "-C", ROOT, "rev-parse", "--short", "HEAD"],
                                          stdout=subprocess.PIPE, text=True).stdout.strip())
        write_csv(rows, os.path.join(a.out, "measurements.csv"))
        with open(os.path.join(a.out, "run_info.json"), "w") as f:
            json.dump(info, f, indent=1)
    models = {c: Model([r for r in rows if r["command"] == c], a.cores) for c in sorted({r["command"] for r in rows})}
    checked = check(rows, holdout, a.cores)
    proj = projection(models)
    fit = {"cores": a.cores, "holdout": holdout, "measured": info,
           "load1": [min(r["load1"] for r in rows), max(r["load1"] for r in rows)],
           "models": {c: m.as_dict() for c, m in models.items()}, "check": checked,
           "assumptions": ASSUMPTIONS, "crawls": CRAWLS, "projection": proj,
           "min_nodes_in_memory": {c: {n: min_nodes_in_memory(m, k) for n, k in CRAWLS.items()}
                                   for c, m in models.items()}}
    with open(os.path.join(a.out, "fit.json"), "w") as f:
        json.dump(fit, f, indent=1)
    text = ("# crd scale model (perf/scale_model.py)\n\nmeasured: %s … %s\n\n"
            "cores %d, load average %.1f–%.1f during the jobs\n\n## Held-out check\n\n%s\n\n## Projection\n\n%s\n\n"
            "Fewest nodes that count in memory (one pass): %s\n" % (
                info.get("uptime_before", "?"), info.get("uptime_after", "?"), a.cores, fit["load1"][0], fit["load1"][1],
                check_table(checked, holdout), projection_table(proj),
                "; ".join("%s, %s: %s" % (n, c, v) for c, d in fit["min_nodes_in_memory"].items() for n, v in d.items())))
    with open(os.path.join(a.out, "projection.md"), "w") as f:
        f.write(text)
    print(text)


if __name__ == "__main__":
    main()
