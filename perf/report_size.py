#!/usr/bin/python3
# Size and load time of `crd report` on a result with 10^6 labeled chunks, 10^6 near-duplicate
# pairs or 10^5 quilted pages (docs/report.md).
#
#   /usr/bin/python3 perf/report_size.py --crd build/crd [--kind run|neardup|quilts] [--labels 1000000]
#                                        [--top 20000 100000] [--dir DIR [--reuse]]
#
# --kind neardup: 10^6 pairs (--pairs) among 5·10^5 pages, clusters of 2–40 pages, 10^5 identical
# pages; --kind quilts: 10^6 pages of which 10^5 (--quilts) are quilted with 2–30 sources each,
# and a 27-row sweep.
# crd would need a corpus of 10^6 distinct chunks each seen more than the threshold, so the result
# is synthesized with h5py in crd's schema (docs/schema.md, a `run` result: /run, /discovery,
# /detection): 10^6 labeled chunks with 120–256-byte samples, 10^6 detection labels, 2·10^5 pages,
# 2·10^4 neighborhoods. It then times `crd report` for each --top and the page load in headless
# Chromium (navigation timing: loadEventEnd, which includes report.js drawing every table, since
# the script runs before the load event), and prints one line per --top.
import argparse
import os
import subprocess
import sys
import tempfile
import time

import h5py
import numpy as np


def fixed(strings):
    width = max(1, max((len(s) for s in strings), default=1))
    return np.array(strings, dtype="S%d" % width)


def write_result(path, n_labels, n_pages, n_hoods, seed=1):
    rng = np.random.default_rng(seed)
    words = [w.encode() for w in ("the", "copy", "page", "site", "news", "shop", "price", "free", "wiki", "data",
                                  "<b>", "menu", "home", "login", "about", "contact", "footer", "search")]
    with h5py.File(path, "w") as f:
        a = f.attrs
        a["crd_version"] = "0.1.0"
        a["schema_version"] = np.int64(1)
        a["command"] = "run"
        a["command_line"] = "run synthetic/ -o " + os.path.basename(path)
        a["nranks"] = np.uint64(4)
        a["created"] = "2024-01-01T00:00:00Z"
        a["config"] = "chunk-threshold = 1\n"
        names = ["chunks", "documents", "records", "skipped.http.non_2xx", "skipped.warc.request"]
        f["run/counters/name"] = fixed([n.encode() for n in names])
        f["run/counters/value"] = np.array([n_labels * 10, n_pages, n_pages + 5, 3, 2], dtype=np.uint64)
        f["run/resources/name"] = fixed([b"memory.peak_rss_max", b"shuffle.rounds"])
        f["run/resources/value"] = np.array([1 << 30, 7], dtype=np.uint64)
        f["run/timings/phase"] = fixed([b"scan", b"discover", b"detect", b"write"])
        f["run/timings/seconds"] = np.array([10.0, 3.0, 4.0, 1.0])
        f["run/errors/file"] = fixed([b"a.warc.gz"])
        f["run/errors/offset"] = np.array([123], dtype=np.uint64)
        f["run/errors/reason"] = fixed([b"gzip.crc"])

        hashes = rng.integers(0, 256, size=(n_labels, 20), dtype=np.uint8)
        counts = np.sort(rng.zipf(1.6, size=n_labels).astype(np.uint64) + 1)[::-1]
        samples = []
        for i in range(n_labels):
            n = 20 + (i % 30)
            samples.append((b"<p>" + b" ".join(words[(i * 7 + k * 3) % len(words)] for k in range(n)) +
                            (b" %d" % i))[:256])
        lengths = np.array([len(s) + 40 for s in samples], dtype=np.uint32)
        urls = fixed([b"site%d.example/section/%d/page%d.html" % (i % 5000, i % 97, i) for i in range(n_labels)])
        g = f.create_group("discovery/chunks")
        g["hash"] = hashes
        g["count"] = counts
        g["length"] = lengths
        g["sample"] = fixed(samples)
        g["sample_url"] = urls
        for k, v in (("threshold", 1), ("total", int(counts.sum()) * 3), ("distinct", n_labels * 20),
                     ("labeled", n_labels), ("stop_removed", 0), ("min_chunk_length", 0)):
            g.attrs[k] = np.uint64(v)
        occ, distinct = np.unique(counts, return_counts=True)
        f["discovery/chunk_histogram/occurrences"] = occ.astype(np.uint64)
        f["discovery/chunk_histogram/distinct"] = distinct.astype(np.uint64)
        g = f.create_group("discovery/files")
        g["hash"] = hashes[:1000]
        g["count"] = counts[:1000]
        g["length"] = lengths[:1000].astype(np.uint64)
        g["sample_url"] = urls[:1000]
        for k in ("threshold", "total", "distinct", "labeled", "stop_removed"):
            g.attrs[k] = np.uint64(1000)
        f["discovery/file_histogram/occurrences"] = occ.astype(np.uint64)
        f["discovery/file_histogram/distinct"] = distinct.astype(np.uint64)

        d = f.create_group("detection")
        order = np.lexsort(hashes.T[::-1])
        lab = d.create_group("labels")
        lab["hash"] = hashes[order]
        lab["length"] = lengths[order]
        lab["sample"] = fixed([samples[i] for i in order])
        lab["pages"] = rng.integers(1, 1000, size=n_labels).astype(np.uint64)
        lab["neighborhoods"] = rng.integers(1, 100, size=n_labels).astype(np.uint64)
        lab["occurrences"] = counts[order]
        per_label = 3
        d["provenance/label"] = np.repeat(np.arange(n_labels, dtype=np.uint32), per_label)
        d["provenance/url"] = fixed([b"site%d.example/p%d.html" % (i % 5000, i) for i in range(n_labels * per_label)])
        chunks = rng.integers(5, 60, size=n_pages).astype(np.uint32)
        labeled = np.minimum(chunks, rng.integers(0, 30, size=n_pages)).astype(np.uint32)
        containment = labeled / chunks
        label_offsets = np.concatenate([[0], np.cumsum(labeled.astype(np.uint64))]).astype(np.uint64)
        total_refs = int(label_offsets[-1])
        p = d.create_group("pages")
        p["url"] = fixed(sorted(b"site%d.example/a/b/page%07d.html" % (i % 5000, i) for i in range(n_pages)))
        p["chunks"] = chunks
        p["labeled"] = labeled
        p["containment"] = containment
        p["flagged"] = (containment > 0.6).astype(np.uint8)
        p["positions"] = rng.integers(0, 60, size=total_refs).astype(np.uint32)
        p["positions_offsets"] = label_offsets
        p["label_ids"] = rng.integers(0, n_labels, size=total_refs).astype(np.uint32)
        p["label_ids_offsets"] = label_offsets
        h = d.create_group("neighborhoods")
        h["prefix"] = fixed(sorted(b"site%d.example/a%d" % (i % 5000, i) for i in range(n_hoods)))
        h["depth"] = np.ones(n_hoods, dtype=np.uint32)
        h["pages"] = rng.integers(1, 500, size=n_hoods).astype(np.uint64)
        h["chunks"] = rng.integers(10, 5000, size=n_hoods).astype(np.uint64)
        h["labeled"] = rng.integers(0, 2000, size=n_hoods).astype(np.uint64)
        h["badness"] = rng.random(n_hoods) ** 3
        h["flagged"] = (h["badness"][:] > 0.4).astype(np.uint8)
        for k, v in (("page_mean", containment.mean()), ("page_sigma", containment.std()),
                     ("page_threshold", containment.mean() + containment.std()), ("neighborhood_mean", 0.25),
                     ("neighborhood_sigma", 0.15), ("neighborhood_threshold", 0.4)):
            d.attrs[k] = np.float64(v)
        d.attrs["badness_mode"] = "pages"
        d.attrs["join_mode"] = "partitioned"
        d.attrs["min_labeled"] = np.uint64(1)
        d.attrs["labels"] = np.uint64(n_labels)
        d.attrs["pages_flagged"] = np.uint64(int(p["flagged"][:].sum()))
        d.attrs["neighborhoods_flagged"] = np.uint64(int(h["flagged"][:].sum()))


def write_root(f, command, path):
    a = f.attrs
    a["crd_version"] = "0.1.0"
    a["schema_version"] = np.int64(1)
    a["command"] = command
    a["command_line"] = command + " synthetic/ -o " + os.path.basename(path)
    a["nranks"] = np.uint64(4)
    a["created"] = "2024-01-01T00:00:00Z"
    a["config"] = "min-b-similarity = 2\nmin-c-similarity = 372\ncombined-c-similarity = 355\n"
    f["run/counters/name"] = fixed([b"documents", b"records"])
    f["run/counters/value"] = np.array([10, 10], dtype=np.uint64)


def page_urls(n, prefix=b"p"):
    return [b"site%d.example/section%d/%s%07d.html" % (i % 20000, i % 37, prefix, i) for i in range(n)]


def write_neardup(path, n_pairs, seed=1):
    rng = np.random.default_rng(seed)
    n_pages = n_pairs // 2
    urls = page_urls(n_pages)
    # Clusters of 2-40 consecutive pages; pairs drawn inside clusters.
    bounds = [0]
    while bounds[-1] < n_pages:
        bounds.append(min(n_pages, bounds[-1] + int(rng.integers(2, 41))))
    starts = np.array(bounds[:-1])
    sizes = np.diff(np.array(bounds))
    pick = rng.integers(0, len(starts), size=n_pairs)
    a = starts[pick] + (rng.random(n_pairs) * sizes[pick]).astype(np.int64)
    b = starts[pick] + (rng.random(n_pairs) * sizes[pick]).astype(np.int64)
    b = np.where(a == b, np.minimum(a + 1, starts[pick] + sizes[pick] - 1), b)
    lo, hi = np.minimum(a, b), np.maximum(a, b)
    with h5py.File(path, "w") as f:
        write_root(f, "neardup", path)
        g = f.create_group("neardup")
        g["pairs/page_a"] = fixed([urls[i] for i in lo])
        g["pairs/page_b"] = fixed([urls[i] for i in hi])
        g["pairs/b_sim"] = rng.integers(2, 7, size=n_pairs).astype(np.uint32)
        g["pairs/c_sim"] = rng.integers(355, 385, size=n_pairs).astype(np.uint32)
        g["pairs/same_site"] = (lo % 20000 == hi % 20000).astype(np.uint8)
        n_ident = n_pairs // 10
        g["identical/page"] = fixed(page_urls(n_ident, b"copy"))
        g["identical/representative"] = fixed([urls[int(i)] for i in rng.integers(0, n_pages, size=n_ident)])
        g["degree/occurrences"] = np.arange(1, 41, dtype=np.uint64)
        g["degree/distinct"] = np.arange(40, 0, -1, dtype=np.uint64)
        for k, v in (("pages", n_pages + n_ident), ("identity_sets", n_pages), ("pairs", n_pairs),
                     ("same_site_pairs", int((lo % 20000 == hi % 20000).sum())),
                     ("different_site_pairs", int((lo % 20000 != hi % 20000).sum())), ("capped_buckets", 0),
                     ("capped_pages", 0), ("capped_pairs", 0)):
            g.attrs[k] = np.uint64(v)
        g.attrs["method"] = "combined"


def write_quilts(path, n_quilts, seed=1):
    rng = np.random.default_rng(seed)
    n_pages = n_quilts * 10
    urls = sorted(page_urls(n_pages))
    quilted = np.zeros(n_pages, dtype=np.uint8)
    quilted[rng.choice(n_pages, size=n_quilts, replace=False)] = 1
    nsrc = np.where(quilted == 1, rng.integers(2, 31, size=n_pages), 0).astype(np.uint64)
    grams = rng.integers(50, 5000, size=n_pages).astype(np.uint64)
    patch = (grams * rng.random(n_pages)).astype(np.uint64)
    src_page, src_url, src_gain = [], [], []
    for i in np.nonzero(quilted)[0]:
        for j in sorted(rng.integers(0, n_pages, size=int(nsrc[i]))):
            src_page.append(urls[i])
            src_url.append(urls[int(j)])
            src_gain.append(int(rng.integers(1, 500)))
    with h5py.File(path, "w") as f:
        write_root(f, "quilts", path)
        g = f.create_group("quilts")
        g["pages/url"] = fixed(urls)
        g["pages/grams"] = grams
        g["pages/patch_grams"] = patch
        g["pages/patchfrac"] = patch / grams
        g["pages/sources"] = nsrc
        g["pages/quilted"] = quilted
        g["sources/page"] = fixed(src_page)
        g["sources/source"] = fixed(src_url)
        g["sources/grams_covered"] = np.array(src_gain, dtype=np.uint64)
        rows = [(5, m, c, t) for m in (10, 50, 100) for c in (2, 4, 8) for t in (0.3, 0.5, 0.8)]
        for k, col, dt in (("k", 0, np.uint64), ("m", 1, np.uint64), ("c", 2, np.uint64), ("theta", 3, np.float64)):
            g["sweep/" + k] = np.array([r[col] for r in rows], dtype=dt)
        g["sweep/pages"] = np.full(len(rows), n_pages, dtype=np.uint64)
        g["sweep/quilted"] = np.array([n_quilts * r[1] // 50 for r in rows], dtype=np.uint64)
        g["sweep/percent"] = g["sweep/quilted"][:] * 100.0 / n_pages
        g["sweep/mean_sources"] = np.full(len(rows), 15.0)
        for k, v in (("k", 5), ("m", 50), ("c", 4), ("pages", n_pages), ("quilted", n_quilts)):
            g.attrs[k] = np.uint64(v)
        g.attrs["theta"] = 0.5
        g.attrs["min_source_share"] = 0.0
        g.attrs["foreign_sourced"] = "off"


def page_load_seconds(html):
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service
    options = webdriver.ChromeOptions()
    for flag in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--window-size=1400,1000"):
        options.add_argument(flag)
    driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
    try:
        times = []
        for _ in range(3):  # the first load also starts the renderer; report the median of three
            driver.get("about:blank")
            driver.get("file://" + html)
            timing = driver.execute_script(
                "const t = performance.getEntriesByType('navigation')[0];"
                "return [t.domContentLoadedEventEnd, t.loadEventEnd, document.querySelectorAll('table.data').length]")
            times.append(timing)
        times.sort(key=lambda t: t[1])
        return times[1]
    finally:
        driver.quit()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--crd", required=True)
    ap.add_argument("--kind", choices=("run", "neardup", "quilts"), default="run")
    ap.add_argument("--labels", type=int, default=1_000_000)
    ap.add_argument("--pairs", type=int, default=1_000_000)
    ap.add_argument("--quilts", type=int, default=100_000)
    ap.add_argument("--pages", type=int, default=200_000)
    ap.add_argument("--neighborhoods", type=int, default=20_000)
    ap.add_argument("--top", type=int, nargs="+", default=[20000, 100000])
    ap.add_argument("--dir")
    ap.add_argument("--reuse", action="store_true", help="keep DIR/synthetic.h5 if it exists")
    args = ap.parse_args()
    work = args.dir or tempfile.mkdtemp(prefix="crd-report-perf-")
    result = os.path.join(work, "synthetic-%s.h5" % args.kind)
    size = {"run": "labels %d" % args.labels, "neardup": "pairs %d" % args.pairs, "quilts": "quilts %d" % args.quilts}
    t = time.time()
    if args.reuse and os.path.exists(result):
        print("reusing %s" % result)
    elif args.kind == "neardup":
        write_neardup(result, args.pairs)
    elif args.kind == "quilts":
        write_quilts(result, args.quilts)
    else:
        write_result(result, args.labels, args.pages, args.neighborhoods)
    print("synthesized %s (%.0f MB) in %.1f s" % (result, os.path.getsize(result) / 1e6, time.time() - t))
    for top in args.top:
        html = os.path.join(work, "report-%s-top%d.html" % (args.kind, top))
        t = time.time()
        subprocess.run([args.crd, "report", result, "-o", html, "--top", str(top)], check=True)
        build_s = time.time() - t
        dcl, load, tables = page_load_seconds(html)
        print("%s  --top %6d: report %.1f MB, crd report %.2f s, page DOMContentLoaded %.2f s, load %.2f s "
              "(%d tables)" % (size[args.kind], top, os.path.getsize(html) / 1e6, build_s, dcl / 1000, load / 1000, tables))
    return 0


if __name__ == "__main__":
    sys.exit(main())
