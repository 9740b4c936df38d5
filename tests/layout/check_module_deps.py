#!/usr/bin/env python3
"""Each module's CMake DEPS (src/<module>/CMakeLists.txt, crd_add_module) must name exactly the
crd modules its headers (include/crd/<module>/) and sources (src/<module>/) include: a module that
includes another without declaring it builds only while some third module happens to link it, and a
declared module that is never included is a dependency no reader can find. Also refuses a cycle.

    check_module_deps.py SOURCE_DIR      exit 0 when every module agrees, else one line per problem
"""
import pathlib
import re
import sys

INCLUDE = re.compile(r'^\s*#\s*include\s+"crd/([a-z_0-9]+)/', re.M)
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
    return out


def main():
    if len(sys.argv) != 2:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    found = problems(pathlib.Path(sys.argv[1]))
    for line in found:
        print(line)
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
