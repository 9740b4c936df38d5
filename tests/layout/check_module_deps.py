#!/usr/bin/env python3
"""Each module's CMake DEPS (src/<module>/CMakeLists.txt, crd_add_module) must name exactly the
crd modules its headers (include/crd/<module>/) and sources (src/<module>/) include: a module that
includes another without declaring it builds only while some third module happens to link it, and a
declared module that is never included is a dependency no reader can find. Also refuses a cycle, and
checks that CRD_MODULES (src/CMakeLists.txt) names every module once, each after the modules it
depends on: that list is the layering a reader is told (README.md, "Code layout").

    check_module_deps.py SOURCE_DIR      exit 0 when every module agrees, else one line per problem
"""
import pathlib
import re
import sys

import layout_check

INCLUDE = re.compile(r'^\s*#\s*include\s+"crd/([a-z_0-9]+)/', re.M)
MODULE_LIST = re.compile(r"^set\(CRD_MODULES\s+([^)]*)\)", re.M)
MODULE = re.compile(r"crd_add_module\(\s*([a-z_0-9]+)(.*?)\)\s*$", re.S | re.M)
KEYWORDS = {"SOURCES", "DEPS", "LIBS"}


def declared_deps(cmake_text):
    """{module: set of DEPS} from the crd_add_module calls in one CMakeLists.txt."""
    found = {}
    for m in MODULE.finditer(cmake_text):
        words = re.sub(r"#[^\n]*", "", m.group(2)).split()
        deps, in_deps = set(), False
        for w in words:
            if w in KEYWORDS:
                in_deps = w == "DEPS"
            elif in_deps:
                deps.add(w)
        found[m.group(1)] = deps
    return found


def included_modules(root, module):
    """{included module: first file that includes it} over the module's headers and sources."""
    found = {}
    dirs = [root / "include" / "crd" / module, root / "src" / module]
    for d in dirs:
        for path in sorted(d.rglob("*")):
            if path.suffix not in (".hpp", ".h", ".cpp", ".cc") or not path.is_file():
                continue
            for other in INCLUDE.findall(path.read_text(errors="replace")):
                if other != module:
                    found.setdefault(other, path.relative_to(root))
    return found


def find_cycle(deps):
    state = {}

    def visit(m, path):
        state[m] = "open"
        for d in sorted(deps.get(m, ())):
            if state.get(d) == "open":
                return path + [m, d]
            if d not in state:
                cycle = visit(d, path + [m])
                if cycle:
                    return cycle
        state[m] = "done"
        return None

    for m in sorted(deps):
        if m not in state:
            cycle = visit(m, [])
            if cycle:
                return cycle
    return None


def order_problems(root, deps):
    """CRD_MODULES must list every module once, each after every module in its DEPS."""
    m = MODULE_LIST.search((root / "src" / "CMakeLists.txt").read_text())
    if not m:
        return ["src/CMakeLists.txt sets no CRD_MODULES"]
    order = m.group(1).split()
    out = []
    for module in sorted(set(deps) - set(order)):
        out.append(f"CRD_MODULES lacks {module}")
    for module in sorted({x for x in order if order.count(x) > 1}):
        out.append(f"CRD_MODULES names {module} more than once")
    position = {module: i for i, module in enumerate(order)}
    for module in order:
        for dep in sorted(deps.get(module, ())):
            if dep in position and position[dep] > position[module]:
                out.append(f"CRD_MODULES lists {module} before {dep}, which it depends on")
    return out


def problems(root):
    deps = {}
    for cmake in sorted((root / "src").glob("*/CMakeLists.txt")):
        deps.update(declared_deps(cmake.read_text()))
    out = []
    if not deps:
        out.append("no crd_add_module calls found under src/*/CMakeLists.txt")
    for module in sorted(deps):
        used = included_modules(root, module)
        for other in sorted(set(used) - deps[module]):
            out.append(f"crd_{module}: includes crd/{other}/ ({used[other]}) but DEPS lacks {other}")
        for other in sorted(deps[module] - set(used)):
            out.append(f"crd_{module}: DEPS names {other}, which none of its headers or sources include")
        for other in sorted(deps[module] - set(deps)):
            out.append(f"crd_{module}: DEPS names {other}, which is no module")
    cycle = find_cycle(deps)
    if cycle:
        out.append("DEPS form a cycle: " + " -> ".join(cycle))
    elif deps:
        out.extend(order_problems(root, deps))
    return out


if __name__ == "__main__":
    sys.exit(layout_check.run(__doc__, problems))
