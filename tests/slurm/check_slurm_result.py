"""Checks on the files the slurm/*.sbatch jobs write, for test_slurm_jobs.sh (Debian's python3 + h5py).

  check_slurm_result.py run RESULT REFERENCE   crd run result of a 2-task job vs a 1-rank mpirun reference
  check_slurm_result.py labels LABELS          crd label output
  check_slurm_result.py detect RESULT LABELS   crd detect output scored against LABELS
  check_slurm_result.py scaling CSV K…         strong-scaling timings.csv covers rank counts K…
Exit 0 when every check holds, 1 with one line per failed check otherwise.
"""
import csv
import sys

import h5py
import numpy as np

# Counters that describe the corpus, not the rank layout, so they must match any rank count.
CORPUS_COUNTERS = ("input.files", "input.bytes", "records", "documents", "documents.chunked",
                   "bytes.chunked", "chunks")

failures = []


def expect(cond, what):
    if not cond:
        failures.append(what)


def attr(obj, name):
    value = obj.attrs[name]
    return value.decode() if isinstance(value, bytes) else value


def counters(f):
    c = f["run/counters"]
    return dict(zip(c["name"].asstr()[:], (int(v) for v in c["value"][:])))


def rows(group):
    return len(next(iter(group.values())))


def check_common(f, command, nranks):
    expect(attr(f, "command") == command, f"command is {attr(f, 'command')!r}, want {command!r}")
    expect(int(attr(f, "nranks")) == nranks, f"nranks is {attr(f, 'nranks')}, want {nranks}")
    c = counters(f)
    expect(c.get("input.files", 0) > 0, "no input files counted")
    expect(c.get("documents", 0) > 0, "no documents counted")
    expect(0 < c.get("documents.chunked", 0) <= c.get("documents", 0), "documents.chunked not in (0, documents]")
    expect(c.get("chunks", 0) >= c.get("documents.chunked", 0), "fewer chunks than chunked documents")
    expect(0 < c.get("bytes.chunked", 0), "no bytes chunked")
    expect(rows(f["run/timings"]) > 0, "/run/timings is empty")
    return c


def check_run(result, reference):
    with h5py.File(result, "r") as f, h5py.File(reference, "r") as ref:
        c = check_common(f, "run", 2)
        for group in ("discovery/chunks", "discovery/chunk_histogram", "detection/pages",
                      "detection/neighborhoods"):
            expect(group in f and rows(f[group]) > 0, f"/{group} missing or empty")
        if failures:
            return
        chunks = f["discovery/chunks"]
        threshold = int(chunks.attrs["threshold"])
        expect(int(chunks.attrs["labeled"]) == rows(chunks), "labeled attribute != rows of /discovery/chunks")
        expect(bool(np.all(chunks["count"][:] > threshold)), "a labeled chunk is not above the threshold")
        hist = f["discovery/chunk_histogram"]
        total = int(np.sum(hist["occurrences"][:] * hist["distinct"][:]))
        expect(total == int(chunks.attrs["total"]), f"histogram sums to {total}, total attr {chunks.attrs['total']}")
        pages = f["detection/pages"]
        expect(rows(pages) <= c["documents.chunked"], "more scored pages than chunked documents")
        cont = pages["containment"][:]
        expect(bool(np.all((cont >= 0) & (cont <= 1))), "containment outside [0, 1]")
        # The 2-task Slurm job must see the same corpus and reach the same labels as one rank.
        rc = counters(ref)
        for name in CORPUS_COUNTERS:
            expect(c.get(name) == rc.get(name), f"counter {name}: slurm {c.get(name)} vs 1 rank {rc.get(name)}")
        rchunks = ref["discovery/chunks"]
        expect(np.array_equal(chunks["hash"][:], rchunks["hash"][:]) and
               np.array_equal(chunks["count"][:], rchunks["count"][:]),
               "/discovery/chunks differs from the 1-rank reference")
        expect(np.array_equal(pages["url"][:], ref["detection/pages"]["url"][:]) and
               np.array_equal(pages["labeled"][:], ref["detection/pages"]["labeled"][:]),
               "/detection/pages differs from the 1-rank reference")


def check_labels(path):
    with h5py.File(path, "r") as f:
        check_common(f, "label", 2)
        expect("labels" in f and rows(f["labels"]) > 0, "/labels missing or empty")


def check_detect(path, labels):
    with h5py.File(path, "r") as f, h5py.File(labels, "r") as lf:
        check_common(f, "detect", 2)
        expect("detection/pages" in f and rows(f["detection/pages"]) > 0, "/detection/pages missing or empty")
        if failures:
            return
        used = int(f["detection"].attrs["labels"])
        expect(used == rows(lf["labels"]), f"detect used {used} labels, label step wrote {rows(lf['labels'])}")
        expect(int(np.sum(f["detection/pages"]["labeled"][:])) > 0,
               "no crawl page contains an expert chunk (the expert corpus is part of the crawl)")


def check_scaling(path, ranks):
    with open(path, newline="") as fh:
        table = list(csv.DictReader(fh))
    expect(table and list(table[0].keys()) == ["ranks", "repeat", "phase", "seconds"], "bad CSV header")
    for k in ranks:
        mine = [r for r in table if r["ranks"] == k]
        phases = {r["phase"] for r in mine}
        expect("wall" in phases and "scan" in phases, f"ranks {k}: phases {sorted(phases)} lack wall/scan")
        expect(all(float(r["seconds"]) >= 0 for r in mine), f"ranks {k}: negative seconds")
    expect({r["ranks"] for r in table} == set(ranks), "rank counts in CSV differ from those requested")


def main(argv):
    kind, args = argv[1], argv[2:]
    {"run": check_run, "labels": check_labels, "detect": check_detect,
     "scaling": lambda p, *k: check_scaling(p, list(k))}[kind](*args)
    for what in failures:
        print(f"FAIL ({kind}): {what}")
    if not failures:
        print(f"ok ({kind}): {args[0]}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
