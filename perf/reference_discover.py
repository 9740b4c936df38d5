#!/usr/bin/env python3
"""The serial reference a researcher would write: walk a directory, SHA-1 every file, cut every HTML
page into chunks at <p>/<div> per docs/chunking.md (tests/support/reference_chunker.py, the tests'
reference implementation of the contract), SHA-1 the chunks, count them in a dict. Prints MB/s over
bytes read.

    python3 perf/reference_discover.py DIR… [--threshold 10]
"""

import argparse
import os
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "support"))
import reference_chunker as ref  # noqa: E402


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
                h = ref.sha1(page)
                file_counts[h] = file_counts.get(h, 0) + 1
                if name.lower().endswith(ref.CHUNKABLE_EXTENSIONS):  # what crd chunks by name
                    for c in ref.chunks(page):
                        k = ref.sha1(c)
                        chunk_counts[k] = chunk_counts.get(k, 0) + 1
                        nchunks += 1
    labeled = sum(1 for v in chunk_counts.values() if v > a.threshold)
    secs, cpu = time.perf_counter() - start, time.process_time() - cpu_start
    print(f"{nfiles} files, {nbytes} bytes, {nchunks} chunks, {len(chunk_counts)} distinct, "
          f"{labeled} over threshold {a.threshold}; wall {secs:.2f} s = {nbytes / secs / 1e6:.1f} MB/s, "
          f"CPU {cpu:.2f} s = {nbytes / cpu / 1e6:.1f} MB/s")


if __name__ == "__main__":
    sys.exit(main())
