#!/usr/bin/env python3
"""The code cites papers by author and section (docs/references.md), never by a number a reader of the
repository cannot look up: no "seed 00N" and no "issue N" in src/ or include/, and no "issue N" in the
headings of perf/RESULTS.md (name the subject instead).

    check_citations.py SOURCE_DIR      exit 0 when none is found, else one line per place
"""
import pathlib
import re
import sys

import layout_check

SEED = re.compile(r"\bseeds? ?0\d\d\b", re.I)
ISSUE = re.compile(r"\bissues? #?\d+", re.I)
SUFFIXES = {".hpp", ".h", ".cpp", ".cc", ".txt", ".cmake", ".in", ".js", ".css", ".py"}


def problems(root):
    out = []
    for top in ("src", "include"):
        for path in sorted((root / top).rglob("*")):
            if not path.is_file() or (path.suffix not in SUFFIXES and path.name != "CMakeLists.txt"):
                continue
            for number, line in enumerate(path.read_text(errors="replace").splitlines(), 1):
                for pattern, what in ((SEED, "a seed number"), (ISSUE, "an issue number")):
                    m = pattern.search(line)
                    if m:
                        out.append(f"{path.relative_to(root)}:{number}: cites {what} ({m.group(0)!r})")
    results = root / "perf" / "RESULTS.md"
    if results.is_file():
        for number, line in enumerate(results.read_text().splitlines(), 1):
            if line.startswith("#") and ISSUE.search(line):
                out.append(f"perf/RESULTS.md:{number}: heading cites an issue number ({ISSUE.search(line).group(0)!r})")
    return out


if __name__ == "__main__":
    sys.exit(layout_check.run(__doc__, problems))
