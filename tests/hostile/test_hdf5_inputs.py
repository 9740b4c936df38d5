# Hostile HDF5 inputs (round 3; docs/hostile-input.md "Round 3: HDF5
# inputs"): result files read by detect/run --labels, merge, check, compare --labels, report and
# inspect whose datasets declare more rows than they store, more than --memory, counters one
# short, counts of 2^64 - 1, chunk lengths of 2^63, the same file merged twice. Each must end in
# one line and a non-zero exit, with no result left behind, or give the documented value.
# Every crd here runs under an address-space limit (ADDRESS_SPACE), so an unfixed crd that trusts
# a declared shape fails fast with std::bad_alloc instead of taking the machine's memory.
# Run: python3 test_hdf5_inputs.py [TestClass…]
import os
import sys
import unittest

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "support"))
import crd_integ as ci  # noqa: E402  (exits 77 without h5py)
import hostile_results  # noqa: E402  (tests/support)
from hostile_results import QUIET, replace_dataset  # noqa: E402
from bounded_crd import run_bounded  # noqa: E402

h5py = ci.h5py
ADDRESS_SPACE = 2 << 30  # per process (2 ranks: 4 GiB at most); Open MPI and crd start in far less
TIMEOUT = 120
HUGE_ROWS = 1 << 33  # a hostile (2^33, 20) hash column: 160 GiB declared
# What every refusal of a declared extent says (stored_extent.cpp).
DECLARED = r"declares shape \(\d+, ?\d*\)? ?\(\d+ bytes\) but (stores no data|stores only \d+ (bytes|of its \d+ chunks))"


def run(args, nranks=None):
    """crd (under mpirun -q when nranks is given) with the address-space limit; CompletedProcess."""
    return run_bounded(args, nranks, timeout=TIMEOUT, limit=ADDRESS_SPACE)


def declare_huge(path, group, rows=HUGE_ROWS, how="empty"):
    """Makes every column of `group` (hash, count, length, sample, …) declare `rows` rows.
    how: "empty" (chunked, nothing written), "fill" (chunked with a fill value, nothing written),
    "contiguous" (never allocated), "partial" (the first chunk written, the others not)."""
    with h5py.File(path, "r+") as f:
        for name in list(f[group].keys()):
            ds = f[group][name]
            if not isinstance(ds, h5py.Dataset) or ds.ndim == 0:
                continue
            full = group + "/" + name
            shape = (rows,) + ds.shape[1:]
            dtype = ds.dtype
            chunks = (min(rows, 1 << 16),) + ds.shape[1:]
            if how == "contiguous":
                replace_dataset(f, full, shape=shape, dtype=dtype)
            elif how == "fill":
                fill = b"x" if dtype.kind == "S" else 7
                replace_dataset(f, full, shape=shape, dtype=dtype, chunks=chunks, fillvalue=fill)
            else:
                replace_dataset(f, full, shape=shape, dtype=dtype, chunks=chunks)
                if how == "partial":
                    f[full][0:1] = np.zeros((1,) + ds.shape[1:], dtype=dtype) if dtype.kind != "S" else [b"x"]


class Fixture(hostile_results.ResultFiles):
    """A small corpus, its labels (crd label), a discover --keep-counts result and a run result."""

    def __init__(self):
        super().__init__("round3-hdf5", pages=6, shared=lambda n: 4 + n % 4)

    def make_result(self, out):
        ci.run_crd(["run", self.corpus, "--chunk-threshold", "1", "-o", out] + QUIET)


fixture = hostile_results.OnePerModule(Fixture)


def tearDownModule():
    fixture.cleanup()


class Refusals(unittest.TestCase):
    """Shared assertions: exit 1 (a fatal error) or 2 (a usage error), one stderr line matching a
    pattern, no output left."""

    def assert_refused(self, args, pattern, nranks=None, output=None, code=1):
        proc = run(args, nranks)
        self.assertEqual(proc.returncode, code, "crd %s: %s" % (" ".join(args), proc.stderr[-3000:]))
        lines = proc.stderr.splitlines()
        self.assertEqual(len(lines), 1, proc.stderr[-3000:])
        self.assertRegex(lines[0], pattern)
        if output is not None:
            leftovers = [n for n in os.listdir(os.path.dirname(output)) if n.startswith(os.path.basename(output))]
            self.assertEqual(leftovers, [], "output left behind")
        return lines[0]


class DeclaredShapes(Refusals):
    """Item 4: datasets declaring far more rows than the file stores."""

    @classmethod
    def setUpClass(cls):
        cls.f = fixture()

    def hostile_labels(self, how, rows=HUGE_ROWS):
        path = self.f.copy(self.f.labels, "labels-%s-%d.h5" % (how, rows))
        declare_huge(path, "/labels", rows, how)
        return path

    def test_detect_refuses_labels_declaring_rows_they_do_not_store(self):
        for how in ("empty", "fill", "contiguous", "partial"):
            labels = self.hostile_labels(how)
            for nranks in (1, 2):
                with self.subTest(how=how, nranks=nranks):
                    out = self.f.tmp("detect-%s-%d.h5" % (how, nranks))
                    self.assert_refused(["detect", self.f.corpus, "--labels", labels, "-o", out] + QUIET, DECLARED,
                                        nranks, out)

    def test_check_and_compare_refuse_them(self):
        labels = self.hostile_labels("fill")
        self.assert_refused(["check", "--labels", labels, self.f.pages[0]], DECLARED)
        self.assert_refused(["compare", "--labels", labels, "--chunker", "scan", self.f.pages[0], self.f.pages[1]],
                            DECLARED)

    def test_merge_refuses_count_tables_declaring_rows_they_do_not_store(self):
        for how in ("empty", "contiguous"):
            bad = self.f.copy(self.f.discovered, "counts-%s.h5" % how)
            declare_huge(bad, "/discovery/chunk_counts", 1 << 32, how)
            for nranks in (1, 2):
                with self.subTest(how=how, nranks=nranks):
                    out = self.f.tmp("merged-%s-%d.h5" % (how, nranks))
                    self.assert_refused(["merge", self.f.discovered, bad, "-o", out] + QUIET, DECLARED, nranks, out)

    def test_report_and_inspect_refuse_them(self):
        bad = self.f.copy(self.f.result, "result-empty.h5")
        declare_huge(bad, "/discovery/chunks", HUGE_ROWS, "empty")
        out = self.f.tmp("report.html")
        self.assert_refused(["report", bad, "-o", out], DECLARED, output=out)
        self.assert_refused(["inspect", bad], DECLARED)

    def test_labels_over_the_memory_budget_are_refused_before_they_are_held(self):
        # 2^22 rows of real (all-zero, deflated) hashes: 80 MiB in memory from a file of some
        # hundred KB; --memory 32M cannot hold them.
        path = self.f.copy(self.f.labels, "labels-big.h5")
        rows = 1 << 22
        with h5py.File(path, "r+") as f:
            replace_dataset(f, "/labels/hash", data=np.zeros((rows, 20), dtype=np.uint8), chunks=(1 << 16, 20),
                            compression="gzip", compression_opts=9)
            for name, dtype in (("length", np.uint32), ("count", np.uint64)):
                replace_dataset(f, "/labels/" + name, data=np.full(rows, 5, dtype=dtype), chunks=(1 << 16,),
                                compression="gzip", compression_opts=9)
            for name in ("sample", "sample_url"):
                del f["/labels/" + name]
        for nranks in (1, 2):
            out = self.f.tmp("detect-budget-%d.h5" % nranks)
            self.assert_refused(["detect", self.f.corpus, "--labels", path, "--memory", "32M", "--shuffle-buffer",
                                 "1M", "-o", out] + QUIET, r"over the %d bytes --memory allows" % ((32 << 20) * nranks), nranks, out)


class MergeInputs(Refusals):
    """Item 8: the same file twice, counts of 2^64 - 1, a counters column one short."""

    @classmethod
    def setUpClass(cls):
        cls.f = fixture()

    def test_the_same_file_twice_is_refused_under_any_spelling(self):
        d = self.f.discovered
        link = self.f.tmp("hard.h5")
        if not os.path.exists(link):
            os.link(d, link)
        sym = self.f.tmp("sym.h5")
        if not os.path.exists(sym):
            os.symlink(d, sym)
        os.makedirs(self.f.tmp("x"), exist_ok=True)
        dotted = os.path.join(self.f.tmp("x"), "..", os.path.basename(d))
        for other in (d, link, sym, dotted):
            for nranks in (1, 2):
                with self.subTest(other=other, nranks=nranks):
                    out = self.f.tmp("twice-%d.h5" % nranks)
                    self.assert_refused(["merge", d, other, "-o", out] + QUIET,
                                        r"is the same file as .*merging a result twice would double its counts",
                                        nranks, out, code=2)

    def test_counts_of_2_64_minus_1_saturate(self):
        top = (1 << 64) - 1
        a = self.f.copy(self.f.discovered, "max-a.h5")
        b = self.f.copy(self.f.discovered, "max-b.h5")
        with h5py.File(a, "r+") as f:
            counts = f["/discovery/chunk_counts/count"][...]
            counts[0] = top
            f["/discovery/chunk_counts/count"][...] = counts
            hash0 = f["/discovery/chunk_counts/hash"][0].tobytes()
        for nranks in (1, 2):
            out = self.f.tmp("max-merged-%d.h5" % nranks)
            proc = run(["merge", a, b, "-o", out, "--chunk-threshold", "0"] + QUIET, nranks)
            self.assertEqual(proc.returncode, 0, proc.stderr[-3000:])
            with h5py.File(out, "r") as f:
                hashes = [h.tobytes() for h in f["/discovery/chunk_counts/hash"][...]]
                merged = f["/discovery/chunk_counts/count"][...]
                self.assertEqual(int(merged[hashes.index(hash0)]), top, "the sum wrapped instead of saturating")
                self.assertEqual(int(f["/discovery/chunks"].attrs["total"]), top, "the total wrapped")

    def test_a_counters_column_one_short_is_refused(self):
        bad = self.f.copy(self.f.discovered, "counters-short.h5")
        with h5py.File(bad, "r+") as f:
            values = f["/run/counters/value"][...]
            replace_dataset(f, "/run/counters/value", data=values[:-1])
        for nranks in (1, 2):
            out = self.f.tmp("counters-merged-%d.h5" % nranks)
            self.assert_refused(["merge", self.f.discovered, bad, "-o", out] + QUIET,
                                r"/run/counters/value has \d+ rows but /run/counters/name has \d+", nranks, out)
        self.assert_refused(["inspect", bad], r"/run/counters/value has \d+ rows but /run/counters/name has \d+")
        out = self.f.tmp("counters.html")
        self.assert_refused(["report", bad, "-o", out], r"/run/counters/value has \d+ rows but /run/counters/name has \d+",
                            output=out)


class LabelChunking(Refusals):
    """Item 6: labels chunked one way are refused by a run that chunks another way."""

    MISMATCH = r"labels file .*dom_labels\.h5 was chunked with 'chunker=dom .*' but this run chunks with 'chunker=%s "

    @classmethod
    def setUpClass(cls):
        cls.f = fixture()
        cls.dom = cls.f.tmp("dom_labels.h5")
        ci.run_crd(["label", cls.f.tmp("expert"), "--chunker", "dom", "-o", cls.dom] + QUIET)

    def test_detect_refuses_labels_of_another_chunker(self):
        for nranks in (1, 2):
            out = self.f.tmp("dom-detect-%d.h5" % nranks)
            self.assert_refused(["detect", self.f.corpus, "--labels", self.dom, "-o", out] + QUIET,
                                self.MISMATCH % "scan", nranks, out, code=2)
            # The same labels with the chunker they were made with: used, and pages flagged.
            proc = run(["detect", self.f.corpus, "--labels", self.dom, "--chunker", "dom", "--page-threshold",
                        "0.1", "-o", out] + QUIET, nranks)
            self.assertEqual(proc.returncode, 0, proc.stderr[-3000:])
            with h5py.File(out, "r") as f:
                self.assertGreater(int(f["/detection"].attrs["pages_flagged"]), 0)
            os.remove(out)

    def test_other_tags_are_another_chunking(self):
        out = self.f.tmp("tags-detect.h5")
        self.assert_refused(["detect", self.f.corpus, "--labels", self.dom, "--chunker", "dom", "--tags", "p",
                             "-o", out] + QUIET, r"was chunked with 'chunker=dom tags=p,div .*' but this run chunks "
                            r"with 'chunker=dom tags=p ", 2, out, code=2)

    def test_a_discover_result_as_labels_is_checked_too(self):
        out = self.f.tmp("disc-labels-detect.h5")
        self.assert_refused(["detect", self.f.corpus, "--labels", self.f.discovered, "--chunker", "dom", "-o", out]
                            + QUIET, r"D\.h5 was chunked with 'chunker=scan .*' but this run chunks with 'chunker=dom ",
                            1, out, code=2)

    def test_a_detect_result_as_labels_is_checked_too(self):
        det = self.f.tmp("det-scan.h5")
        proc = run(["detect", self.f.corpus, "--labels", self.f.labels, "-o", det] + QUIET, 2)
        self.assertEqual(proc.returncode, 0, proc.stderr[-3000:])
        with h5py.File(det, "r+") as f:  # only /detection/labels: the labeled set --labels then reads
            for group in ("/discovery", "/labels"):
                if group in f:
                    del f[group]
        out = self.f.tmp("det-labels-detect.h5")
        self.assert_refused(["check", "--labels", det, "--chunker", "dom", self.f.pages[0]],
                            r"det-scan\.h5 was chunked with 'chunker=scan .*' but this run chunks with 'chunker=dom ",
                            code=2)
        proc = run(["check", "--labels", det, self.f.pages[0]])
        self.assertEqual(proc.returncode, 0, proc.stderr)

    def test_check_and_compare_refuse_labels_of_another_chunker(self):
        self.assert_refused(["check", "--labels", self.dom, self.f.pages[0]], self.MISMATCH % "scan", code=2)
        proc = run(["check", "--labels", self.dom, "--chunker", "dom", self.f.pages[0]])
        self.assertEqual(proc.returncode, 0, proc.stderr)
        self.assertRegex(proc.stdout, r"page0\.html: [1-9]\d*/\d+ labeled chunks")
        self.assert_refused(["compare", "--labels", self.dom, self.f.pages[0], self.f.pages[1]],
                            self.MISMATCH % "sentence", code=2)
        proc = run(["compare", "--labels", self.dom, "--chunker", "dom", self.f.pages[0], self.f.pages[1]])
        self.assertEqual(proc.returncode, 0, proc.stderr)


class LabelLength(Refusals):
    """Item 8: a label length of 2^63 (uint64 in a hostile labels file) must not be written as 0."""

    @classmethod
    def setUpClass(cls):
        cls.f = fixture()

    def test_a_length_of_2_63_is_clamped_not_wrapped(self):
        path = self.f.copy(self.f.labels, "labels-long.h5")
        with h5py.File(path, "r+") as f:
            lengths = f["/labels/length"][...].astype(np.uint64)
            lengths[:] = 1 << 63
            replace_dataset(f, "/labels/length", data=lengths)
        for nranks in (1, 2):
            out = self.f.tmp("long-%d.h5" % nranks)
            proc = run(["detect", self.f.corpus, "--labels", path, "-o", out] + QUIET, nranks)
            self.assertEqual(proc.returncode, 0, proc.stderr[-3000:])
            with h5py.File(out, "r") as f:
                written = f["/detection/labels/length"][...]
                self.assertGreater(len(written), 0)
                self.assertTrue((written == np.iinfo(written.dtype).max).all(), written[:5])


if __name__ == "__main__":
    ci.main()
