"""The command line every layout check shares: `check_….py SOURCE_DIR` prints one line per problem
that `problems(root)` finds and exits 1 if there is any, 0 if none, 2 (with the check's docstring)
when the arguments are wrong. `check_….py --self-test` runs the check's own `self_test()`, which
plants problems in a scratch tree (`planted_tree_finds`) so that a check that cannot fail fails."""
import pathlib
import sys
import tempfile


def run(doc, problems, self_test=None):
    if self_test is not None and sys.argv[1:] == ["--self-test"]:
        return self_test()
    if len(sys.argv) != 2:
        print(doc.strip(), file=sys.stderr)
        return 2
    found = problems(pathlib.Path(sys.argv[1]))
    for line in found:
        print(line)
    return 1 if found else 0


def planted_tree_finds(files, problems, expected):
    """Writes `files` (relative path → text) into a scratch tree; 0 when problems(tree) is exactly
    `expected`, else 1 with both printed."""
    with tempfile.TemporaryDirectory() as scratch:
        root = pathlib.Path(scratch)
        for name, text in files.items():
            (root / name).parent.mkdir(parents=True, exist_ok=True)
            (root / name).write_text(text)
        found = problems(root)
    if found != expected:
        print("self-test: expected", *expected, "found", *found, sep="\n", file=sys.stderr)
        return 1
    return 0
