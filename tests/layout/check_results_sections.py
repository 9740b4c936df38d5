#!/usr/bin/env python3
"""perf/RESULTS.md keeps its own rule: every section (a "##" or "###" heading up to the next one)
holds at most 15 lines of prose — table rows, fenced or indented command blocks and blank lines
are not counted — so that figures stay a table with the command behind it, and details go to the
subject's docs/*.md. A section with a table must also name the command that produces it: a
command block, or a `…` span that runs something of perf/, scripts/, build/ or crd.

    check_results_sections.py SOURCE_DIR      exit 0 when every section keeps the rule
    check_results_sections.py --self-test     a section over the limit and a table without its
                                              command are found; a section at the limit is not
"""
import re
import sys

import layout_check

MAX_PROSE = 15
HEADING = re.compile(r"^#{2,3} ")
COMMAND_SPAN = re.compile(r"`[^`]*\b(perf/|scripts/|build/|crd )[^`]*`")


class Section:
    def __init__(self, title, line):
        self.title, self.line = title, line
        self.prose = self.table_rows = self.command_lines = 0
        self.names_a_command = False


def sections(text):
    out, current, fenced = [], None, False
    for number, line in enumerate(text.splitlines(), 1):
        if not fenced and HEADING.match(line):
            current = Section(line.lstrip("#").strip(), number)
            out.append(current)
            continue
        if current is None:
            continue  # the file's own title and preamble
        if line.startswith("```"):
            fenced = not fenced
            current.command_lines += 1
        elif fenced or line.startswith("    "):
            current.command_lines += 1
        elif line.strip().startswith("|"):
            current.table_rows += 1
        elif line.strip():
            current.prose += 1
            current.names_a_command |= bool(COMMAND_SPAN.search(line))
    return out


def problems_in(text, name="perf/RESULTS.md"):
    out = []
    for s in sections(text):
        if s.prose > MAX_PROSE:
            out.append(f"{name}:{s.line}: section \"{s.title[:60]}\" has {s.prose} lines of prose (at most {MAX_PROSE}; "
                       "details go to the subject's docs/*.md, history to git)")
        if s.table_rows and not (s.command_lines or s.names_a_command):
            out.append(f"{name}:{s.line}: section \"{s.title[:60]}\" has a table but no command that produces it")
    return out


def problems(root):
    results = root / "perf" / "RESULTS.md"
    if not results.is_file():
        return ["perf/RESULTS.md is missing"]
    return problems_in(results.read_text())


def self_test():
    at_limit = "\n".join(f"prose line {i}" for i in range(MAX_PROSE))
    text = (
        "# Performance results\n\nA preamble is no section.\n\n"
        f"## At the limit\n\n{at_limit}\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n```sh\nperf/x.sh\n```\n\n"
        f"### Over the limit\n\n{at_limit}\none more line\n\n    build/perf/bench_x\n\n"
        "### A table alone\n\nMeasured somewhere.\n\n| a |\n|---|\n| 1 |\n\n"
        "### A table with its command in a span\n\nMade by `scripts/run.sh X`.\n\n| a |\n|---|\n| 1 |\n"
    )
    expected = [
        f"perf/RESULTS.md:{text[:text.index('### Over')].count(chr(10)) + 1}: section \"Over the limit\" has "
        f"{MAX_PROSE + 1} lines of prose (at most {MAX_PROSE}; details go to the subject's docs/*.md, history to git)",
        f"perf/RESULTS.md:{text[:text.index('### A table alone')].count(chr(10)) + 1}: section \"A table alone\" has a "
        "table but no command that produces it",
    ]
    return layout_check.planted_tree_finds({"perf/RESULTS.md": text}, problems, expected)


if __name__ == "__main__":
    sys.exit(layout_check.run(__doc__, problems, self_test))
