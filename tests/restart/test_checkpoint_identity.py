# A checkpoint carries whose it is — the job's fingerprint (inputs, the options
# that change results, the rank count) and its rank. Rank files swapped, another job's file (other
# inputs, another result-changing option, another rank count) put under this job's name, or a
# truncated or damaged file: --resume redoes that phase with one warning line per file and writes
# exactly what an uninterrupted run writes. Before the fix, swapped discover checkpoints ended in
# free(): invalid pointer (SIGABRT) and the others resumed with exit 0 and different datasets.
# Run at 1 rank (no mpirun) and 2 ranks; the corpus is generated, so nothing outside the
# repository is needed.
import os
import shutil
import sys
import time
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "support"))
import crd_integ as ci  # noqa: E402

PHASES = ("scan", "discover", "detect")
OPTIONS = ["--chunk-threshold", "1", "--keep-counts"]


def write_corpus(root, extra_page=False):
    """Two sites whose pages share some paragraphs, so that discovery labels chunks and detection
    flags pages; extra_page adds one page (another job's inputs)."""
    shared = ["<p>shared paragraph %d about content reuse</p>" % i for i in range(6)]
    for site in ("alpha.example", "beta.example"):
        for n in range(12):
            own = "".join("<p>%s page %d own paragraph %d</p>" % (site, n, k) for k in range(3))
            reused = "".join(shared[(n + k) % len(shared)] for k in range(n % 4))
            path = os.path.join(root, site, "d%d" % (n % 3), "p%02d.html" % n)
            os.makedirs(os.path.dirname(path), exist_ok=True)
            with open(path, "w") as f:
                f.write("<html><body><div>%s%s</div></body></html>" % (own, reused))
    if extra_page:
        with open(os.path.join(root, "alpha.example", "extra.html"), "w") as f:
            f.write("<html><body>%s</body></html>" % "".join(shared))


def run(args, nranks, fault=None, timeout=120):
    """crd at nranks (1: without mpirun), unchecked: (rc, stderr)."""
    proc = ci.run_crd(ci.quiet(args), nranks=None if nranks == 1 else nranks, check=False, timeout=timeout,
                      mpi_quiet=True, env={"CRD_FAULT": fault or None})
    return proc.returncode, proc.stderr


def comparable(path):
    return ci.comparable(path, drop_root=("created", "command_line", "config"))


class CheckpointIdentity(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = ci.TempDir("ckpt-identity")
        cls.corpus = cls.tmp("corpus")
        write_corpus(cls.corpus)
        cls.other_corpus = cls.tmp("other-corpus")
        write_corpus(cls.other_corpus, extra_page=True)
        cls.reference = {}
        for nranks in (1, 2):
            out = cls.tmp("reference-%d.h5" % nranks)
            rc, err = run(["run", cls.corpus] + OPTIONS + ["-o", out], nranks)
            assert rc == 0, err
            cls.reference[nranks] = comparable(out)

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def killed(self, name, nranks, corpus=None, options=None):
        """A run killed after every rank saved all three phases: (args, out, job dir, {(rank, phase): path})."""
        out_dir = self.tmp(name)
        os.makedirs(out_dir)
        out = os.path.join(out_dir, "out.h5")
        work = self.tmp(name + "-work")
        args = ["run", corpus or self.corpus] + (options or OPTIONS) + ["-o", out, "--work-dir", work]
        rc, err = run(args, nranks, fault="0:after_detect")
        self.assertNotEqual(rc, 0, "the killed job must fail")
        (job,) = os.listdir(work)
        files = {}
        for rank in range(nranks):
            for phase in PHASES:
                path = os.path.join(work, job, "rank-%d-of-%d.%s.ckpt" % (rank, nranks, phase))
                self.assertTrue(os.path.exists(path), path)
                files[(rank, phase)] = path
        return args, out, os.path.join(work, job), files

    def resume_with_warnings(self, args, out, nranks, expected):
        """--resume exits 0 with exactly the `expected` warnings {(rank, path, why, phase)} and the
        uninterrupted run's result."""
        start = time.monotonic()
        rc, err = run(args + ["--resume"], nranks)
        self.assertEqual(rc, 0, err)
        self.assertLess(time.monotonic() - start, 100)
        warnings = ["crd: warning: rank %d: checkpoint %s %s; redoing phase %s" % w for w in expected]
        self.assertEqual(sorted(err.splitlines()), sorted(warnings))
        datasets, attrs = comparable(out)
        ref_datasets, ref_attrs = self.reference[nranks]
        ci.assert_same_datasets(self, datasets, ref_datasets, msg="after resume at %d ranks" % nranks)
        self.assertEqual(attrs, ref_attrs)

    def test_swapped_rank_files_are_redone(self):
        args, out, _, files = self.killed("swapped", 2)
        for phase in PHASES:
            a, b = files[(0, phase)], files[(1, phase)]
            os.rename(a, a + ".x")
            os.rename(b, a)
            os.rename(a + ".x", b)
        self.resume_with_warnings(args, out, 2, [
            (rank, files[(rank, phase)], "belongs to rank %d of 2, not rank %d of 2" % (1 - rank, rank), phase)
            for rank in (0, 1) for phase in PHASES])

    def another_jobs_files_are_redone(self, name, nranks, other_nranks, other_corpus=None, other_options=None):
        _, _, other_dir, other_files = self.killed(name + "-other", other_nranks, other_corpus, other_options)
        args, out, job_dir, files = self.killed(name, nranks)
        for rank in range(nranks):
            for phase in PHASES:
                shutil.copyfile(other_files[(rank % other_nranks, phase)], files[(rank, phase)])
        why = "belongs to another job (fingerprint %s, this job's is %s)" % (
            os.path.basename(other_dir), os.path.basename(job_dir))
        self.resume_with_warnings(args, out, nranks,
                                  [(rank, files[(rank, phase)], why, phase) for rank in range(nranks) for phase in PHASES])

    def test_another_jobs_files_are_redone(self):
        for nranks in (1, 2):
            with self.subTest(nranks=nranks, other="inputs"):
                self.another_jobs_files_are_redone("inputs-%d" % nranks, nranks, nranks, other_corpus=self.other_corpus)
            with self.subTest(nranks=nranks, other="option"):
                self.another_jobs_files_are_redone("option-%d" % nranks, nranks, nranks,
                                                   other_options=["--chunk-threshold", "2", "--keep-counts"])
            with self.subTest(nranks=nranks, other="rank count"):
                self.another_jobs_files_are_redone("ranks-%d" % nranks, nranks, 3 - nranks)

    def test_truncated_and_damaged_files_are_redone(self):
        for nranks in (1, 2):
            with self.subTest(nranks=nranks):
                args, out, _, files = self.killed("damaged-%d" % nranks, nranks)
                expected = []
                last = nranks - 1
                for phase in PHASES:
                    path = files[(last, phase)]
                    size = os.path.getsize(path)
                    os.truncate(path, size // 2)
                    expected.append((last, path, "is truncated or damaged at its end (%d bytes, no end marker)" %
                                     (size // 2), phase))
                if nranks == 2:
                    path = files[(0, "discover")]
                    with open(path, "r+b") as f:
                        f.seek(60)  # inside the owner or the payload: either way the CRC fails
                        byte = f.read(1)
                        f.seek(60)
                        f.write(bytes([byte[0] ^ 0x04]))
                    expected.append((0, path, "fails its CRC-32 check (the file is damaged)", "discover"))
                self.resume_with_warnings(args, out, nranks, expected)

    def test_a_run_only_option_keeps_the_checkpoints(self):
        # --reader-thread, --memory, --shuffle-buffer change how the job runs, not its result:
        # resuming with others finds the same checkpoints. A fault planted in the scan proves it:
        # the resumed job never scans (--reader-thread was missing from the list: a job resumed
        # with it scanned everything again).
        for nranks in (1, 2):
            with self.subTest(nranks=nranks):
                args, out, _, _ = self.killed("run-only-%d" % nranks, nranks)
                rc, err = run(args + ["--resume", "--reader-thread", "off", "--memory", "4G",
                                      "--shuffle-buffer", "1M"], nranks, fault="0:scan")
                self.assertEqual(rc, 0, err)
                self.assertEqual(err, "")
                datasets, _ = comparable(out)
                ci.assert_same_datasets(self, datasets, self.reference[nranks][0])


if __name__ == "__main__":
    ci.main()
