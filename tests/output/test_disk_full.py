# A full or unwritable disk: every write error is an agreed failure — one line
# on stderr, exit status 1 on every rank, no hang, no temporary or half-written file left, no crash
# in MPI_Finalize. Before, `mpirun -np 2 crd run … -o FULL/z.h5` left both ranks spinning (one in
# H5Fclose's barrier, one in MPI_Exscan) and at 1 rank MPI_Finalize segfaulted (exit 139).
#
# The full disks are small tmpfs mounts made by the test (root only; skipped otherwise). Every run
# has a timeout, so a regression fails instead of hanging.
import os
import re
import sys
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "support"))
import crd_integ as ci  # noqa: E402

TIMEOUT = 120
NO_SPACE = ci.NO_SPACE


class DiskFull(unittest.TestCase):
    maxDiff = None

    @classmethod
    def setUpClass(cls):
        ci.require_tmpfs()
        # A corpus whose result (about 2.5 MB with every chunk labeled) cannot fit in 2 MB.
        cls.inputs = [ci.corpus_package("sphinx-doc"), "--chunk-threshold", "0"]
        cls.tmp = ci.TempDir("full")

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def mount(self, size, read_only=False):
        return ci.mount_tmpfs(self, size, read_only)

    def fails_with_one_line(self, args, nranks, pattern):
        return ci.assert_fails_with_one_line(self, ci.quiet(args), nranks, pattern, TIMEOUT)

    def test_result_that_fills_the_disk_partway(self):
        for nranks in (1, 2):
            with self.subTest(nranks=nranks):
                fs = self.mount("2m")
                out = fs("z.h5")
                self.fails_with_one_line(["run"] + self.inputs + ["-o", out], nranks,
                                         "^crd run: fatal: cannot write result file %s: rank [0-9]+: writing /[^ ]+: %s$"
                                         % (re.escape(out), NO_SPACE))
                self.assertEqual(fs.entries(), [], "no result and no temporary may remain")

    def test_room_for_the_file_but_not_its_data(self):
        for nranks in (1, 2):
            for left in (64 * 1024, 0):
                with self.subTest(nranks=nranks, left=left):
                    fs = self.mount("2m")
                    fs.fill(left)
                    out = fs("z.h5")
                    self.fails_with_one_line(["run"] + self.inputs + ["-o", out], nranks,
                                             "^crd run: fatal: cannot create result file %s: rank 0: .*%s$"
                                             % (re.escape(out), NO_SPACE))
                    self.assertEqual(fs.entries(), ["filler"])

    def test_full_work_dir(self):
        for nranks in (1, 2):
            with self.subTest(nranks=nranks):
                fs = self.mount("1m")
                out_dir = self.tmp("work-full-%d" % nranks)
                os.makedirs(out_dir)
                self.fails_with_one_line(["run"] + self.inputs + ["-o", os.path.join(out_dir, "z.h5"),
                                                                  "--work-dir", fs("w")], nranks,
                                         "^crd run: fatal: rank [0-9]+: cannot save checkpoint: cannot write "
                                         "%s/[0-9a-f]{16}/rank-[0-9]+-of-%d\\.scan\\.ckpt\\.partial: %s$"
                                         % (re.escape(fs("w")), nranks, NO_SPACE))
                self.assertEqual(os.listdir(out_dir), [], "no result and no temporary may remain")
                partial = [f for _, _, files in os.walk(fs.path) for f in files if f.endswith(".partial")]
                self.assertEqual(partial, [], "a failed checkpoint leaves no partial file")

    def test_unwritable_work_dir(self):
        for nranks in (1, 2):
            with self.subTest(nranks=nranks):
                fs = self.mount("1m", read_only=True)
                out_dir = self.tmp("work-ro-%d" % nranks)
                os.makedirs(out_dir)
                self.fails_with_one_line(["run"] + self.inputs + ["-o", os.path.join(out_dir, "z.h5"),
                                                                  "--work-dir", fs("w")], nranks,
                                         "^crd run: fatal: cannot create work directory %s/[0-9a-f]{16}: "
                                         "rank 0: Read-only file system$" % re.escape(fs("w")))
                self.assertEqual(os.listdir(out_dir), [])


if __name__ == "__main__":
    ci.main()
