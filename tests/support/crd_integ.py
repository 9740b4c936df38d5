# Shared helpers of the whole-program tests: locating crd and the data, running it under mpirun,
# reading result files back (through analysis/crd_results.py, the one reader of crd's results),
# and the skip protocol: skip() raises unittest.SkipTest inside a test (or setUpClass), exits 77
# outside one, and main() exits 77 when every test was skipped (CTest's SKIP_RETURN_CODE).
import glob
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

import numpy as np

_HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(_HERE, "..", "..", "analysis"))  # crd_results
sys.path.insert(0, _HERE)  # reference_chunker and the other helpers beside it, shared by tests and perf/
try:
    import h5py  # noqa: F401  (tests that write fake result files use ci.h5py)
    import crd_results as results
except ImportError as err:  # pragma: no cover - the CI image has python3-h5py and python3-pandas
    print("SKIP: cannot import h5py/pandas (%s) with %s" % (err, sys.executable))
    sys.exit(77)
from crd_results import open_results  # noqa: E402,F401  (ci.open_results for the tests)

SKIP = 77
# Under scripts/test_sanitized.sh (which sets ASAN_OPTIONS) AddressSanitizer reserves terabytes of
# address space for its shadow memory and holds freed blocks in quarantine: address-space caps cannot
# be set and measured RSS says nothing about crd's own memory.
SANITIZED = "ASAN_OPTIONS" in os.environ


_running_tests = False  # set by main() while unittest runs the tests


def skip(reason):
    """Skips the current test (unittest.SkipTest, where unittest expects it) or, before any test
    runs (at import or in the __main__ block), the whole program with exit code 77."""
    print("SKIP:", reason, flush=True)
    if _running_tests:
        raise unittest.SkipTest(reason)
    sys.exit(SKIP)


def env_path(name):
    value = os.environ.get(name, "")
    return value if value else None


def crd_binary():
    path = env_path("CRD_BINARY")
    if not path or not os.access(path, os.X_OK):
        skip("CRD_BINARY is not set or not executable (run through ctest)")
    return path


def corpus_dir():
    path = env_path("CRD_CORPUS_DIR")
    if not path or not os.path.isdir(path):
        skip("documentation corpus absent (CRD_CORPUS_DIR=%r; run scripts/fetch_corpus.sh)" % path)
    return path


def corpus_package(name):
    path = os.path.join(corpus_dir(), name)
    if not os.path.isdir(path):
        skip("corpus package %s absent under %s" % (name, corpus_dir()))
    return path


def warc_samples():
    shared = env_path("CRD_SHARED_DIR")
    path = os.path.join(shared, "data", "warc-samples") if shared else None
    if not path or not os.path.isdir(path):
        skip("shared WARC samples absent (CRD_SHARED_DIR=%r)" % shared)
    return path


def warc_sample_files(include_arc=True):
    """The shared WARC (and, unless include_arc is False, ARC) samples, sorted; skips without them."""
    pattern = ["*.warc*"] + (["*.arc*"] if include_arc else [])
    found = []
    for p in pattern:
        found += glob.glob(os.path.join(warc_samples(), p))
    return sorted(found)


def sample_archives(tmp, include_arc=True):
    """The project's own sample archives (tests/support/archives.py, SAMPLE_SHAPES: wget- and
    wpull-style WARCs, revisits, .arc and .arc.gz, damaged files, ...) written into the TempDir
    `tmp`; sorted paths. The real samples under ../shared cover the same shapes as extra coverage
    (tests labeled `shared`)."""
    import archives
    directory = tmp("sample-archives")
    os.makedirs(directory, exist_ok=True)
    paths = archives.write_sample_shapes(directory)
    return paths if include_arc else [p for p in paths if ".warc" in os.path.basename(p)]


def sphinx_html():
    """The sphinx-doc HTML tree inside the corpus (skips without the package, not without the tree)."""
    return os.path.join(corpus_package("sphinx-doc"), "usr", "share", "doc", "sphinx-doc", "html")


def source_dir():
    path = env_path("CRD_SOURCE_DIR")
    return path if path else os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))


def mpi_prefix(nranks, quiet=False):
    """mpirun -np N with the consent/oversubscription flags this machine needs (also in the env);
    quiet adds -q, which drops mpirun's own banner when a rank exits non-zero."""
    mpiexec = env_path("MPIEXEC") or shutil.which("mpirun")
    if not mpiexec:
        skip("no mpirun found")
    flags = ["--oversubscribe"] + (["-q"] if quiet else [])
    if os.geteuid() == 0:
        flags.append("--allow-run-as-root")
    return [mpiexec, "-np", str(nranks)] + flags


def run_crd(args, nranks=None, check=True, stdin=None, timeout=600, cwd=None, mpi_quiet=False, env=None):
    """Runs crd (under mpirun when nranks is given); returns the CompletedProcess (text mode).
    env: variables merged over os.environ for this run; a value of None removes that variable."""
    cmd = ([] if nranks is None else mpi_prefix(nranks, mpi_quiet)) + [crd_binary()] + list(args)
    run_env = None
    if env is not None:
        run_env = dict(os.environ)
        for name, value in env.items():
            if value is None:
                run_env.pop(name, None)
            else:
                run_env[name] = value
    proc = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, input=stdin,
                          timeout=timeout, cwd=cwd, env=run_env)
    proc.stdout = proc.stdout.decode("utf-8", "replace")
    proc.stderr = proc.stderr.decode("utf-8", "replace")
    if check and proc.returncode != 0:
        raise AssertionError("crd failed (%d): %s\nstdout:\n%s\nstderr:\n%s" %
                             (proc.returncode, " ".join(cmd), proc.stdout[-4000:], stderr_excerpt(proc.stderr)))
    return proc


def stderr_excerpt(text, size=4000):
    """The part of a failed run's stderr worth reading: from a sanitizer's first report (its
    error line and stack come first, then pages of shadow-memory legend and mpirun's noise), else
    the end."""
    for mark in ("ERROR: AddressSanitizer", "ERROR: LeakSanitizer", "runtime error:"):
        at = text.find(mark)
        if at >= 0:
            start = text.rfind("\n", 0, at) + 1
            return text[start:start + size]
    return text[-size:]


def quiet(args):
    return list(args) + ["--progress-interval", "0"]


class TempDir:
    """A scratch directory removed at exit unless CRD_KEEP_TMP is set."""

    def __init__(self, prefix):
        self.path = tempfile.mkdtemp(prefix="crd-integ-%s-" % prefix)

    def __call__(self, *parts):
        return os.path.join(self.path, *parts)

    def cleanup(self):
        if not os.environ.get("CRD_KEEP_TMP"):
            shutil.rmtree(self.path, ignore_errors=True)


NO_SPACE = "No space left on device"


class Tmpfs:
    """A tmpfs of `size` mounted on a fresh directory (needs root); close() unmounts it."""

    def __init__(self, size, read_only=False):
        self.path = tempfile.mkdtemp(prefix="crd-full-")
        options = "size=%s" % size + (",ro" if read_only else "")
        proc = subprocess.run(["mount", "-t", "tmpfs", "-o", options, "tmpfs", self.path],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        if proc.returncode != 0:
            os.rmdir(self.path)
            raise OSError(proc.stderr.decode().strip() or "mount failed")

    def __call__(self, *parts):
        return os.path.join(self.path, *parts)

    def fill(self, leave_bytes):
        """Fills the file system until at most leave_bytes are free."""
        st = os.statvfs(self.path)
        with open(self("filler"), "wb") as f:
            f.write(b"\0" * max(0, st.f_bavail * st.f_frsize - leave_bytes))

    def entries(self):
        return sorted(os.listdir(self.path))

    def close(self):
        # Lazy: after a regression's timeout, orphaned ranks may still hold files open here.
        subprocess.run(["umount", "-l", self.path], check=True)
        os.rmdir(self.path)


def require_tmpfs():
    """Skips the test program where no tmpfs can be mounted (not root)."""
    try:
        Tmpfs("64k").close()
    except OSError as e:
        skip("cannot mount a tmpfs to fill (needs root): %s" % e)


def mount_tmpfs(tc, size, read_only=False):
    """A Tmpfs unmounted when the test case `tc` ends."""
    fs = Tmpfs(size, read_only)
    tc.addCleanup(fs.close)
    return fs


def assert_fails_with_one_line(tc, args, nranks, pattern, timeout):
    """Runs crd under mpirun -q; asserts it ends within `timeout` s with exit 1 and one stderr line
    matching `pattern` (a fatal condition's contract)."""
    try:
        proc = run_crd(args, nranks=nranks, check=False, timeout=timeout, mpi_quiet=True)
    except subprocess.TimeoutExpired:
        tc.fail("crd hung for %d s: %s" % (timeout, " ".join(args)))
    tc.assertEqual(proc.returncode, 1, proc.stderr)
    lines = proc.stderr.splitlines()
    tc.assertEqual(len(lines), 1, proc.stderr)
    tc.assertRegex(lines[0], pattern)
    return proc


def read_all(path):
    """{dataset path: numpy array} and {group path: {attr: value}} of a whole result file."""
    return open_results(path).snapshot()


def comparable(path, drop_root=()):
    """(datasets, attrs) of a result file (read_all) without what describes the particular job:
    /run/timings and /run/resources (their datasets and group attributes) and the root attributes
    named in drop_root (e.g. "nranks", "created", "command_line", "config")."""
    return open_results(path).snapshot(results.JOB_TABLES, drop_root)


def run_summary(path):
    """(counters {name: value}, errors [(file, offset, reason)], pages {url: chunks}, chunk samples)
    of a run result, strings as str that round-trip to the stored bytes (surrogateescape)."""
    r = open_results(path)
    exact = "surrogateescape"
    errors = r.table(results.ERRORS, decode=exact)
    pages = r.table(results.PAGES, decode=exact)
    return (r.counters.to_dict(), list(zip(errors["file"], errors["offset"].tolist(), errors["reason"])),
            dict(zip(pages["url"], pages["chunks"].tolist())), r.table(results.CHUNKS, decode=exact)["sample"].tolist())


def assert_same_datasets(tc, a, b, msg=""):
    """Two {dataset path: array} maps have the same names and, per name, dtype, shape and values;
    msg (e.g. "at np=2") ends each failure message."""
    suffix = (" " + msg) if msg else ""
    tc.assertEqual(sorted(a), sorted(b), "dataset names" + suffix)
    for name in b:
        tc.assertEqual(a[name].dtype, b[name].dtype, name + suffix)
        tc.assertEqual(a[name].shape, b[name].shape, name + suffix)
        tc.assertTrue(np.array_equal(a[name], b[name]), "%s differs%s" % (name, suffix))


# Helpers on stored arrays (read_all's values, or h5py datasets): bytes strings, hex hashes.
def strings(column):
    return [bytes(x) for x in column]


def hexes(matrix):
    return results.hex_hashes(np.asarray(matrix))


def table(f, group):
    """A group of an open h5py file as {column: numpy array} (prefer open_results(path).table)."""
    return {k: v[()] for k, v in f[group].items() if isinstance(v, h5py.Dataset)}


def csr(values, offsets, i):
    return list(values[int(offsets[i]):int(offsets[i + 1])])


_plain = results.attr_value  # attribute values as plain Python (str, int, float)


def all_skipped(result):
    """True when a unittest result skipped something and ran nothing to completion. A class whose
    setUpClass skips adds one skip that testsRun does not count (its test is not a TestCase)."""
    skipped_tests = sum(1 for test, _ in result.skipped if isinstance(test, unittest.TestCase))
    return bool(result.skipped) and result.testsRun == skipped_tests


def main():
    """unittest.main that maps failures to 1 and "every test skipped" to 77."""
    global _running_tests
    _running_tests = True
    result = unittest.main(exit=False, verbosity=2).result
    _running_tests = False
    if not result.wasSuccessful():
        sys.exit(1)
    sys.exit(SKIP if all_skipped(result) else 0)
