#!/usr/bin/env bash
# Regenerates the README's command and option lists from crd's command table and option registry
# (`crd --markdown commands|options`); tests/cli/test_cli_lists.py fails when they drift.
#
#   scripts/update_readme_lists.sh [CRD]   (default build/crd)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
crd=${1:-$root/build/crd}
/usr/bin/python3 - "$crd" "$root/README.md" <<'PY'
import re, subprocess, sys
crd, readme = sys.argv[1], sys.argv[2]
text = open(readme).read()
for what in ("commands", "options"):
    body = subprocess.run([crd, "--markdown", what], check=True, capture_output=True, text=True).stdout
    begin = "<!-- generated: crd --markdown %s (scripts/update_readme_lists.sh) -->\n" % what
    pattern = re.compile(re.escape(begin) + r".*?<!-- end generated -->\n", re.S)
    if not pattern.search(text):
        sys.exit("README.md has no generated %s block" % what)
    text = pattern.sub(lambda _: begin + body + "<!-- end generated -->\n", text)
open(readme, "w").write(text)
PY
