#!/usr/bin/env python3
"""Builds a WARC (gzipped: one gzip member per record, as crawlers write them) from a directory of
HTML files, for the decompression benchmarks: every *.html / *.htm file becomes one HTTP response
record with Content-Type text/html, in sorted path order, until --max-bytes of HTML are in.

    python3 perf/make_warc.py CORPUS_DIR OUT_PREFIX [--max-bytes N] [--level 6] [--plain]

writes OUT_PREFIX.warc.gz (and OUT_PREFIX.warc with --plain: the same records, uncompressed).
"""

import argparse
import os
import uuid
import zlib

def html_files(root):
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames.sort()
        for name in sorted(filenames):
            if name.lower().endswith((".html", ".htm")):
                yield os.path.join(dirpath, name)

def record(url, body):
    http = (b"HTTP/1.1 200 OK\r\nContent-Type: text/html; charset=utf-8\r\n"
            b"Content-Length: " + str(len(body)).encode() + b"\r\n\r\n" + body)
    head = ("WARC/1.0\r\nWARC-Type: response\r\n"
            f"WARC-Target-URI: {url}\r\n"
            "WARC-Date: 2024-01-01T00:00:00Z\r\n"
            f"WARC-Record-ID: <urn:uuid:{uuid.uuid4()}>\r\n"
            "Content-Type: application/http; msgtype=response\r\n"
            f"Content-Length: {len(http)}\r\n\r\n").encode()
    return head + http + b"\r\n\r\n"

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
            rec = record("http://" + rel, body)
            member = zlib.compressobj(a.level, zlib.DEFLATED, 31)  # wbits 31: a gzip member
            gz.write(member.compress(rec) + member.flush())
            plain.write(rec)
            html_bytes += len(body)
            records += 1
            if a.max_bytes and html_bytes >= a.max_bytes:
                break
    print(f"{records} records, {html_bytes} HTML bytes -> {a.out_prefix}.warc.gz"
          + (f" and {a.out_prefix}.warc" if a.plain else ""))

if __name__ == "__main__":
    main()
