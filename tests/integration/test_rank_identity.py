# The same corpus under mpirun -np 1, 2, 3, 4 gives the same result file, for crd discover
# and crd run. Everything is compared except what legitimately depends on the job: root attributes
# nranks and created, /run/timings, and /run/resources (bytes moved by the shuffle and memory used
# depend on how the hashes are spread over ranks). /run/counters must be identical in full.
import os
import unittest

import crd_integ as ci
from crd_integ import results as R

RANKS = (1, 2, 3, 4)
RANK_DEPENDENT_COUNTERS = (b"shuffle.", b"memory.")


def comparable(path):
    datasets, attrs = ci.comparable(path, drop_root=("nranks", "created"))
    names = ci.strings(datasets.pop(R.COUNTERS + "/name"))
    values = datasets.pop(R.COUNTERS + "/value").tolist()
    counters = {n: v for n, v in zip(names, values) if not n.startswith(RANK_DEPENDENT_COUNTERS)}
    rank_dependent = sorted(n for n in names if n.startswith(RANK_DEPENDENT_COUNTERS))
    return datasets, attrs, counters, rank_dependent


class RankIdentity(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        debref = ci.corpus_package("debian-reference-en")
        cls.tmp = ci.TempDir("ranks")
        warcs = ci.sample_archives(cls.tmp)
        cls.inputs = [debref, ci.corpus_package("sphinx-doc")] + warcs
        cls.results = {}
        for command in ("discover", "run"):
            for n in RANKS:
                # Same relative output name in a directory per run: the command line is an attribute.
                cwd = cls.tmp("%s-np%d" % (command, n))
                os.makedirs(cwd)
                ci.run_crd(ci.quiet([command] + cls.inputs + ["-o", "out.h5", "--chunk-threshold", "2",
                                                              "--file-threshold", "1"]), nranks=n, cwd=cwd)
                cls.results[command, n] = comparable(os.path.join(cwd, "out.h5"))

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    maxDiff = None

    def assert_same(self, command):
        base_d, base_a, base_c, base_dep = self.results[command, 1]
        # Guard against comparing empty files: the corpus must produce labels and detections.
        self.assertGreater(len(base_d[R.CHUNKS + "/hash"]), 20)
        self.assertGreater(len(base_d[R.FILES + "/hash"]), 0)
        if command == "run":
            self.assertGreater(len(base_d[R.PAGES + "/url"]), 20)
        self.assertGreater(base_c[b"records"], 0, "the WARC/ARC samples must contribute records")
        self.assertGreater(len(base_d[R.ERRORS + "/file"]), 0, "the damaged samples must report errors")
        for n in RANKS[1:]:
            d, a, c, dep = self.results[command, n]
            with self.subTest(command=command, nranks=n):
                ci.assert_same_datasets(self, d, base_d, msg="at np=%d" % n)
                self.assertEqual(a, base_a, "attributes")
                self.assertEqual(c, base_c, "counters")
                self.assertEqual(dep, base_dep, "the same rank-dependent counter names")

    def test_discover(self):
        self.assert_same("discover")

    def test_run(self):
        self.assert_same("run")

    def test_counters_hold_no_rank_dependent_names(self):
        # Shuffle volume and memory belong in /run/resources, not in the identical /run/counters.
        for n in RANKS:
            _, _, _, dep = self.results["run", n]
            self.assertEqual(dep, [], "rank-dependent names in /run/counters at np=%d" % n)


if __name__ == "__main__":
    ci.main()
