#!/usr/bin/env python3
"""README.md's "Code layout" must name every module under src/ (a directory with a CMakeLists.txt),
once each, as a "- `module` —" line, in CRD_MODULES' order (src/CMakeLists.txt: each module after
those it depends on, checked by check_module_deps.py), so the map a newcomer reads is the house.
And docs/README.md must index every document in docs/, each exactly once ("- [name.md](name.md) —").

    check_readme_layout.py SOURCE_DIR      exit 0 when the map names every module in order
"""
import pathlib
import re
import sys

import layout_check

ENTRY = re.compile(r"^- `([a-z_0-9]+)` —", re.M)
MODULE_LIST = re.compile(r"^set\(CRD_MODULES\s+([^)]*)\)", re.M)


def layout_section(readme_text):
    start = readme_text.find("\n## Code layout")
    if start < 0:
        return None
    end = readme_text.find("\n## ", start + 1)
    return readme_text[start:end if end >= 0 else len(readme_text)]


def problems(root):
    modules = sorted(p.parent.name for p in (root / "src").glob("*/CMakeLists.txt"))
    section = layout_section((root / "README.md").read_text())
    if section is None:
        return ['README.md has no "## Code layout" section']
    named = ENTRY.findall(section)
    out = [f"README.md's Code layout does not name {m}" for m in modules if m not in named]
    out += [f"README.md's Code layout names {m}, which is no module under src/" for m in named if m not in modules]
    out += [f"README.md's Code layout names {m} more than once" for m in sorted(set(named)) if named.count(m) > 1]
    index = root / "docs" / "README.md"
    listed = re.findall(r"^- \[[^\]]*\]\(([a-z_0-9.-]+\.md)\)", index.read_text(), re.M) if index.is_file() else []
    for doc in sorted(p.name for p in (root / "docs").glob("*.md") if p.name != "README.md"):
        if listed.count(doc) != 1:
            out.append(f"docs/README.md lists docs/{doc} {listed.count(doc)} times (once, in one line)")
    order = MODULE_LIST.search((root / "src" / "CMakeLists.txt").read_text())
    if order and named == [m for m in named if m in modules] and sorted(set(named)) == modules and named != [m for m in order.group(1).split() if m in named]:
        out.append("README.md's Code layout is not in CRD_MODULES' order: " + " ".join(order.group(1).split()))
    return out


if __name__ == "__main__":
    sys.exit(layout_check.run(__doc__, problems))
