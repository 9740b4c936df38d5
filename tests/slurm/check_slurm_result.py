"""Checks on the files the slurm/*.sbatch jobs write, for test_slurm_jobs.sh (Debian's python3, analysis/crd_results.py).

  check_slurm_result.py run RESULT REFERENCE   crd run result of a 2-task job vs a 1-rank mpirun reference
  check_slurm_result.py labels LABELS          crd label output
  check_slurm_result.py detect RESULT LABELS   crd detect output scored against LABELS
  check_slurm_result.py scaling CSV K…         strong-scaling timings.csv covers rank counts K…
Exit 0 when every check holds, 1 with one line per failed check otherwise.
"""
import csv
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "analysis"))
from crd_results import open_results  # noqa: E402  (the one reader of crd's results)

# Counters that describe the corpus, not the rank layout, so they must match any rank count.
CORPUS_COUNTERS = ("input.files", "input.bytes", "records", "documents", "documents.chunked",
                   "bytes.chunked", "chunks")

failures = []


def expect(cond, what):
    if not cond:
        failures.append(what)


def nonempty(table):
    return table is not None and len(table) > 0


def check_common(r, command, nranks):
    expect(r.command == command, f"command is {r.command!r}, want {command!r}")
    expect(r.attrs.get("nranks") == nranks, f"nranks is {r.attrs.get('nranks')}, want {nranks}")
    c = r.counters.to_dict()
    expect(c.get("input.files", 0) > 0, "no input files counted")
    expect(c.get("documents", 0) > 0, "no documents counted")
    expect(0 < c.get("documents.chunked", 0) <= c.get("documents", 0), "documents.chunked not in (0, documents]")
    expect(c.get("chunks", 0) >= c.get("documents.chunked", 0), "fewer chunks than chunked documents")
    expect(0 < c.get("bytes.chunked", 0), "no bytes chunked")
    expect(nonempty(r.timings), "/run/timings is empty")
    return c


def check_run(result, reference):
    r, ref = open_results(result), open_results(reference)
    c = check_common(r, "run", 2)
    for name in ("chunks", "chunk_histogram", "pages", "neighborhoods"):
        expect(nonempty(getattr(r, name)), f"{name} table missing or empty")
    if failures:
        return
    chunks, a = r.chunks, r.chunks_attrs
    expect(a["labeled"] == len(chunks), "labeled attribute != rows of /discovery/chunks")
    expect(bool((chunks["count"] > a["threshold"]).all()), "a labeled chunk is not above the threshold")
    hist = r.chunk_histogram
    total = int((hist["occurrences"] * hist["distinct"]).sum())
    expect(total == a["total"], f"histogram sums to {total}, total attr {a['total']}")
    pages = r.pages
    expect(len(pages) <= c["documents.chunked"], "more scored pages than chunked documents")
    expect(bool(pages["containment"].between(0, 1).all()), "containment outside [0, 1]")
    # The 2-task Slurm job must see the same corpus and reach the same labels as one rank.
    rc = ref.counters.to_dict()
    for name in CORPUS_COUNTERS:
        expect(c.get(name) == rc.get(name), f"counter {name}: slurm {c.get(name)} vs 1 rank {rc.get(name)}")
    expect(chunks[["hash", "count"]].equals(ref.chunks[["hash", "count"]]),
           "/discovery/chunks differs from the 1-rank reference")
    expect(pages[["url", "labeled"]].equals(ref.pages[["url", "labeled"]]),
           "/detection/pages differs from the 1-rank reference")


def check_labels(path):
    r = open_results(path)
    check_common(r, "label", 2)
    expect(nonempty(r.labels), "/labels missing or empty")


def check_detect(path, labels):
    r, lr = open_results(path), open_results(labels)
    check_common(r, "detect", 2)
    expect(nonempty(r.pages), "/detection/pages missing or empty")
    if failures:
        return
    used, written = r.detection_attrs["labels"], len(lr.labels) if lr.labels is not None else None
    expect(used == written, f"detect used {used} labels, label step wrote {written}")
    expect(int(r.pages["labeled"].sum()) > 0,
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
