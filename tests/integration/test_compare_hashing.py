# crd compare-hashing on a corpus with known truth (truth_corpus.py): L = crd label of the
# original site; positives = its six clones (two exact copies, add, delete, modify, mixed), negatives
# = unrelated real documentation. Asserts SHA-1's confusion matrix exactly — zero false positives,
# every page of the exact copies found — checks the LSH rows' consistency, records the LSH figures
# (printed), and requires the same result file at 1 and 3 ranks.
import os
import unittest

import crd_integ as ci
import truth_corpus


class CompareHashing(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = ci.TempDir("compare")
        cls.corpus, original, cls.truth, cls.clones, cls.unrelated = truth_corpus.build(cls.tmp)
        cls.labels = cls.tmp("L.h5")
        ci.run_crd(ci.quiet(["label", original, "-o", cls.labels]), nranks=1)
        cls.out = {}
        cls.stdout = {}
        for n in (1, 3):
            cls.out[n] = cls.tmp("cmp%d.h5" % n)
            r = ci.run_crd(ci.quiet(["compare-hashing", cls.corpus, "--labels", cls.labels, "--truth", cls.truth,
                                     "-o", cls.out[n]]), nranks=n)
            cls.stdout[n] = r.stdout
        print(cls.stdout[1])

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def rows(self, n=1):
        r = ci.open_results(self.out[n])
        rows = r.table(ci.results.CONFUSION).to_dict("records")
        for row in rows:  # numpy scalars as plain numbers
            row.update({k: v.item() for k, v in row.items() if hasattr(v, "item")})
        return rows, r.group_attrs(ci.results.COMPARE_HASHING)

    def test_sha1_has_no_false_positive_and_finds_the_exact_copies(self):
        rows, attrs = self.rows()
        sha1 = [r for r in rows if r["method"] == "sha1"]
        self.assertEqual(len(sha1), 1)
        s = sha1[0]
        self.assertEqual(s["fp"], 0, "exact chunk hashes flag no unrelated page")
        self.assertEqual(s["fpr"], 0.0)
        pages_per_clone = attrs["positives"] // len(self.clones)
        self.assertEqual(attrs["positives"], pages_per_clone * len(self.clones))
        self.assertGreaterEqual(s["tp"], 2 * pages_per_clone, "every page of both exact copies")
        self.assertEqual(s["tp"] + s["fn"], attrs["positives"])
        self.assertEqual(s["tp"] + s["fp"] + s["fn"] + s["tn"], attrs["pages"])
        self.assertEqual(attrs["labels_with_text"], attrs["labels"], "every label's text was found")

    def test_exact_copy_pages_are_the_sha1_true_positives(self):
        # Run crd detect with the same labels: the pages SHA-1 flags in compare-hashing are
        # detect's flagged pages (the same containment and threshold).
        det = self.tmp("detect.h5")
        ci.run_crd(ci.quiet(["detect", self.corpus, "--labels", self.labels, "-o", det]), nranks=1)
        pages = ci.open_results(det).table(ci.results.PAGES)
        urls, flagged = list(pages["url"]), list(pages["flagged"])
        flagged_urls = {u for u, fl in zip(urls, flagged) if fl}
        for host in ("copy1.example", "copy2.example"):
            pages = {u for u in urls if u.startswith(host + "/")}
            self.assertEqual(pages & flagged_urls, pages, host)
        self.assertEqual({u.split("/")[0] for u in flagged_urls} - set(self.clones), set())
        rows, _ = self.rows()
        sha1 = [r for r in rows if r["method"] == "sha1"][0]
        self.assertEqual(sha1["tp"], len(flagged_urls))

    def test_lsh_rows(self):
        rows, attrs = self.rows()
        methods = {r["method"] for r in rows}
        self.assertEqual(methods, {"sha1", "nilsimsa", "tlsh", "ssdeep"})
        primary = {r["method"]: r["threshold"] for r in rows if r["primary"]}
        self.assertEqual(primary, {"sha1": 160.0, "nilsimsa": 115.0, "tlsh": 30.0, "ssdeep": 50.0})
        nil = [r["threshold"] for r in rows if r["method"] == "nilsimsa"]
        self.assertEqual(nil[:29], [float(t) for t in range(128, 99, -1)])
        for r in rows:
            self.assertEqual(r["tp"] + r["fp"] + r["fn"] + r["tn"], attrs["pages"], r)
            self.assertAlmostEqual(r["extrapolated_fp"], r["fpr"] * 2.86e9, delta=1e-6 * max(1, r["extrapolated_fp"]))
        # One page threshold for all rows, and an LSH matches every chunk SHA-1 matches (equal
        # bytes, equal sketches): each LSH row flags a superset of SHA-1's pages, and lowering an
        # LSH threshold never unflags a page.
        sha1 = [r for r in rows if r["method"] == "sha1"][0]
        self.assertEqual({r["page_threshold"] for r in rows}, {sha1["page_threshold"]})
        for m in ("nilsimsa", "ssdeep"):
            sweep = [r for r in rows if r["method"] == m and not (r["primary"] and m == "nilsimsa")]
            for r in sweep:
                self.assertGreaterEqual(r["tp"], sha1["tp"], r)
            for a, b in zip(sweep, sweep[1:]):  # thresholds descending: looser
                self.assertGreaterEqual(b["tp"] + b["fp"], a["tp"] + a["fp"], (a, b))
        self.assertIn("Page detection against L", self.stdout[1])
        self.assertIn("nilsimsa>=115", self.stdout[1])
        self.assertIn("FP at 2.86e+09 pages", self.stdout[1])

    def test_identical_at_1_and_3_ranks(self):
        drop = ("nranks", "created", "command_line", "config")  # -o differs
        a, a_attrs = ci.comparable(self.out[1], drop)
        b, b_attrs = ci.comparable(self.out[3], drop)
        ci.assert_same_datasets(self, a, b, "at np=3")
        self.assertEqual(a_attrs, b_attrs)
        self.assertEqual(self.rows(1), self.rows(3))
        self.assertEqual(self.stdout[1], self.stdout[3])


class CompareHashingErrors(unittest.TestCase):
    """Usage errors: one line on stderr, exit 2, no result file."""

    @classmethod
    def setUpClass(cls):
        cls.tmp = ci.TempDir("compare-errors")
        os.makedirs(cls.tmp("corpus", "a.example"))
        with open(cls.tmp("corpus", "a.example", "p.html"), "w") as f:
            f.write("<p>one paragraph of text</p><p>another paragraph</p>")
        ci.run_crd(ci.quiet(["label", cls.tmp("corpus"), "-o", cls.tmp("L.h5")]), nranks=1)

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def refused(self, truth_text, extra, message):
        truth = self.tmp("truth.txt")
        with open(truth, "w") as f:
            f.write(truth_text)
        out = self.tmp("out.h5")
        r = ci.run_crd(["compare-hashing", self.tmp("corpus"), "--labels", self.tmp("L.h5"), "--truth", truth,
                        "-o", out, "--progress-interval", "0"] + extra, nranks=2, check=False, mpi_quiet=True)
        self.assertEqual(r.returncode, 2, r.stderr)
        self.assertEqual(r.stderr.strip().splitlines(), ["crd compare-hashing: error: " + message])
        self.assertFalse(os.path.exists(out))

    def test_truth_without_prefixes(self):
        self.refused("# only a comment\n\n", [], "truth file '%s' names no positive URL prefix" % self.tmp("truth.txt"))

    def test_missing_truth_file(self):
        r = ci.run_crd(["compare-hashing", self.tmp("corpus"), "--labels", self.tmp("L.h5"), "--truth",
                        self.tmp("nope.txt"), "-o", self.tmp("o.h5"), "--progress-interval", "0"], nranks=2, check=False, mpi_quiet=True)
        self.assertEqual(r.returncode, 2, r.stderr)
        self.assertEqual(r.stderr.strip().splitlines(),
                         ["crd compare-hashing: error: cannot read truth file '%s'" % self.tmp("nope.txt")])

    def test_work_dir_is_refused(self):
        self.refused("a.example\n", ["--work-dir", self.tmp("wd")], "unrecognised option '--work-dir'")

    def test_negative_extrapolation(self):
        self.refused("a.example\n", ["--extrapolate-pages", "-1"], "option --extrapolate-pages: must be a finite number ≥ 0")

    def test_bad_sweep(self):
        self.refused("a.example\n", ["--tlsh-sweep", "10,-5"], "option --tlsh-sweep: -5 is outside 0…100000")


if __name__ == "__main__":
    ci.main()
