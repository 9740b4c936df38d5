#!/usr/bin/env python3
"""The serial reference a researcher would write: walk a directory, SHA-1 every file, cut every HTML
page into chunks at <p>/<div> per docs/chunking.md (scan contract: comments and script/style skipped,
ASCII whitespace collapsed), SHA-1 the chunks, count them in a dict. Prints MB/s over bytes read.

    python3 perf/reference_discover.py DIR… [--threshold 10]
"""

import argparse
import hashlib
import os
import re
import sys
import time

WS = rb"\t\n\f\r "
END = rb"(?=[\t\n\f\r />]|\Z)"  # what may follow a tag name
TOKEN = re.compile(rb"<(?:(!--)|(script|style)" + END + rb"|(p|div)" + END + rb")", re.I)
CLOSE = {b"script": re.compile(rb"</script" + END, re.I), b"style": re.compile(rb"</style" + END, re.I)}
RUNS = re.compile(rb"[\t\n\f\r ]+")


def boundaries(page):
    """Offsets of the boundary '<'s, skipping comments and raw text."""
    out, pos = [], 0
    while True:
        m = TOKEN.search(page, pos)
        if m is None:
            return out
        if m.group(1):  # comment: ends after the first '-->' from the opener's dashes on
            end = page.find(b"-->", m.start() + 2)
            pos = len(page) if end < 0 else end + 3
        elif m.group(2):  # script/style: ends after the matching close tag name
            close = CLOSE[m.group(2).lower()].search(page, m.end())
            pos = len(page) if close is None else close.end()
        else:
            out.append(m.start())
            pos = m.start() + 1


def chunks(page):
    cuts = [0] + boundaries(page) + [len(page)]
    for a, b in zip(cuts, cuts[1:]):
        text = RUNS.sub(b" ", page[a:b]).strip(b" ")
        if text:
            yield text


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("dirs", nargs="+")
    ap.add_argument("--threshold", type=int, default=10)
    a = ap.parse_args()
    start, cpu_start = time.perf_counter(), time.process_time()
    file_counts, chunk_counts = {}, {}
    nbytes = nfiles = nchunks = 0
    for root in a.dirs:
        for dirpath, dirnames, filenames in os.walk(root):
            dirnames.sort()
            for name in sorted(filenames):
                with open(os.path.join(dirpath, name), "rb") as f:
                    page = f.read()
                nbytes += len(page)
                nfiles += 1
                h = hashlib.sha1(page).digest()
                file_counts[h] = file_counts.get(h, 0) + 1
                if name.lower().endswith((".html", ".htm", ".xhtml", ".txt")):  # what crd chunks by name
                    for c in chunks(page):
                        k = hashlib.sha1(c).digest()
                        chunk_counts[k] = chunk_counts.get(k, 0) + 1
                        nchunks += 1
    labeled = sum(1 for v in chunk_counts.values() if v > a.threshold)
    secs, cpu = time.perf_counter() - start, time.process_time() - cpu_start
    print(f"{nfiles} files, {nbytes} bytes, {nchunks} chunks, {len(chunk_counts)} distinct, "
          f"{labeled} over threshold {a.threshold}; wall {secs:.2f} s = {nbytes / secs / 1e6:.1f} MB/s, "
          f"CPU {cpu:.2f} s = {nbytes / cpu / 1e6:.1f} MB/s")


if __name__ == "__main__":
    sys.exit(main())
