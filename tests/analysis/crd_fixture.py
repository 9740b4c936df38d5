"""Writes small crd result files with h5py, following docs/schema.md (version 1) to the letter,
and returns the values written so tests can compare the reader's DataFrames against them."""

from __future__ import annotations

import hashlib

import h5py
import numpy as np

CONFIG_TEXT = """# effective options
inputs = /data/corpus/sample.warc.gz

[discover]
chunk_threshold = 100
file_threshold = 3
min_chunk_length = 8

[detect]
badness = pages
"""


def sha1(data: bytes) -> bytes:
    return hashlib.sha1(data).digest()


def _strings(group: h5py.Group, name: str, values: list[bytes]) -> None:
    # Fixed-length, null-padded byte strings, width = longest value (at least 1), as the writer does.
    width = max([len(v) for v in values] + [1])
    group.create_dataset(name, data=np.array(values, dtype=f"S{width}"))


def _hashes(group: h5py.Group, name: str, digests: list[bytes]) -> None:
    data = np.frombuffer(b"".join(digests), dtype=np.uint8).reshape(len(digests), 20)
    group.create_dataset(name, data=data)


def _column(group: h5py.Group, name: str, values, dtype) -> None:
    group.create_dataset(name, data=np.asarray(values, dtype=dtype))


def _ragged(group: h5py.Group, name: str, rows: list[list[int]]) -> None:
    flat = [v for row in rows for v in row]
    offsets = np.concatenate([[0], np.cumsum([len(r) for r in rows])]).astype(np.uint64)
    _column(group, name, flat, np.uint32)
    _column(group, name + "_offsets", offsets, np.uint64)


def _attrs(obj, values: dict) -> None:
    for key, value in values.items():
        if isinstance(value, str):
            obj.attrs[key] = np.bytes_(value.encode())  # fixed-length string attribute
        else:
            obj.attrs[key] = value


def _histogram(scale: float, slope: float, top: int, outliers: dict[int, int]) -> dict[int, int]:
    """A heavy-tailed frequency–occurrence distribution: distinct(c) ≈ scale · c^-slope."""
    hist = {}
    for c in np.unique(np.round(np.logspace(0, np.log10(top), 120)).astype(int)):
        n = int(scale * float(c) ** -slope)
        if n > 0:
            hist[int(c)] = n
    for c, n in outliers.items():
        hist[c] = hist.get(c, 0) + n
    return dict(sorted(hist.items()))


def write_result(path: str, command: str = "run") -> dict:
    """Writes a result file for `command` (discover, label, detect, run); returns what it wrote."""
    expected: dict = {"command": command}
    counters = {
        "bytes.chunked": 123456, "chunks": 98765, "cleaning.dropped.no_host": 2,
        "cleaning.dropped.repeated_component": 0, "cleaning.dropped.too_deep": 1,
        "documents": 1200, "documents.chunked": 1100, "input.bytes": 5_000_000,
        "input.files": 3, "records": 1500, "skipped.bad_gzip": 4, "skipped.not_html": 396,
    }
    expected["counters"] = counters
    with h5py.File(path, "w") as f:
        _attrs(f, {"crd_version": "0.1.0", "command": command, "created": "2024-05-01T12:00:00Z",
                   "config": CONFIG_TEXT})
        f.attrs["schema_version"] = np.int64(1)
        f.attrs["nranks"] = np.uint64(4)

        run = f.create_group("run")
        g = run.create_group("counters")
        _strings(g, "name", [k.encode() for k in sorted(counters)])
        _column(g, "value", [counters[k] for k in sorted(counters)], np.uint64)
        g = run.create_group("timings")
        timings = [("count", 0.5), ("read", 1.25), ("write", 0.125)]
        _strings(g, "phase", [p.encode() for p, _ in timings])
        _column(g, "seconds", [s for _, s in timings], np.float64)
        expected["timings"] = timings
        g = run.create_group("errors")
        errors = [("/data/a.warc.gz", 0, "bad_gzip"), ("/data/a.warc.gz", 4096, "bad_gzip"),
                  ("/data/b.arc", 17, "truncated_record")]
        _strings(g, "file", [e[0].encode() for e in errors])
        _column(g, "offset", [e[1] for e in errors], np.uint64)
        _strings(g, "reason", [e[2].encode() for e in errors])
        expected["errors"] = errors

        if command in ("discover", "run"):
            _write_discovery(f, expected)
        if command == "label":
            _write_labels(f, expected)
        if command in ("detect", "run"):
            _write_detection(f, expected)
    return expected


def _write_discovery(f: h5py.File, expected: dict) -> None:
    d = f.create_group("discovery")
    # Labeled chunks: count descending, then hash ascending (two rows share a count).
    texts = [b"<p>Copyright 2024 Example Corp. All rights reserved.",
             b"<div>Subscribe to our newsletter",
             b"<p>caf\xe9 men\xfc in Latin-1"]
    rows = [(sha1(t), 5000, len(t), t, b"a.example/1") for t in texts[:2]]
    rows.append((sha1(texts[2]), 1200, len(texts[2]), texts[2], b"b.example/caf\xe9"))
    rows.sort(key=lambda r: (-r[1], r[0]))
    g = d.create_group("chunks")
    _hashes(g, "hash", [r[0] for r in rows])
    _column(g, "count", [r[1] for r in rows], np.uint64)
    _column(g, "length", [r[2] for r in rows], np.uint32)
    _strings(g, "sample", [r[3] for r in rows])
    _strings(g, "sample_url", [r[4] for r in rows])
    chunk_attrs = {"threshold": 100, "total": 98765, "distinct": 40000, "labeled": len(rows),
                   "stop_removed": 7, "min_chunk_length": 8}
    for k, v in chunk_attrs.items():
        g.attrs[k] = np.uint64(v)
    expected["chunks"] = rows
    expected["chunks_attrs"] = chunk_attrs

    hist = _histogram(2e6, 2.1, 4000, {5000: 2, 1200: 1})
    g = d.create_group("chunk_histogram")
    _column(g, "occurrences", list(hist), np.uint64)
    _column(g, "distinct", list(hist.values()), np.uint64)
    expected["chunk_histogram"] = hist

    files = [(sha1(b"robots"), 40, 1234, b"c.example/robots.txt")]
    g = d.create_group("files")
    _hashes(g, "hash", [r[0] for r in files])
    _column(g, "count", [r[1] for r in files], np.uint64)
    _column(g, "length", [r[2] for r in files], np.uint64)
    _strings(g, "sample_url", [r[3] for r in files])
    for k, v in {"threshold": 3, "total": 1200, "distinct": 1000, "labeled": 1,
                 "stop_removed": 0}.items():
        g.attrs[k] = np.uint64(v)
    expected["files"] = files

    fhist = _histogram(900, 2.5, 60, {40: 1})
    g = d.create_group("file_histogram")
    _column(g, "occurrences", list(fhist), np.uint64)
    _column(g, "distinct", list(fhist.values()), np.uint64)
    expected["file_histogram"] = fhist


def _write_labels(f: h5py.File, expected: dict) -> None:
    texts = [b"<p>Log in to your bank", b"<div>Forgot your password?"]
    rows = sorted((sha1(t), len(t), t, b"bank.example/login", 3) for t in texts)
    g = f.create_group("labels")
    _hashes(g, "hash", [r[0] for r in rows])
    _column(g, "length", [r[1] for r in rows], np.uint32)
    _strings(g, "sample", [r[2] for r in rows])
    _strings(g, "sample_url", [r[3] for r in rows])
    _column(g, "count", [r[4] for r in rows], np.uint64)
    for k, v in {"total": 6, "distinct": 2, "labeled": 2, "stop_removed": 0,
                 "min_chunk_length": 8}.items():
        g.attrs[k] = np.uint64(v)
    expected["labels"] = rows


def _write_detection(f: h5py.File, expected: dict) -> None:
    det = f.create_group("detection")
    texts = [b"<p>Copyright 2024 Example Corp. All rights reserved.",
             b"<div>Subscribe to our newsletter", b"<p>Buy cheap watches now"]
    labels = sorted((sha1(t), len(t), t) for t in texts)
    g = det.create_group("labels")
    _hashes(g, "hash", [r[0] for r in labels])
    _column(g, "length", [r[1] for r in labels], np.uint32)
    _strings(g, "sample", [r[2] for r in labels])
    _column(g, "pages", [12, 40, 3], np.uint64)
    _column(g, "neighborhoods", [5, 9, 2], np.uint64)
    _column(g, "occurrences", [14, 52, 3], np.uint64)
    expected["detection_labels"] = labels

    provenance = [(0, b"a.example/1"), (0, b"a.example/2"), (1, b"a.example/1"),
                  (2, b"a.example/3")]
    g = det.create_group("provenance")
    _column(g, "label", [p[0] for p in provenance], np.uint32)
    _strings(g, "url", [p[1] for p in provenance])
    expected["provenance"] = provenance

    # Pages: three hand-made rows (CSR with an empty row), then a deterministic population of
    # hosts, some of them copying labeled content (high containment) and most of them clean.
    pages = [("a.example/1", 4, [0, 2], [1, 0]), ("a.example/2", 3, [], []),
             ("a.example/3", 1, [0], [2])]
    rng = np.random.default_rng(12)
    for h in range(100):
        share = rng.choice([0.85, 0.15, 0.02], p=[0.12, 0.28, 0.60])
        for d in range(1, int(rng.integers(2, 4))):
            for j in range(int(rng.integers(1, 7))):
                n = int(rng.integers(1, 60))
                k = int(rng.binomial(n, share))
                pos = sorted(rng.choice(n, size=k, replace=False).tolist())
                pages.append((f"h{h:03d}.example/d{d}/p{j}", n, pos, [int(x % 3) for x in pos]))
    pages.sort(key=lambda p: p[0].encode())
    chunks = np.array([p[1] for p in pages], dtype=np.uint32)
    labeled = np.array([len(p[2]) for p in pages], dtype=np.uint32)
    containment = labeled / chunks
    pmean, psigma = float(containment.mean()), float(containment.std())
    flagged = (containment > pmean + psigma).astype(np.uint8)
    g = det.create_group("pages")
    _strings(g, "url", [p[0].encode() for p in pages])
    _column(g, "chunks", chunks, np.uint32)
    _column(g, "labeled", labeled, np.uint32)
    _column(g, "containment", containment, np.float64)
    _column(g, "flagged", flagged, np.uint8)
    _ragged(g, "positions", [p[2] for p in pages])
    _ragged(g, "label_ids", [p[3] for p in pages])
    expected["pages"] = dict(pages=pages, containment=containment, flagged=flagged)

    # Neighborhoods: every host and host/dir prefix of the pages; badness mode "chunks".
    sums: dict[str, list[int]] = {}
    for url, n, pos, _ in pages:
        parts = url.split("/")
        for depth in range(len(parts) - 1):
            acc = sums.setdefault("/".join(parts[: depth + 1]), [depth, 0, 0, 0])
            acc[1:] = [acc[1] + 1, acc[2] + n, acc[3] + len(pos)]
    hoods = sorted(((k, *v) for k, v in sums.items()), key=lambda h: h[0].encode())
    badness = np.array([h[4] / h[3] for h in hoods])
    nmean, nsigma = float(badness.mean()), float(badness.std())
    g = det.create_group("neighborhoods")
    _strings(g, "prefix", [h[0].encode() for h in hoods])
    _column(g, "depth", [h[1] for h in hoods], np.uint32)
    _column(g, "pages", [h[2] for h in hoods], np.uint64)
    _column(g, "chunks", [h[3] for h in hoods], np.uint64)
    _column(g, "labeled", [h[4] for h in hoods], np.uint64)
    _column(g, "badness", badness, np.float64)
    _column(g, "flagged", (badness > nmean + nsigma).astype(np.uint8), np.uint8)
    expected["neighborhoods"] = dict(rows=hoods, badness=badness)

    attrs = {"page_mean": pmean, "page_sigma": psigma, "page_threshold": pmean + psigma,
             "neighborhood_mean": nmean, "neighborhood_sigma": nsigma,
             "neighborhood_threshold": nmean + nsigma}
    for k, v in attrs.items():
        det.attrs[k] = np.float64(v)
    _attrs(det, {"badness_mode": "chunks", "join_mode": "replicated"})
    det.attrs["min_labeled"] = np.uint64(1)
    det.attrs["labels"] = np.uint64(len(labels))
    expected["detection_attrs"] = {**attrs, "badness_mode": "chunks", "join_mode": "replicated",
                                   "min_labeled": 1, "labels": len(labels)}
