"""The command line every layout check shares: `check_….py SOURCE_DIR` prints one line per problem
that `problems(root)` finds and exits 1 if there is any, 0 if none, 2 (with the check's docstring)
when the arguments are wrong."""
import pathlib
import sys


def run(doc, problems):
    if len(sys.argv) != 2:
        print(doc.strip(), file=sys.stderr)
        return 2
    found = problems(pathlib.Path(sys.argv[1]))
    for line in found:
        print(line)
    return 1 if found else 0
