# A job killed at any point (one rank, or the whole job) and restarted with --resume
# continues from the last completed phase and writes the same result, dataset by dataset, as an
# uninterrupted run; one rank's failure ends every rank promptly with a message naming it.
# Faults are injected with CRD_FAULT="RANK:POINT[:throw]" (src/pipeline/checkpoint/checkpoint.cpp).
import os
import sys
import time
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "support"))
import crd_integ as ci  # noqa: E402

NRANKS = 3
POINTS = ("scan", "after_scan", "after_discover", "after_detect")


def run(args, nranks, fault=None, timeout=300):
    """crd under mpirun -q, unchecked, with CRD_FAULT set to fault (or removed): (rc, stderr, seconds)."""
    start = time.monotonic()
    proc = ci.run_crd(ci.quiet(args), nranks=nranks, check=False, timeout=timeout, mpi_quiet=True,
                      env={"CRD_FAULT": fault or None})
    return proc.returncode, proc.stderr, time.monotonic() - start


def comparable(path):
    return ci.comparable(path, drop_root=("created", "command_line", "config"))


class Restart(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = ci.TempDir("restart")
        warcs = ci.sample_archives(cls.tmp, include_arc=False)
        cls.inputs = [ci.corpus_package("sphinx-doc")] + warcs
        # --keep-counts: the count rows travel in the discover checkpoint too (format 5).
        cls.options = ["--chunk-threshold", "5", "--keep-counts"]
        cls.reference = {}
        for command in ("run", "discover"):
            out = cls.tmp("reference-%s.h5" % command)
            rc, err, _ = run([command] + cls.inputs + cls.options + ["-o", out], NRANKS)
            assert rc == 0, err
            cls.reference[command] = comparable(out)

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def assert_same_as_reference(self, command, path):
        datasets, attrs = comparable(path)
        ref_datasets, ref_attrs = self.reference[command]
        ci.assert_same_datasets(self, datasets, ref_datasets, msg="after resume")
        self.assertEqual(attrs, ref_attrs)

    def assert_nothing_left(self, directory):
        left = [f for f in os.listdir(directory) if f.startswith(".") or f.endswith(".h5")]
        self.assertEqual(left, [], "a failed job left a result or temporary behind")

    def assert_no_result(self, directory):
        # A job killed outright (SIGKILL may reach every rank before any can clean up) can leave
        # its hidden temporary, never a file under the result's name; the next run of that output
        # removes the temporary (checked after the resume).
        self.assertEqual([f for f in os.listdir(directory) if f.endswith(".h5")], [],
                         "a killed job left a half-written result")

    def kill_and_resume(self, command, point, rank, nranks=NRANKS):
        name = "%s-%s-%d" % (command, point, rank)
        out_dir = self.tmp(name)
        os.makedirs(out_dir)
        out = os.path.join(out_dir, "out.h5")
        work = self.tmp(name + "-work")
        args = [command] + self.inputs + self.options + ["-o", out, "--work-dir", work]
        rc, err, _ = run(args, nranks, fault="%d:%s" % (rank, point))
        self.assertNotEqual(rc, 0, "the killed job must fail")
        self.assert_no_result(out_dir)
        self.assertTrue(os.listdir(work), "checkpoints were written before the kill")
        rc, err, _ = run(args + ["--resume"], nranks)
        self.assertEqual(rc, 0, err)
        self.assert_same_as_reference(command, out)
        self.assertEqual([f for f in os.listdir(out_dir) if f.startswith(".")], [],
                         "the resumed run removes the killed run's temporary")
        leftovers = [f for _, _, files in os.walk(work) for f in files]
        self.assertEqual(leftovers, [], "checkpoints are removed after a committed result")

    def test_run_killed_at_each_phase(self):
        for point in POINTS:
            with self.subTest(point=point):
                self.kill_and_resume("run", point, rank=1)

    def test_discover_killed_mid_scan_on_last_rank(self):
        self.kill_and_resume("discover", "scan", rank=NRANKS - 1)

    def test_resume_with_other_options_ignores_checkpoints(self):
        out_dir = self.tmp("other-options")
        os.makedirs(out_dir)
        out = os.path.join(out_dir, "out.h5")
        work = self.tmp("other-options-work")
        base = ["run"] + self.inputs + ["-o", out, "--work-dir", work]
        rc, _, _ = run(base + ["--chunk-threshold", "2"], NRANKS, fault="0:after_discover")
        self.assertNotEqual(rc, 0)
        rc, err, _ = run(base + self.options + ["--resume"], NRANKS)
        self.assertEqual(rc, 0, err)
        self.assert_same_as_reference("run", out)

    def test_one_rank_failing_ends_every_rank_promptly(self):
        out_dir = self.tmp("throw")
        os.makedirs(out_dir)
        out = os.path.join(out_dir, "out.h5")
        rc, err, seconds = run(["run"] + self.inputs + self.options + ["-o", out], NRANKS,
                               fault="2:after_scan:throw", timeout=120)
        self.assertNotEqual(rc, 0)
        self.assertIn("crd: rank 2: injected fault at after_scan", err)
        self.assertLess(seconds, 60, "the other ranks must not wait in a collective")
        self.assert_nothing_left(out_dir)

    def test_a_new_run_removes_temporaries_of_killed_runs(self):
        out_dir = self.tmp("stale")
        os.makedirs(out_dir)
        stale = os.path.join(out_dir, ".out.h5.tmp-0123456789abcdef")
        other = os.path.join(out_dir, ".other.h5.tmp-0123456789abcdef")
        for path in (stale, other):
            with open(path, "wb") as f:
                f.write(b"left by a job killed with SIGKILL")
        rc, err, _ = run(["discover"] + self.inputs + self.options + ["-o", os.path.join(out_dir, "out.h5")], 2)
        self.assertEqual(rc, 0, err)
        self.assertFalse(os.path.exists(stale))
        self.assertTrue(os.path.exists(other), "only temporaries of the same output are removed")
        self.assertTrue(os.path.exists(os.path.join(out_dir, "out.h5")))

    def killed_with_checkpoints(self, name):
        """A run killed after every rank saved all three phases: (args, out, {(rank, phase): path})."""
        out_dir = self.tmp(name)
        os.makedirs(out_dir)
        out = os.path.join(out_dir, "out.h5")
        work = self.tmp(name + "-work")
        args = ["run"] + self.inputs + self.options + ["-o", out, "--work-dir", work]
        rc, err, _ = run(args, NRANKS, fault="1:after_detect")
        self.assertNotEqual(rc, 0, "the killed job must fail")
        (job,) = os.listdir(work)
        files = {}
        for rank in range(NRANKS):
            for phase in ("scan", "discover", "detect"):
                path = os.path.join(work, job, "rank-%d-of-%d.%s.ckpt" % (rank, NRANKS, phase))
                self.assertTrue(os.path.exists(path), path)
                files[(rank, phase)] = path
        return args, out, files

    def resume_with_warnings(self, args, out, expected_warnings):
        rc, err, _ = run(args + ["--resume"], NRANKS)
        self.assertEqual(rc, 0, err)
        self.assertEqual(sorted(err.splitlines()), sorted(expected_warnings))
        self.assert_same_as_reference("run", out)

    @staticmethod
    def warning(rank, path, why, phase):
        return "crd: warning: rank %d: checkpoint %s %s; redoing phase %s" % (rank, path, why, phase)

    def test_damaged_checkpoints_are_redone_with_a_warning(self):
        # One flipped byte in a checkpoint gave a wrong URL after --resume.
        args, out, files = self.killed_with_checkpoints("damaged")
        scan = files[(1, "scan")]
        with open(scan, "rb") as f:
            data = bytearray(f.read())
        at = data.find(b".html")
        self.assertGreater(at, 0, "the scan checkpoint holds page URLs")
        data[at + 2] ^= 0x01  # ".html" -> ".hueml"-like: a different URL, same length
        with open(scan, "wb") as f:
            f.write(data)
        discover = files[(2, "discover")]
        with open(discover, "r+b") as f:
            f.seek(os.path.getsize(discover) // 2)
            byte = f.read(1)
            f.seek(-1, os.SEEK_CUR)
            f.write(bytes([byte[0] ^ 0x80]))
        detect = files[(0, "detect")]
        size = os.path.getsize(detect)
        os.truncate(detect, size - 100)
        damaged = "fails its CRC-32 check (the file is damaged)"
        self.resume_with_warnings(args, out, [
            self.warning(1, scan, damaged, "scan"),  # the scan needs no other rank: only rank 1 redoes it
            self.warning(2, discover, damaged, "discover"),  # every rank redoes discover and detect
            self.warning(0, detect, "is truncated or damaged at its end (%d bytes, no end marker)" % (size - 100),
                         "detect"),
        ])

    def test_checkpoints_of_other_formats_are_redone_with_a_warning(self):
        args, out, files = self.killed_with_checkpoints("formats")
        with open(files[(0, "discover")], "r+b") as f:
            f.seek(8)  # the u32 format version after the 8-byte magic
            f.write((6).to_bytes(4, "little"))
        with open(files[(2, "scan")], "r+b") as f:
            f.write(b"1CRDCKT2")  # the magic number of format 2, written before checkpoints had a CRC
        self.resume_with_warnings(args, out, [
            self.warning(0, files[(0, "discover")], "has checkpoint format 6; this crd reads format 8", "discover"),
            self.warning(2, files[(2, "scan")], "has checkpoint format 2; this crd reads format 8", "scan"),
        ])

    def test_resume_without_work_dir_is_a_usage_error(self):
        rc, err, _ = run(["run"] + self.inputs + ["-o", self.tmp("x.h5"), "--resume"], 2)
        self.assertEqual(rc, 2, err)
        self.assertIn("--resume needs --work-dir", err)


if __name__ == "__main__":
    ci.main()
