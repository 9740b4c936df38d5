#!/usr/bin/env python3
"""Where the time of a crd job goes, from `perf script` of a `perf record -g -e cpu-clock` profile.

Each sample is put in one bucket: by its kernel entry (a page fault, read(2), open, stat, other
system calls) when it was taken in the kernel, else by the function it was in (user stacks need no
frame pointers for that). Prints a Markdown table: bucket, share of samples, CPU seconds.

    perf script -F comm,tid,ip,sym -i perf.data | perf/profile_table.py --hz 1000
"""
import argparse
import re
import sys
from collections import Counter

# Kernel buckets, matched against the symbols of a sample's kernel stack (first match wins, in order).
KERNEL = [
    ("page faults (first touch of tables, buffers)", re.compile(r"exc_page_fault|do_anonymous_page|handle_mm_fault")),
    ("read(2) of the input (page cache copy)", re.compile(r"ksys_read|vfs_read|filemap_read")),
    ("open/close of input files", re.compile(r"openat|do_sys_open|__x64_sys_close|__fput|path_openat")),
    ("stat (listing, fstat)", re.compile(r"statx|fstatat|newfstat|getdents")),
    ("munmap/madvise/mmap/brk", re.compile(r"munmap|madvise|mmap|brk")),
]
# User buckets, matched against the leaf function.
USER = [
    ("hashing (SHA-1 of pages and chunks)", re.compile(r"compress_(one|two)|DocumentHasher|sha1|SHA1|Blocks::")),
    ("normalization (whitespace)", re.compile(r"normalize")),
    ("boundary scan (tags)", re.compile(r"find_candidate|BoundaryFinder|ScanChunker|is_boundary")),
    ("tally inserts (local table, samples)", re.compile(r"DigestMap|LocalTally|keep_sample")),
    ("exchange and owner counting", re.compile(r"exchange|reduce_by_key|introsort|insertion_sort|gather_annotations|Owner|owner|shuffle|sort")),
    ("write (HDF5)", re.compile(r"H5|hdf5|deflate")),
    ("URL keys, documents, counters", re.compile(r"url|Url|Counters|Document|read_plain_file|read_input|sniff|is_chunkable|scheme")),
    ("memcpy/memset/memcmp (libc)", re.compile(r"mem(cpy|move|set|cmp|chr)")),
    ("malloc/free", re.compile(r"malloc|free|_int_|operator new|operator delete")),
]


def bucket(stack):
    kernel = [s for s in stack if s[1]]
    if kernel:
        names = " ".join(s[0] for s in kernel)
        for name, rx in KERNEL:
            if rx.search(names):
                return name
        return "other kernel (scheduler, syscalls)"
    leaf = stack[0][0] if stack else ""
    for name, rx in USER:
        if rx.search(leaf):
            return name
    return "other user code"


def samples(lines):
    stack = []
    for line in lines:
        if not line.strip():
            if stack:
                yield stack
            stack = []
            continue
        if line[0] not in " \t":  # header line: comm tid
            continue
        parts = line.split(None, 1)
        sym = parts[1].strip() if len(parts) > 1 else ""
        # Kernel addresses start with ffff; `perf script` prints ip then sym (and dso in parens).
        stack.append((sym, parts[0].startswith("ffff")))
    if stack:
        yield stack


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--hz", type=float, default=1000, help="the sampling frequency given to perf record -F")
    args = ap.parse_args()
    counts = Counter(bucket(s) for s in samples(sys.stdin))
    total = sum(counts.values())
    print(f"| part | share | CPU s |\n|---|---:|---:|")
    for name, n in counts.most_common():
        print(f"| {name} | {100 * n / total:.1f}% | {n / args.hz:.2f} |")
    print(f"| **all** ({total} samples) | 100% | {total / args.hz:.2f} |")


if __name__ == "__main__":
    main()
