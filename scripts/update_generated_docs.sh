#!/usr/bin/env bash
# Regenerates the command and option reference in docs/options.md from crd's command table and
# option registry (`crd --markdown commands|options`); tests/cli/test_cli_lists.py (cli.lists) fails
# when they drift. The man page needs no step here: `crd --man` writes it at build time.
#
#   scripts/update_generated_docs.sh [CRD]   (default build/crd)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
crd=${1:-$root/build/crd}
/usr/bin/python3 - "$crd" "$root/docs/options.md" <<'PY'
import re, subprocess, sys
crd, doc = sys.argv[1], sys.argv[2]
text = open(doc).read()
for what in ("commands", "options"):
    body = subprocess.run([crd, "--markdown", what], check=True, capture_output=True, text=True).stdout
    begin = "<!-- generated: crd --markdown %s (scripts/update_generated_docs.sh) -->\n" % what
    pattern = re.compile(re.escape(begin) + r".*?<!-- end generated -->\n", re.S)
    if not pattern.search(text):
        sys.exit("%s has no generated %s block" % (doc, what))
    text = pattern.sub(lambda _: begin + body + "<!-- end generated -->\n", text)
open(doc, "w").write(text)
PY
