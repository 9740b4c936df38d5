#!/usr/bin/python3
"""crd merge against one discover over the union, on the documentation corpus split by package.

    perf/merge_bench.py CRD CORPUS_DIR [--ranks 2] [--repeat 3]

Discovers each package of CORPUS_DIR with --keep-counts, then times, alternating them (the
machine drifts: platform.md), `crd merge` of the packages' results and `crd discover` of the
whole corpus, each with the corpus warmed first. Prints a Markdown table: median wall seconds,
result sizes, and the count tables' stored bytes per distinct chunk as written and as they would
be if compressed like any column of ≥ 1 MiB (crd compresses from there: result_columns.cpp).
"""
import argparse
import os
import statistics
import subprocess
import tempfile
import time

import h5py

ROOT_FLAGS = ["--oversubscribe"] + (["--allow-run-as-root"] if os.geteuid() == 0 else [])


def crd(args, ranks, crd_bin):
    start = time.monotonic()
    subprocess.run(["mpirun", "-np", str(ranks), *ROOT_FLAGS, crd_bin, *args, "--progress-interval", "0"],
                   check=True, stdout=subprocess.DEVNULL)
    return time.monotonic() - start


def warm(path):
    subprocess.run(["sh", "-c", f"find '{path}' -type f -print0 | xargs -0 cat > /dev/null"], check=True)


def stored_bytes_per_row(path, compress):
    with h5py.File(path) as f:
        cols = {c: f["/discovery/chunk_counts/" + c][()] for c in ("hash", "count", "length")}
    n = len(cols["count"])
    if not compress:
        with h5py.File(path) as f:
            return n, sum(f["/discovery/chunk_counts/" + c].id.get_storage_size() for c in cols) / n
    with tempfile.TemporaryDirectory() as tmp, h5py.File(os.path.join(tmp, "c.h5"), "w") as g:
        total = 0
        for name, v in cols.items():
            rows = max(1, min(n, (1 << 20) // v[0:1].nbytes))
            d = g.create_dataset(name, data=v, chunks=(rows,) + v.shape[1:], shuffle=v.dtype.itemsize > 1,
                                 compression="gzip", compression_opts=1)
            total += d.id.get_storage_size()
        return n, total / n


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("crd")
    ap.add_argument("corpus")
    ap.add_argument("--ranks", type=int, default=2)
    ap.add_argument("--repeat", type=int, default=3)
    a = ap.parse_args()
    packages = sorted(p for p in os.listdir(a.corpus) if os.path.isdir(os.path.join(a.corpus, p)))
    with tempfile.TemporaryDirectory() as tmp:
        parts = []
        for p in packages:
            out = os.path.join(tmp, p + ".h5")
            crd(["discover", os.path.join(a.corpus, p), "--keep-counts", "-o", out], a.ranks, a.crd)
            parts.append(out)
        merged, union = os.path.join(tmp, "merged.h5"), os.path.join(tmp, "union.h5")
        times = {"merge": [], "discover": []}
        for _ in range(a.repeat):
            warm(tmp)
            times["merge"].append(crd(["merge", *parts, "-o", merged], a.ranks, a.crd))
            warm(a.corpus)
            times["discover"].append(crd(["discover", *[os.path.join(a.corpus, p) for p in packages],
                                          "--keep-counts", "-o", union], a.ranks, a.crd))
        n, raw = stored_bytes_per_row(union, False)
        _, packed = stored_bytes_per_row(union, True)
        print(f"| {a.ranks} ranks, {len(packages)} results | seconds (median of {a.repeat}) | result MB |")
        print("|---|---|---|")
        print(f"| crd merge | {statistics.median(times['merge']):.2f} | {os.path.getsize(merged) / 1e6:.2f} |")
        print(f"| crd discover --keep-counts, union | {statistics.median(times['discover']):.2f} | "
              f"{os.path.getsize(union) / 1e6:.2f} |")
        print(f"\ncount tables: {n} distinct chunks, {raw:.2f} bytes each as written, "
              f"{packed:.2f} compressed as columns of >= 1 MiB are")


if __name__ == "__main__":
    main()
