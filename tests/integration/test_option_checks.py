# Every refused combination of options is refused before any input is read or the output opened:
# the inputs, labels and truth named here do not exist, so the option's own message (not a missing
# file's) proves that nothing was opened, and no result file (or NAME.tmp-*) may appear.
import glob
import os
import unittest

import crd_integ as ci

PREFIX = "--boundary-match prefix needs --chunker scan"
BINOMIAL_HOOD = "option --neighborhood-threshold: binomial is a page rule"


class OptionChecks(unittest.TestCase):
    maxDiff = None

    @classmethod
    def setUpClass(cls):
        cls.tmp = ci.TempDir("option-checks")

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def refused(self, args, message, nranks=None):
        out = self.tmp("o.h5")
        proc = ci.run_crd(args + ["-o", out], nranks=nranks, check=False, timeout=120, mpi_quiet=True)
        self.assertEqual(proc.returncode, 2, proc.stderr)
        lines = proc.stderr.splitlines()
        self.assertEqual(len(lines), 1, proc.stderr)
        self.assertIn(message, lines[0])
        self.assertNotIn("missing", lines[0])
        self.assertEqual(glob.glob(out + "*"), [], "an output file was created")

    def test_boundary_prefix_with_another_chunker(self):
        t = self.tmp
        corpus, labels = t("no-corpus"), t("no-labels.h5")
        for chunker, why in (("dom", "dom splits at whole elements"), ("winnow", "winnow has no boundaries")):
            cases = {
                "discover": ["discover", corpus],
                "label": ["label", corpus],
                "detect": ["detect", corpus, "--labels", labels],
                "run": ["run", corpus],
                "compare-hashing": ["compare-hashing", corpus, "--labels", labels, "--truth", t("no-truth.txt")],
            }
            for name, args in cases.items():
                with self.subTest(command=name, chunker=chunker):
                    self.refused(args + ["--chunker", chunker, "--boundary-match", "prefix"], PREFIX + " (" + why + ")")

    def test_boundary_prefix_in_local_commands(self):
        t = self.tmp
        for name, args in {"check": ["check", "--labels", t("no-labels.h5"), t("no-page.html")],
                           "compare": ["compare", t("no-document.html")]}.items():
            with self.subTest(command=name):
                proc = ci.run_crd(args + ["--chunker", "dom", "--boundary-match", "prefix"], check=False, timeout=60)
                self.assertEqual(proc.returncode, 2, proc.stderr)
                self.assertIn(PREFIX, proc.stderr)

    def test_binomial_neighborhood_threshold(self):
        t = self.tmp
        for rule in ("binomial", "binomial:0.1"):
            with self.subTest(command="detect", rule=rule):
                self.refused(["detect", t("no-corpus"), "--labels", t("no-labels.h5"), "--neighborhood-threshold", rule],
                             BINOMIAL_HOOD)
            with self.subTest(command="run", rule=rule):
                self.refused(["run", t("no-corpus"), "--neighborhood-threshold", rule], BINOMIAL_HOOD)
        with self.subTest(ranks=2):
            self.refused(["run", t("no-corpus"), "--neighborhood-threshold", "binomial"], BINOMIAL_HOOD, nranks=2)

    def test_resume_needs_work_dir(self):
        self.refused(["discover", self.tmp("no-corpus"), "--resume"], "--resume needs --work-dir")

    def test_check_needs_a_fixed_page_threshold(self):
        proc = ci.run_crd(["check", "--labels", self.tmp("no-labels.h5"), "--page-threshold", "auto",
                           self.tmp("no-page.html")], check=False, timeout=60)
        self.assertEqual(proc.returncode, 2, proc.stderr)
        self.assertIn("check scores single pages", proc.stderr)


if __name__ == "__main__":
    ci.main()
