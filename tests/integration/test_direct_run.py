# Fixed costs: crd run directly, without an MPI launcher, or as a one-process launch
# (`mpirun -np 1`), skips MPI_Init and runs the one-rank job in process (comm::JobTransport). It must be the same job as before: the same result
# (every dataset and attribute but what describes the particular job), the same stdout and stderr
# lines, and MPI must really not start. CRD_MPI=1 (the documented escape hatch) gives the old
# singleton; a launcher's variables (PMIX_RANK…) are left to test_cli_errors' mpirun runs.
import os
import re
import unittest

import crd_integ as ci

# MPI_Init fails with an unknown PML, so a run that succeeds with it set did not start MPI.
NO_MPI = {"OMPI_MCA_pml": "no_such_pml"}
DISCOVER = ["discover", "--chunk-threshold", "2", "--file-threshold", "1", "--progress-interval", "0"]
STAMP = re.compile(r"\d+(\.\d+)?")  # timings and rates in the phases lines differ run to run


def comparable(path):
    return ci.comparable(path, drop_root=("created",))


class DirectRun(unittest.TestCase):
    maxDiff = None

    @classmethod
    def setUpClass(cls):
        cls.tmp = ci.TempDir("direct-run")
        cls.corpus = ci.corpus_dir()
        cls.runs = {}
        # Each run in its own directory with the same relative -o, so the command lines match too.
        for name, env, nranks in (("direct", NO_MPI, None), ("singleton", {"CRD_MPI": "1"}, None),
                                  ("mpirun_np1", NO_MPI, 1)):
            os.mkdir(cls.tmp(name))
            proc = ci.run_crd(DISCOVER + [cls.corpus, "-o", "out.h5"], env=env, cwd=cls.tmp(name), nranks=nranks)
            cls.runs[name] = (proc, comparable(cls.tmp(name, "out.h5")))

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def test_same_result_as_the_mpi_singleton(self):
        (d_data, d_attrs), (s_data, s_attrs) = self.runs["direct"][1], self.runs["singleton"][1]
        ci.assert_same_datasets(self, d_data, s_data, "direct against CRD_MPI=1")
        self.assertEqual(d_attrs, s_attrs)
        self.assertGreater(len(d_data["/discovery/chunks/hash"]), 0)

    def test_mpirun_np1_is_the_same_job_without_mpi(self):
        # It ran with the unknown PML set, so it did not start MPI either.
        (d_data, d_attrs), (m_data, m_attrs) = self.runs["direct"][1], self.runs["mpirun_np1"][1]
        ci.assert_same_datasets(self, d_data, m_data, "direct against mpirun -np 1")
        self.assertEqual(d_attrs, m_attrs)

    def test_same_output_lines(self):
        direct, singleton = self.runs["direct"][0], self.runs["singleton"][0]
        self.assertEqual(STAMP.sub("N", direct.stdout), STAMP.sub("N", singleton.stdout))
        self.assertEqual(STAMP.sub("N", direct.stderr), STAMP.sub("N", singleton.stderr))

    def test_mpi_is_not_started(self):
        # The escape hatch does start MPI, so the unknown PML makes it fail: the check can fail.
        forced = ci.run_crd(DISCOVER + [self.corpus, "-o", self.tmp("forced.h5")], check=False,
                            env=dict(NO_MPI, CRD_MPI="1"))
        self.assertNotEqual(forced.returncode, 0, forced.stderr)
        self.assertFalse(os.path.exists(self.tmp("forced.h5")))


if __name__ == "__main__":
    ci.main()
