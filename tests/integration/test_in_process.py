# A whole crd discover, then a whole crd detect against its labels, run in one process on
# 1, 2, 3 and 4 thread ranks (comm::run_local through in_process_crd; ResultFile gathers to rank 0
# and writes with serial HDF5) give the same results as `mpirun -np 2 crd` (parallel HDF5) on the
# same inputs. Every dataset and attribute is compared, /run/counters and /run/errors included;
# only what describes the particular job is left out: the root attributes nranks and created,
# /run/timings and /run/resources (crd_integ.comparable, as in test_rank_identity.py).
#
#   test_in_process.py IN_PROCESS_CRD [unittest args]
import os
import subprocess
import sys
import unittest

import crd_integ as ci
from crd_integ import results as R

IN_PROCESS_CRD = sys.argv.pop(1) if len(sys.argv) > 1 and not sys.argv[1].startswith("-") else None
THREAD_RANKS = (1, 2, 3, 4)
MPI_RANKS = 2
DISCOVER_OPTIONS = ["--chunk-threshold", "2", "--file-threshold", "1"]


def inputs(tmp):
    """The whole documentation corpus (many shared chunks: Sphinx themes, Debian boilerplate), and
    the project's sample archives (damaged ones too, so /run/errors has rows)."""
    return [ci.corpus_dir()] + ci.sample_archives(tmp)


def jobs(files):
    """(name, arguments) of the two jobs, in order; outputs are relative to the job's directory."""
    return [("discover", ["discover"] + files + DISCOVER_OPTIONS + ["-o", "discover.h5"]),
            ("detect", ["detect"] + files + ["--labels", "discover.h5", "-o", "detect.h5"])]


def run_in_process(nranks, args, cwd):
    cmd = [IN_PROCESS_CRD, str(nranks)] + ci.quiet(args)
    proc = subprocess.run(cmd, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=300)
    if proc.returncode != 0:
        raise AssertionError("in-process crd failed (%d): %s\n%s" %
                             (proc.returncode, " ".join(cmd), proc.stderr.decode("utf-8", "replace")[-4000:]))


def comparable(path):
    return ci.comparable(path, drop_root=("nranks", "created"))


class InProcessEqualsMpirun(unittest.TestCase):
    maxDiff = None

    @classmethod
    def setUpClass(cls):
        if not IN_PROCESS_CRD or not os.access(IN_PROCESS_CRD, os.X_OK):
            ci.skip("in_process_crd not given (run through ctest)")
        cls.tmp = ci.TempDir("in-process")
        files = inputs(cls.tmp)
        cls.results = {}  # (job, "mpi" or thread ranks) -> (datasets, attrs)
        cls.nranks = {}
        for where in ["mpi"] + list(THREAD_RANKS):
            # Same relative output names in a directory per run: the command line is an attribute.
            cwd = cls.tmp(str(where))
            os.makedirs(cwd)
            for name, args in jobs(files):
                if where == "mpi":
                    ci.run_crd(ci.quiet(args), nranks=MPI_RANKS, cwd=cwd)
                else:
                    run_in_process(where, args, cwd)
                path = os.path.join(cwd, name + ".h5")
                cls.results[name, where] = comparable(path)
                cls.nranks[name, where] = ci.open_results(path).group_attrs("/")["nranks"]
            # Committed results only: no temporary is left beside them.
            assert sorted(os.listdir(cwd)) == ["detect.h5", "discover.h5"], os.listdir(cwd)

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def assert_same(self, name):
        base_d, base_a = self.results[name, "mpi"]
        self.assertEqual(self.nranks[name, "mpi"], MPI_RANKS)
        for n in THREAD_RANKS:
            d, a = self.results[name, n]
            with self.subTest(job=name, thread_ranks=n):
                self.assertEqual(self.nranks[name, n], n)
                ci.assert_same_datasets(self, d, base_d, msg="on %d thread ranks" % n)
                self.assertEqual(a, base_a, "attributes on %d thread ranks" % n)

    def test_discover(self):
        d, _ = self.results["discover", "mpi"]
        # Guard against comparing empty results: the inputs must hold duplicates.
        self.assertGreater(len(d[R.CHUNKS + "/hash"]), 20)
        self.assertGreater(len(d[R.FILES + "/hash"]), 0)
        self.assert_same("discover")

    def test_detect(self):
        d, _ = self.results["detect", "mpi"]
        self.assertGreater(len(d[R.PAGES + "/url"]), 20)
        self.assertGreater(int(d[R.PAGES + "/labeled"].sum()), 0, "pages must contain labeled chunks")
        self.assertGreater(len(d[R.NEIGHBORHOODS + "/prefix"]), 0)
        self.assert_same("detect")


if __name__ == "__main__":
    ci.main()
