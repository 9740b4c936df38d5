# Malformed --labels files: a labeled set whose columns differ in length, whose
# hashes are not 20 bytes wide, whose columns have the wrong type or rank, or that lacks a column
# is refused before any of it is used — one line on stderr naming the file and the dataset, exit
# status 2 on every rank, and no result file. Before, a short `length` column was read past its end
# and garbage lengths landed in /detection/labels/length.
#
# The files are copies of a real `crd label` result with one thing changed, built with h5py.
import os
import shutil
import sys
import unittest

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "support"))
import crd_integ as ci  # noqa: E402

PAGES = {
    "p1.html": "<html><body><p>shared paragraph one</p><div>page 1 own text</div><p>shared two</p></body></html>",
    "p2.html": "<html><body><p>shared paragraph one</p><div>page 2 own text</div><p>shared two</p></body></html>",
    "p3.html": "<html><body><p>shared paragraph one</p><div>page 3 own text</div></body></html>",
}


def rewrite(src, dst, change):
    """Copies the labels file src to dst and applies change(group) to its /labels group."""
    shutil.copyfile(src, dst)
    with ci.h5py.File(dst, "r+") as f:
        change(f[ci.results.LABELS])


def replace(name, value):
    def change(g):
        del g[name]
        if value is not None:
            g[name] = value
    return change


class MalformedLabels(unittest.TestCase):
    maxDiff = None

    @classmethod
    def setUpClass(cls):
        cls.tmp = ci.TempDir("labels")
        t = cls.tmp
        os.makedirs(t("corpus", "site.example"))
        for name, text in PAGES.items():
            with open(t("corpus", "site.example", name), "w") as f:
                f.write(text)
        cls.corpus = t("corpus")
        cls.page = t("corpus", "site.example", "p1.html")
        cls.good = t("good.h5")
        ci.run_crd(ci.quiet(["label", cls.corpus, "-o", cls.good]), nranks=1)
        stored, _ = ci.read_all(cls.good)
        cls.hash, cls.length, cls.sample = (stored[ci.results.LABELS + "/" + c] for c in ("hash", "length", "sample"))
        n = cls.n = len(cls.length)
        assert n >= 3, n
        g = "/labels/"
        # name: (change to the /labels group, the message after "labels file PATH: ")
        cls.cases = {
            "short_length": (replace("length", cls.length[:-1]),
                             g + "length has %d rows but /labels/hash has %d" % (n - 1, n)),
            "hash_width_19": (replace("hash", cls.hash[:, :19]),
                              g + "hash has shape (%d, 19); expected (n, 20): one 20-byte SHA-1 per row" % n),
            "hash_1d": (replace("hash", cls.hash.reshape(-1)),
                        g + "hash has shape (%d,); expected (n, 20): one 20-byte SHA-1 per row" % (20 * n)),
            "hash_float": (replace("hash", cls.hash.astype(np.float64)), g + "hash holds float64; expected uint8"),
            "hash_uint16": (replace("hash", cls.hash.astype(np.uint16)), g + "hash holds uint16; expected uint8"),
            "length_float": (replace("length", cls.length.astype(np.float32)),
                             g + "length holds float32; expected unsigned integers"),
            "length_signed": (replace("length", cls.length.astype(np.int64)),
                              g + "length holds int64; expected unsigned integers"),
            "length_missing": (replace("length", None),
                               g + "length is missing (a labeled set needs hash and length)"),
            "length_2d": (replace("length", cls.length.reshape(n, 1)),
                          g + "length has shape (%d, 1); expected one value per row" % n),
            "sample_short": (replace("sample", cls.sample[:-2]),
                             g + "sample has %d rows but /labels/hash has %d" % (n - 2, n)),
            "sample_vlen": (replace("sample", np.array([s.decode() for s in cls.sample], dtype=object)),
                            g + "sample holds a type crd does not write (compound, variable-length, …)"
                            "; expected fixed-length strings"),
        }
        for name, (change, _) in cls.cases.items():
            rewrite(cls.good, t(name + ".h5"), change)

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def out_dir(self, name):
        path = self.tmp("out-" + name)
        os.makedirs(path)
        return path

    def test_well_formed_file_is_used_as_written(self):
        for nranks in (1, 2):
            with self.subTest(nranks=nranks):
                out = os.path.join(self.out_dir("good-%d" % nranks), "o.h5")
                ci.run_crd(ci.quiet(["detect", self.corpus, "--labels", self.good, "-o", out]), nranks=nranks)
                used = ci.open_results(out).detection_labels
                got = dict(zip(used["hash"], used["length"]))
                self.assertEqual(got, dict(zip(ci.hexes(self.hash), self.length)))

    def test_malformed_file_is_refused_on_every_rank(self):
        for name, (_, message) in self.cases.items():
            path = self.tmp(name + ".h5")
            expected = "crd detect: error: labels file %s: %s" % (path, message)
            for nranks in (1, 2):
                with self.subTest(case=name, nranks=nranks):
                    out_dir = self.out_dir("%s-%d" % (name, nranks))
                    proc = ci.run_crd(ci.quiet(["detect", self.corpus, "--labels", path,
                                                "-o", os.path.join(out_dir, "o.h5")]),
                                      nranks=nranks, check=False, timeout=120, mpi_quiet=True)
                    self.assertEqual(proc.returncode, 2, proc.stderr)
                    self.assertEqual(proc.stderr.splitlines(), [expected])
                    self.assertEqual(os.listdir(out_dir), [], "no result or temporary may be left")

    def test_check_refuses_malformed_files_too(self):
        for name, (_, message) in self.cases.items():
            path = self.tmp(name + ".h5")
            with self.subTest(case=name):
                proc = ci.run_crd(["check", "--labels", path, self.page], check=False, timeout=60)
                self.assertEqual(proc.returncode, 2, proc.stderr)
                self.assertEqual(proc.stderr.splitlines(), ["crd check: error: labels file %s: %s" % (path, message)])


if __name__ == "__main__":
    ci.main()
