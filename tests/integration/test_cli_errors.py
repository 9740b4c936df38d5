# CLI failure behaviour: a bad command line or bad input ends with a non-zero status, exactly one
# line on stderr that says what is wrong, and no result file or NAME.tmp-* left behind; help and
# version exit 0. Run both as a singleton and under mpirun -q -np 2 (-q silences mpirun's own
# "process returned a non-zero exit code" banner, so stderr holds only what crd printed).
import os
import unittest

import numpy as np

import crd_integ as ci


class Fixture(unittest.TestCase):
    """Inputs for the failure cases; no tests of its own."""
    maxDiff = None

    @classmethod
    def setUpClass(cls):
        cls.corpus = ci.corpus_package("debian-reference-en")
        cls.tmp = ci.TempDir("cli")
        t = cls.tmp
        with open(t("notes.txt"), "w") as f:
            f.write("not an HDF5 file\n")
        with ci.h5py.File(t("noschema.h5"), "w") as f:  # looks like labels, but no schema_version
            f["labels/hash"] = np.zeros((3, 20), np.uint8)
            f["labels/length"] = np.ones(3, np.uint32)
        with ci.h5py.File(t("nolabels.h5"), "w") as f:
            f.attrs["schema_version"] = np.int64(1)
            f["other"] = np.zeros(3)
        os.makedirs(t("out"))
        os.makedirs(t("out", "a_directory"))
        c, o = cls.corpus, t("out", "o.h5")
        # name: (arguments, words the message must contain)
        cls.cases = {
            "unknown option": (["discover", c, "--no-such-option", "1", "-o", o], ["no-such-option"]),
            "missing input": (["discover", "-o", o], ["input"]),
            "nonexistent input only": (["run", t("does-not-exist"), "-o", o], ["does-not-exist"]),
            "bad option value": (["discover", c, "--chunk-threshold", "many", "-o", o], ["chunk-threshold"]),
            "bad badness": (["run", c, "--badness", "worst", "-o", o], ["badness"]),
            "missing --labels": (["detect", c, "-o", o], ["labels"]),
            "output dir missing": (["discover", c, "-o", t("out", "no-such-dir", "o.h5")], ["o.h5"]),
            "output parent is a file": (["discover", c, "-o", t("notes.txt", "o.h5")], ["o.h5"]),
            "output is a directory": (["discover", c, "-o", t("out", "a_directory")], ["a_directory"]),
            "labels is text": (["detect", c, "--labels", t("notes.txt"), "-o", o], ["notes.txt"]),
            "labels without schema_version": (["detect", c, "--labels", t("noschema.h5"), "-o", o],
                                              ["noschema.h5", "schema"]),
            "labels without labeled set": (["detect", c, "--labels", t("nolabels.h5"), "-o", o], ["nolabels.h5"]),
            "labels missing": (["detect", c, "--labels", t("missing.h5"), "-o", o], ["missing.h5"]),
            "stop list missing": (["discover", c, "--stop-chunks", t("nostop.txt"), "-o", o], ["nostop.txt"]),
            "neardup bad method": (["neardup", c, "--method", "lsh", "-o", o], ["--method", "lsh"]),
            "neardup m not a multiple of m'": (["neardup", c, "--minvalues", "85", "-o", o],
                                              ["--minvalues", "--supershingles"]),
            "neardup bits not a multiple of 64": (["neardup", c, "--simhash-bits", "100", "-o", o],
                                                  ["--simhash-bits"]),
            "neardup pieces wider than 64 bits": (["neardup", c, "--simhash-pieces", "3", "-o", o],
                                                  ["--simhash-pieces"]),
            "neardup more agreements than supershingles": (["neardup", c, "--min-b-similarity", "7", "-o", o],
                                                           ["--min-b-similarity"]),
            "neardup negative bucket cap": (["neardup", c, "--max-bucket", "-5", "-o", o], ["max-bucket"]),
            "neardup does not checkpoint": (["neardup", c, "--work-dir", t("out"), "-o", o], ["--work-dir"]),
        }

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def leftovers(self):
        out = sorted(os.listdir(self.tmp("out")))
        top = sorted(x for x in os.listdir(self.tmp.path) if ".tmp" in x or x.endswith(".h5")
                     and x not in ("noschema.h5", "nolabels.h5"))
        return [x for x in out if x != "a_directory"] + top + os.listdir(self.tmp("out", "a_directory"))

    def check_failure(self, name, args, words, nranks):
        proc = ci.run_crd(args + ["--progress-interval", "0"], nranks=nranks, check=False, timeout=120,
                          mpi_quiet=True)
        lines = proc.stderr.splitlines()
        self.assertNotEqual(proc.returncode, 0, name)
        self.assertEqual(len(lines), 1, "%s: want exactly one stderr line, got:\n%s" % (name, proc.stderr))
        self.assertRegex(lines[0], r"^crd \w+: (error|fatal): ", name)
        for w in words:
            self.assertIn(w, lines[0], name)
        self.assertEqual(self.leftovers(), [], name + ": nothing may be left in the output directory")


class CliErrors(Fixture):
    def test_errors_singleton(self):
        for name, (args, words) in self.cases.items():
            with self.subTest(case=name):
                self.check_failure(name, args, words, None)

    def test_unknown_command(self):
        proc = ci.run_crd(["frobnicate"], check=False)
        self.assertNotEqual(proc.returncode, 0)
        self.assertEqual(len(proc.stderr.splitlines()), 1, proc.stderr)
        self.assertIn("frobnicate", proc.stderr)

    def test_check_and_inspect_errors(self):
        t = self.tmp
        cases = {
            "check without labels": (["check", t("notes.txt")], ["labels"]),
            "check labels text": (["check", "--labels", t("notes.txt"), t("notes.txt")], ["notes.txt"]),
            "check labels no schema": (["check", "--labels", t("noschema.h5"), t("notes.txt")], ["noschema.h5"]),
            "check missing page": (["check", "--labels", t("nolabels.h5"), t("nopage.html")], []),
            "check auto threshold": (["check", "--labels", t("noschema.h5"), "--page-threshold", "auto",
                                      t("notes.txt")], []),
            "inspect text": (["inspect", t("notes.txt")], ["notes.txt"]),
        }
        for name, (args, words) in cases.items():
            with self.subTest(case=name):
                proc = ci.run_crd(args, check=False, timeout=60)
                self.assertNotEqual(proc.returncode, 0, name)
                self.assertEqual(len(proc.stderr.splitlines()), 1, "%s:\n%s" % (name, proc.stderr))
                for w in words:
                    self.assertIn(w, proc.stderr, name)

    def test_help_and_version(self):
        for args in (["--help"], ["--version"], ["discover", "--help"], ["label", "--help"], ["detect", "--help"],
                     ["run", "--help"], ["check", "--help"]):
            with self.subTest(args=args):
                proc = ci.run_crd(args, check=False, timeout=60)
                self.assertEqual(proc.returncode, 0, proc.stderr)
                self.assertTrue(proc.stdout.strip(), "help/version prints to stdout")
        self.assertRegex(ci.run_crd(["--version"]).stdout, r"^crd \d+\.\d+")
        self.assertIn("--chunk-threshold", ci.run_crd(["discover", "--help"]).stdout)



class CliErrorsUnderMpirun(Fixture):
    def test_errors_mpirun_np2_print_one_line(self):
        # Every rank raises a usage error alike; only rank 0 may print it (an earlier version
        # printed it once per rank, after MPI was already finalized).
        for name, (args, words) in self.cases.items():
            with self.subTest(case=name):
                self.check_failure(name, args, words, 2)


if __name__ == "__main__":
    ci.main()
