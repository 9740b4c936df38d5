# Issue 17: out-of-core counting. Under a --memory budget 20 times smaller than the tables of an
# in-memory run, discover, run and detect count in passes over the hash space and give the same
# result file, dataset by dataset (all but /run/timings, /run/resources and the root attributes
# that name the job), at 1–3 ranks; /run/resources and the progress lines name the passes, and the
# peak RSS stays within the budget plus the stated fixed buffers (docs/memory.md). With --work-dir
# on a full or read-only disk the job fails with one line and leaves nothing behind.
import os
import re
import subprocess
import sys
import unittest

import crd_integ as ci

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "output"))
from test_disk_full import NO_SPACE, Tmpfs  # noqa: E402

RANKS = (1, 2, 3)
SHUFFLE = 64 * 1024  # a tiny shuffle round: many rounds, and a budget that is mostly tables
# The process itself (code, MPI, HDF5) and the reader queue are outside --memory (docs/memory.md).
PROCESS_BYTES = 96 << 20


def options(extra=()):
    return ["--chunk-threshold", "2", "--file-threshold", "1", "--shuffle-buffer", str(SHUFFLE),
            "--progress-interval", "0"] + list(extra)


def resources(path):
    return ci.open_results(path).resources.to_dict()


def comparable(path):
    return ci.comparable(path, drop_root=("nranks", "created", "command_line", "config"))


class OutOfCore(unittest.TestCase):
    maxDiff = None

    @classmethod
    def setUpClass(cls):
        cls.inputs = [ci.corpus_package("debian-reference-en"), ci.corpus_package("sphinx-doc")]
        cls.tmp = ci.TempDir("outofcore")
        cls.reference = {}
        for command in ("discover", "run"):
            out = cls.tmp("%s-memory.h5" % command)
            ci.run_crd([command] + cls.inputs + ["-o", out] + options(), nranks=1)
            cls.reference[command] = out
        tables = resources(cls.reference["run"])["memory.tables_max"]
        cls.budget = tables // 20
        cls.labels = cls.reference["discover"]
        out = cls.tmp("detect-memory.h5")
        ci.run_crd(["detect"] + cls.inputs + ["--labels", cls.labels, "-o", out] + options()[4:], nranks=1)
        cls.reference["detect"] = out

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def out_of_core(self, command, nranks, extra=()):
        out = self.tmp("%s-np%d.h5" % (command, nranks))
        args = [command] + self.inputs + ["-o", out] + options(["--memory", str(self.budget)] + list(extra))
        if command == "detect":
            args = [command] + self.inputs + ["--labels", self.labels, "-o", out] + \
                options(["--memory", str(self.budget)] + list(extra))[4:]
        proc = ci.run_crd(args, nranks=nranks)
        return out, proc

    def check_same(self, command, nranks):
        out, _ = self.out_of_core(command, nranks)
        got, ref = comparable(out), comparable(self.reference[command])
        ci.assert_same_datasets(self, got[0], ref[0], "(%s at np=%d out of core)" % (command, nranks))
        self.assertEqual(got[1], ref[1], "attributes")
        used = resources(out)
        self.assertGreater(used["counting.passes"], 1, "the budget must force passes")
        self.assertGreater(used["counting.bytes_reread"], 0)
        self.assertEqual(resources(self.reference[command])["counting.passes"], 1)
        self.assertEqual(resources(self.reference[command])["counting.bytes_reread"], 0)
        # Measured RSS (getrusage) against the formula: budget + shuffle round + reader queue + process.
        self.assertLessEqual(used["memory.peak_rss_max"], self.budget + 2 * SHUFFLE + PROCESS_BYTES, used)
        return used

    def test_discover_is_identical_out_of_core(self):
        for n in RANKS:
            with self.subTest(nranks=n):
                self.check_same("discover", n)

    def test_run_is_identical_out_of_core(self):
        for n in RANKS:
            with self.subTest(nranks=n):
                self.check_same("run", n)

    def test_detect_is_identical_out_of_core(self):
        for n in (1, 3):
            with self.subTest(nranks=n):
                self.check_same("detect", n)

    def test_the_in_memory_run_is_far_over_the_budget(self):
        # The premise of the tests above: the tables are 20× the budget, not merely over it.
        self.assertGreaterEqual(resources(self.reference["run"])["memory.tables_max"], 20 * self.budget)

    def test_progress_lines_name_the_passes(self):
        out = self.tmp("progress.h5")
        proc = ci.run_crd(["discover"] + self.inputs + ["-o", out, "--memory", str(self.budget),
                                                         "--shuffle-buffer", str(SHUFFLE),
                                                         "--progress-interval", "0.0001"], nranks=2)
        passes = resources(out)["counting.passes"]
        for k in range(1, passes + 1):
            self.assertRegex(proc.stderr, r"crd scan, pass %d of %d: .*100\.0%%" % (k, passes))

    def test_label_still_fails_early(self):
        # crd label's output is every chunk: passes cannot make it smaller, so it keeps the early failure.
        out = self.tmp("label.h5")
        proc = ci.run_crd(["label"] + self.inputs + ["-o", out, "--memory", str(self.budget),
                                                      "--shuffle-buffer", str(SHUFFLE), "--progress-interval", "0"],
                          nranks=2, check=False, mpi_quiet=True)
        self.assertEqual(proc.returncode, 1, proc.stderr)
        lines = proc.stderr.splitlines()
        self.assertEqual(len(lines), 1, proc.stderr)
        self.assertRegex(lines[0], r"^crd label: fatal: --memory [0-9.]+ GiB per rank is too small: .* run with at "
                                   r"least [0-9]+ ranks or raise --memory$")
        self.assertFalse(os.path.exists(out))


class OutOfCoreWorkDir(unittest.TestCase):
    """Out of core, --work-dir holds only checkpoints (passes write no scratch files): a full or
    read-only one still ends the job with one line, exit 1, no result and no partial file."""

    @classmethod
    def setUpClass(cls):
        try:
            Tmpfs("64k").close()
        except OSError as e:
            ci.skip("cannot mount a tmpfs to fill (needs root): %s" % e)
        cls.inputs = [ci.corpus_package("sphinx-doc")]
        cls.tmp = ci.TempDir("outofcore-work")
        ref = cls.tmp("ref.h5")
        ci.run_crd(["run"] + cls.inputs + ["-o", ref] + options(), nranks=1)
        cls.budget = resources(ref)["memory.tables_max"] // 20

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def mount(self, size, read_only=False):
        fs = Tmpfs(size, read_only)
        self.addCleanup(fs.close)
        return fs

    def fails_with_one_line(self, work_dir, nranks, pattern):
        out_dir = self.tmp("out-%s-%d" % (os.path.basename(work_dir.rstrip("/")), nranks))
        os.makedirs(out_dir, exist_ok=True)
        args = ["run"] + self.inputs + ["-o", os.path.join(out_dir, "z.h5"), "--work-dir", work_dir] + \
            options(["--memory", str(self.budget)])
        try:
            proc = ci.run_crd(args, nranks=nranks, check=False, timeout=300, mpi_quiet=True)
        except subprocess.TimeoutExpired:
            self.fail("crd hung with --work-dir on a full disk")
        self.assertEqual(proc.returncode, 1, proc.stderr)
        lines = proc.stderr.splitlines()
        self.assertEqual(len(lines), 1, proc.stderr)
        self.assertRegex(lines[0], pattern)
        self.assertEqual(os.listdir(out_dir), [], "no result and no temporary may remain")

    def test_full_work_dir(self):
        for nranks in (1, 2):
            with self.subTest(nranks=nranks):
                fs = self.mount("1m")
                fs.fill(0)
                self.fails_with_one_line(fs("w"), nranks, "^crd run: fatal: .*%s$" % NO_SPACE)
                partial = [f for _, _, files in os.walk(fs.path) for f in files if f.endswith(".partial")]
                self.assertEqual(partial, [], "a failed checkpoint leaves no partial file")

    def test_unwritable_work_dir(self):
        for nranks in (1, 2):
            with self.subTest(nranks=nranks):
                fs = self.mount("1m", read_only=True)
                self.fails_with_one_line(fs("w"), nranks,
                                         "^crd run: fatal: cannot create work directory %s/[0-9a-f]{16}: "
                                         "rank 0: Read-only file system$" % re.escape(fs("w")))


if __name__ == "__main__":
    ci.main()
