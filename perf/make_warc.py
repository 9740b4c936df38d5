#!/usr/bin/env python3
"""Builds a WARC (gzipped: one gzip member per record, as crawlers write them) from a directory of
HTML files, for the decompression benchmarks: every *.html / *.htm file becomes one HTTP response
record with Content-Type text/html, in sorted path order, until --max-bytes of HTML are in.

    python3 perf/make_warc.py CORPUS_DIR OUT_PREFIX [--max-bytes N] [--level 6] [--plain]

writes OUT_PREFIX.warc.gz (and OUT_PREFIX.warc with --plain: the same records, uncompressed).
"""

import argparse
import os
import sys
import uuid

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "support"))
import archives  # noqa: E402  (the one archive writer of the tests and benchmarks)

def html_files(root):
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames.sort()
        for name in sorted(filenames):
            if name.lower().endswith((".html", ".htm")):
                yield os.path.join(dirpath, name)

def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("corpus")
    ap.add_argument("out_prefix")
    ap.add_argument("--max-bytes", type=int, default=0, help="stop after this many HTML bytes (0: all)")
    ap.add_argument("--level", type=int, default=6, help="gzip level (6 = gzip's default)")
    ap.add_argument("--plain", action="store_true", help="also write the uncompressed .warc")
    a = ap.parse_args()
    html_bytes = records = 0
    with open(a.out_prefix + ".warc.gz", "wb") as gz, \
            (open(a.out_prefix + ".warc", "wb") if a.plain else open(os.devnull, "wb")) as plain:
        for path in html_files(a.corpus):
            with open(path, "rb") as f:
                body = f.read()
            rel = os.path.relpath(path, a.corpus).replace(os.sep, "/")
            rec = archives.warc_response("http://" + rel, body, record_id=str(uuid.uuid4()),
                                         content_length=True)
            gz.write(archives.gzip_member(rec, a.level))
            plain.write(rec)
            html_bytes += len(body)
            records += 1
            if a.max_bytes and html_bytes >= a.max_bytes:
                break
    print(f"{records} records, {html_bytes} HTML bytes -> {a.out_prefix}.warc.gz"
          + (f" and {a.out_prefix}.warc" if a.plain else ""))

if __name__ == "__main__":
    main()
