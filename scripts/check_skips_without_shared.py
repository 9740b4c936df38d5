#!/usr/bin/env python3
"""Proves the suite needs no ../shared: runs every CTest test labeled `shared` (those that read
../shared/data, the real WARC samples) again with CRD_SHARED_DIR pointing to an empty folder and
asserts each one is reported skipped (exit 77, or GoogleTest's skip message) rather than failed.
Used by .ci/run after the main suite; each test skips in about a second, so this costs little.

  scripts/check_skips_without_shared.py [BUILD_DIR]      (default: build)
"""
import json
import os
import re
import subprocess
import sys
import tempfile

SKIP_RETURN_CODE = 77


def shared_tests(build):
    out = subprocess.run(["ctest", "--test-dir", build, "-L", "^shared$", "--show-only=json-v1"],
                         check=True, stdout=subprocess.PIPE).stdout
    return json.loads(out)["tests"]


def properties(test):
    return {p["name"]: p["value"] for p in test.get("properties", [])}


def is_skipped(proc, props):
    if proc.returncode == props.get("SKIP_RETURN_CODE", SKIP_RETURN_CODE):
        return True
    skip_res = props.get("SKIP_REGULAR_EXPRESSION", [])
    return proc.returncode == 0 and any(re.search(r, proc.stdout) for r in skip_res)


def main():
    build = sys.argv[1] if len(sys.argv) > 1 else "build"
    tests = shared_tests(build)
    if not tests:
        print("check_skips_without_shared: no test is labeled `shared`", file=sys.stderr)
        return 1
    failed = []
    with tempfile.TemporaryDirectory(prefix="crd-no-shared-") as empty:
        for test in tests:
            props = properties(test)
            if "command" not in test:  # its program was not built
                print("%-40s NOT BUILT" % test["name"], flush=True)
                failed.append(test["name"])
                continue
            env = dict(os.environ)
            env.update(v.split("=", 1) for v in props.get("ENVIRONMENT", []))
            env["CRD_SHARED_DIR"] = empty
            proc = subprocess.run(test["command"], env=env, cwd=props.get("WORKING_DIRECTORY", build),
                                  stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                                  errors="replace", timeout=600)
            ok = is_skipped(proc, props)
            print("%-40s %s (exit %d)" % (test["name"], "skipped" if ok else "NOT SKIPPED", proc.returncode), flush=True)
            if not ok:
                failed.append(test["name"])
                print(proc.stdout[-3000:])
    if failed:
        print("check_skips_without_shared: without ../shared these did not skip: " + ", ".join(failed),
              file=sys.stderr)
        return 1
    print("check_skips_without_shared: all %d tests that read ../shared skip without it" % len(tests))
    return 0


if __name__ == "__main__":
    sys.exit(main())
