#!/usr/bin/env python3
"""Papers are cited by author and section (docs/references.md), never by a number a reader of the
repository cannot look up: no "seed 00N" and no "issue N" in any file a clone holds — the README,
src/, include/, docs/, tests/, perf/, validation/, configs/, scripts/ and the rest. Name the paper or
the subject instead. In a git checkout the files are those git tracks or would add (not what
.gitignore ignores: build trees, .cache, results); elsewhere every file but build trees and .cache.
Out of scope either way: .ci (the tracker's own tooling).

    check_citations.py SOURCE_DIR      exit 0 when none is found, else one line per place
    check_citations.py --self-test     plant a seed and an issue number in a scratch tree: both found
"""
import re
import subprocess
import sys

import layout_check

SEED = re.compile(r"\bseeds? ?0\d\d\b", re.I)
ISSUE = re.compile(r"\bissues? #?\d+", re.I)
SKIP_DIRS = {".git", ".ci", ".cache", "__pycache__"}
MAX_BYTES = 4 << 20  # corpora and generated data are not prose; the largest source file is far smaller


def is_build_tree(directory):
    return (directory / "CMakeCache.txt").is_file()


def walked(root):
    stack = [root]
    while stack:
        directory = stack.pop()
        for path in sorted(directory.iterdir()):
            if path.is_dir() and not path.is_symlink():
                if path.name not in SKIP_DIRS and not is_build_tree(path):
                    stack.append(path)
            elif path.is_file():
                yield path


def listed_by_git(root):
    """Tracked and untracked-but-not-ignored files, or None outside a git checkout (a tarball)."""
    if not (root / ".git").exists():
        return None
    try:
        names = subprocess.run(["git", "-C", str(root), "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
                               stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, check=True).stdout
    except (OSError, subprocess.CalledProcessError):
        return None
    return [root / n for n in sorted(set(names.decode("utf-8", "surrogateescape").split("\0"))) if n]


def files_a_reader_sees(root):
    listed = listed_by_git(root)
    for path in walked(root) if listed is None else listed:
        if path.relative_to(root).parts[0] in SKIP_DIRS or path.is_symlink() or not path.is_file():
            continue
        if path.stat().st_size <= MAX_BYTES:
            yield path


def problems(root):
    out = []
    for path in files_a_reader_sees(root):
        data = path.read_bytes()
        if b"\0" in data:  # binary: fuzz seeds, images, archives
            continue
        for number, line in enumerate(data.decode("utf-8", "replace").splitlines(), 1):
            for pattern, what in ((SEED, "a seed number"), (ISSUE, "an issue number")):
                m = pattern.search(line)
                if m:
                    out.append(f"{path.relative_to(root)}:{number}: cites {what} ({m.group(0)!r})")
    return sorted(out)


def self_test():
    """The check must fail where a reader would meet a number: a doc, a test's CMake file, RESULTS.md."""
    # Spelled through {s} and {i} so that this file does not cite what it plants.
    words = {"s": "seed", "i": "issue", "I": "Issue"}
    planted = {
        "docs/quilts.md": "## Definitions ({s} 003 §2)\n",
        "tests/winnow/CMakeLists.txt": "# ok line\n# {I} 35: winnowed grams\n",
        "scripts/run.sh": "echo fine\n",
        "perf/RESULTS.md": "| x | y |\nsee {i} 31 for the table\n",
        ".ci/tracker.md": "{i} 35 lives here and is out of scope\n",
        "build/CMakeCache.txt": "{s} 002 in a build tree is out of scope\n",
    }
    expected = [
        "docs/quilts.md:1: cites a seed number ('{s} 003')",
        "perf/RESULTS.md:2: cites an issue number ('{i} 31')",
        "tests/winnow/CMakeLists.txt:2: cites an issue number ('{I} 35')",
    ]
    return layout_check.planted_tree_finds({name: text.format(**words) for name, text in planted.items()}, problems,
                                           [line.format(**words) for line in expected])


if __name__ == "__main__":
    sys.exit(layout_check.run(__doc__, problems, self_test))
