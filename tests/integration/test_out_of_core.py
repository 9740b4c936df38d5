# Out-of-core counting. Under a --memory budget 20 times smaller than the tables of an
# in-memory run, discover, run and detect count in passes over the hash space and give the same
# result file, dataset by dataset (all but /run/timings, /run/resources and the root attributes
# that name the job), at 1–3 ranks (each command at one or two rank counts, together all three:
# every pass re-reads the input, so each case costs ~P readings); discover --keep-counts writes the
# same /discovery/chunk_counts and /discovery/file_counts; /run/resources and the progress lines
# name the passes, and the peak RSS stays within the budget plus the stated fixed buffers
# (docs/memory.md). With --work-dir on a full or read-only disk the job fails with one line and
# leaves nothing behind.
import os
import re
import subprocess
import sys
import unittest

import crd_integ as ci

NO_SPACE = ci.NO_SPACE

SHUFFLE = 16 * 1024  # a small shuffle round: many rounds, and a budget that is mostly tables
# HTML bytes of python3.11-doc in the WARC: enough that a budget of 1/20 of the tables leaves room
# beyond the fixed parts of a pass (empty tables, shuffle round, page vectors), little enough that
# the ~100 passes it takes stay quick.
PY_BYTES = 30_000_000
# Measured RSS beyond budget + shuffle round + base (docs/memory.md): 3 MiB seen here with a WARC
# input (I/O and allocator buffers the model leaves out), plus the local tally's first sample block
# (LocalTally::kBlockBytes, 4 MiB), mapped whole when it is made; fixed, not growing with the data.
SLACK = (4 << 20) + (4 << 20)


def options(extra=()):
    # No reader thread: its queue (64 MiB, outside --memory) would hide the tables in the RSS check;
    # test_reader_thread_out_of_core covers that path.
    reader = [] if "--reader-thread" in extra else ["--reader-thread", "off"]
    progress = [] if "--progress-interval" in extra else ["--progress-interval", "0"]
    return ["--chunk-threshold", "2", "--file-threshold", "1", "--shuffle-buffer", str(SHUFFLE)] + \
        progress + reader + list(extra)


def resources(path):
    return ci.open_results(path).resources.to_dict()


def comparable(path):
    return ci.comparable(path, drop_root=("nranks", "created", "command_line", "config"))


def python_doc_warc(tmp):
    """The first PY_BYTES of python3.11-doc's HTML as one gzipped WARC: a single input file of
    hundreds of documents, so the budget stops a scan inside a file, not only between files."""
    html = os.path.join(ci.corpus_package("python3.11-doc"), "usr", "share", "doc", "python3.11", "html")
    subprocess.run([sys.executable, os.path.join(ci.source_dir(), "perf", "make_warc.py"), "--max-bytes",
                    str(PY_BYTES), html, tmp("py")], check=True, stdout=subprocess.DEVNULL)
    return tmp("py.warc.gz"), html


class OutOfCore(unittest.TestCase):
    maxDiff = None

    @classmethod
    def setUpClass(cls):
        cls.tmp = ci.TempDir("outofcore")
        warc, html = python_doc_warc(cls.tmp)
        cls.inputs = [warc, ci.corpus_package("debian-reference-en")]
        cls.reference = {}
        for command, extra in (("discover", []), ("run", []), ("keep-counts", ["--keep-counts"])):
            out = cls.tmp("%s-memory.h5" % command)
            ci.run_crd([command.replace("keep-counts", "discover")] + cls.inputs + ["-o", out] + options(extra),
                       nranks=1)
            cls.reference[command] = out
        cls.budget = resources(cls.reference["run"])["memory.tables_max"] // 20
        cls.labels = cls.reference["discover"]
        out = cls.tmp("detect-memory.h5")
        ci.run_crd(["detect"] + cls.inputs + ["--labels", cls.labels, "-o", out] + options()[4:], nranks=1)
        cls.reference["detect"] = out
        # The process (with MPI's buffers for its peers, and for detect the labels it loads) and its
        # document buffers: the same command at the same rank count over the largest page alone.
        largest = max((os.path.join(d, f) for d, _, fs in os.walk(html) for f in fs), key=os.path.getsize)
        os.makedirs(cls.tmp("largest", "h"))
        os.link(largest, cls.tmp("largest", "h", "page.html"))
        cls.base_rss = {}

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def out_of_core(self, command, nranks, extra=(), name=None, budget=None):
        budget = budget or self.budget
        out = self.tmp("%s-np%d.h5" % (name or command, nranks))
        args = [command] + self.inputs + ["-o", out] + options(["--memory", str(budget)] + list(extra))
        if command == "detect":
            args = [command] + self.inputs + ["--labels", self.labels, "-o", out] + \
                options(["--memory", str(budget)] + list(extra))[4:]
        proc = ci.run_crd(args, nranks=nranks)
        return out, proc

    def check_same(self, command, nranks, extra=(), reference=None, budget=None, shrink=10):
        reference = reference or command
        budget = budget or self.budget
        out, _ = self.out_of_core(command, nranks, extra, reference, budget)
        got, ref = comparable(out), comparable(self.reference[reference])
        ci.assert_same_datasets(self, got[0], ref[0], "(%s at np=%d out of core)" % (reference, nranks))
        self.assertEqual(got[1], ref[1], "attributes")
        used = resources(out)
        self.assertGreater(used["counting.passes"], 1, "the budget must force passes")
        self.assertGreater(used["counting.bytes_reread"], 0)
        self.assertEqual(resources(self.reference[reference])["counting.passes"], 1)
        self.assertEqual(resources(self.reference[reference])["counting.bytes_reread"], 0)
        # Measured RSS (getrusage, busiest rank) against docs/memory.md: the budget, the shuffle round,
        # and the process with its document buffers (base_rss), which --memory does not cover. Not
        # under a sanitizer, whose shadow memory and quarantine are most of the RSS.
        key = (command, nranks)
        if not ci.SANITIZED:
            if key not in self.base_rss:
                args = [command, self.tmp("largest"), "-o", self.tmp("base.h5")] + options()
                if command == "detect":
                    args = [command, self.tmp("largest"), "--labels", self.labels, "-o", self.tmp("base.h5")] + options()[4:]
                ci.run_crd(args, nranks=nranks)
                self.base_rss[key] = resources(self.tmp("base.h5"))["memory.peak_rss_max"]
            base = self.base_rss[key]
            self.assertLessEqual(used["memory.peak_rss_max"], base + budget + 2 * SHUFFLE + SLACK,
                                 "peak RSS over the formula (base %d, budget %d)" % (base, budget))
        # The in-memory run's tables were far larger: the budget is what kept them small.
        self.assertGreater(resources(self.reference[reference])["memory.tables_max"], shrink * used["memory.tables_max"])
        return used

    # Each command at the rank counts that matter most for it; together they cover 1, 2 and 3 ranks.
    def test_discover_is_identical_out_of_core(self):
        self.check_same("discover", 1)

    def test_keep_counts_are_identical_out_of_core(self):
        # Every pass's count rows on their owner, sorted by hash: the same tables as in memory. --memory
        # counts the rows (40 bytes a hash, all passes' on top of one pass's tables), and at the other
        # tests' budget they alone do not fit: that budget fails with the rank-count line, and one
        # with room for the rows counts out of core.
        counts = comparable(self.reference["keep-counts"])[0]
        rows = sum(len(counts[n]) for n in ("/discovery/chunk_counts/hash", "/discovery/file_counts/hash"))
        ci.assert_fails_with_one_line(
            self, ["discover"] + self.inputs + ["-o", self.tmp("keep-small.h5")] +
            options(["--memory", str(self.budget), "--keep-counts"]), 3,
            r"^crd discover: fatal: --memory \d+(\.\d\d)? (B|KiB|MiB) per rank is too small: counting needs about .* run with at "
            r"least \d+ ranks or raise --memory$", 300)
        self.assertFalse(os.path.exists(self.tmp("keep-small.h5")))
        # Room for half of all rows on each of the 3 ranks (an owner's share, with the local
        # duplicates the plan counts): the tables still need several passes.
        self.check_same("discover", 3, ["--keep-counts"], "keep-counts", self.budget + rows * 40 // 2, shrink=4)
        for name in ("/discovery/chunk_counts/hash", "/discovery/file_counts/hash"):
            hashes = [bytes(h) for h in counts[name]]
            self.assertGreater(len(hashes), 100, name)
            self.assertEqual(hashes, sorted(hashes), name + " by hash")

    def test_run_is_identical_out_of_core(self):
        self.check_same("run", 2)

    def test_detect_is_identical_out_of_core(self):
        self.check_same("detect", 3)

    def test_the_in_memory_run_is_far_over_the_budget(self):
        # The premise of the tests above: the tables are 20× the budget, not merely over it.
        self.assertGreaterEqual(resources(self.reference["run"])["memory.tables_max"], 20 * self.budget)

    def test_reader_thread_and_progress_lines_out_of_core(self):
        # The reader thread's path gives the same result, and the progress lines name every pass.
        out, proc = self.out_of_core("discover", 2, ["--reader-thread", "on", "--progress-interval", "0.0001"],
                                     "reader")
        ci.assert_same_datasets(self, comparable(out)[0], comparable(self.reference["discover"])[0], "(reader thread)")
        passes = resources(out)["counting.passes"]
        self.assertGreater(passes, 1)
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
        self.assertRegex(lines[0], r"^crd label: fatal: --memory [0-9.]+ (B|KiB|MiB|GiB) per rank is too small: .* run with at "
                                   r"least [0-9]+ ranks or raise --memory$")
        self.assertFalse(os.path.exists(out))


class OutOfCoreWorkDir(unittest.TestCase):
    """Out of core, --work-dir holds only checkpoints (passes write no scratch files): a full or
    read-only one still ends the job with one line, exit 1, no result and no partial file."""

    @classmethod
    def setUpClass(cls):
        ci.require_tmpfs()
        cls.inputs = [ci.corpus_package("sphinx-doc")]
        cls.tmp = ci.TempDir("outofcore-work")
        ref = cls.tmp("ref.h5")
        ci.run_crd(["run"] + cls.inputs + ["-o", ref] + options(), nranks=1)
        # A quarter: enough for passes on this smaller corpus (each pass has fixed empty tables).
        cls.budget = resources(ref)["memory.tables_max"] // 4

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def mount(self, size, read_only=False):
        return ci.mount_tmpfs(self, size, read_only)

    def fails_with_one_line(self, work_dir, nranks, pattern):
        out_dir = self.tmp("out-%s-%d" % (os.path.basename(work_dir.rstrip("/")), nranks))
        os.makedirs(out_dir, exist_ok=True)
        args = ["run"] + self.inputs + ["-o", os.path.join(out_dir, "z.h5"), "--work-dir", work_dir] + \
            options(["--memory", str(self.budget)])
        ci.assert_fails_with_one_line(self, args, nranks, pattern, 300)
        self.assertEqual(os.listdir(out_dir), [], "no result and no temporary may remain")

    def test_full_work_dir(self):
        fs = self.mount("1m")
        fs.fill(0)
        self.fails_with_one_line(fs("w"), 2, "^crd run: fatal: .*%s$" % NO_SPACE)
        partial = [f for _, _, files in os.walk(fs.path) for f in files if f.endswith(".partial")]
        self.assertEqual(partial, [], "a failed checkpoint leaves no partial file")

    def test_unwritable_work_dir(self):
        fs = self.mount("1m", read_only=True)
        self.fails_with_one_line(fs("w"), 1,
                                 "^crd run: fatal: cannot create work directory %s/[0-9a-f]{16}: "
                                 "rank 0: Read-only file system$" % re.escape(fs("w")))


if __name__ == "__main__":
    ci.main()
