# Round 4 of the hostile-input review (docs/hostile-input.md, "Work lost after it is done"): a
# second job must not destroy the work of one that is still running.
# - Two jobs with the same -o: job A stops (CRD_FAULT=0:after_scan:stop, a SIGSTOP of its rank 0
#   while its temporary exists), job B writes a small result to the same -o and exits 0; A then
#   continues and also exits 0, and the last to finish (A) holds the name. crd used to remove A's
#   live temporary as "stale", and A failed at the end with "rename to final name".
# - A temporary whose job was killed outright is still removed by the next run of that output.
# - The same job started twice with one --work-dir: the second is refused at once, naming the
#   first (host and pid); the first finishes. A --work-dir equal to -o, or inside it, is refused
#   before any input is read.
# At 1 rank (no mpirun) and 2 ranks.
# - Attributes over 64 KiB (a command line of 3,000 input paths of 75 characters, a config of
#   100,000 tags in the chunking identity) are written, and read back by h5py, inspect and
#   report. HDF5's compact attribute storage refused them at commit, after all the work.
# - Standard output that cannot be written (a full device, or closed): inspect, compare --json,
#   check and --completion bash exit 1 with one line on stderr. They exited 0 with the output cut
#   short (inspect: 4,096 of 22,494 bytes) or lost.
import os
import re
import signal
import socket
import subprocess
import sys
import time
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "support"))
import crd_integ as ci  # noqa: E402  (exits 77 without h5py)
from scratch_case import ScratchCase  # noqa: E402  (tests/support)

TIMEOUT = 120


def write_site(root, site, pages=6):
    for n in range(pages):
        path = os.path.join(root, site, "p%d.html" % n)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w") as f:
            f.write("<html><body><p>a paragraph every page of %s shares</p><p>page %d of %s</p></body></html>"
                    % (site, n, site))


def stopped_crd(marker, timeout=60):
    """The pid of the stopped crd process whose command line holds `marker` (rank 0 of a job
    paused by CRD_FAULT=...:stop), waiting for it to stop."""
    deadline = time.time() + timeout
    while time.time() < deadline:
        for pid in os.listdir("/proc"):
            if not pid.isdigit():
                continue
            try:
                with open("/proc/%s/cmdline" % pid, "rb") as f:
                    argv = f.read().split(b"\0")
                with open("/proc/%s/stat" % pid) as f:
                    state = f.read().rsplit(")", 1)[1].split()[0]
            except OSError:
                continue
            if state == "T" and marker.encode() in argv and os.path.basename(argv[0]) == b"crd":
                return int(pid)
        time.sleep(0.05)
    raise AssertionError("no crd process stopped with %s in its command line" % marker)


def page_urls(path):
    return sorted(ci.run_summary(path)[2])


class LostWork(ScratchCase):
    SCRATCH = "round4-lost-work"

    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        cls.corpus_a, cls.corpus_b = cls.tmp("corpus-a"), cls.tmp("corpus-b")
        write_site(cls.corpus_a, "site-a.example")
        write_site(cls.corpus_b, "site-b.example", pages=3)
        cls.urls_a = page_urls(cls.reference("a", cls.corpus_a))
        cls.urls_b = page_urls(cls.reference("b", cls.corpus_b))

    @classmethod
    def reference(cls, name, corpus):
        out = cls.tmp("reference-%s.h5" % name)
        ci.run_crd(ci.quiet(["run", corpus, "-o", out]), timeout=TIMEOUT)
        return out

    def setUp(self):
        super().setUp()
        self.paused = []
        self.addCleanup(self.end_paused)

    def end_paused(self):
        for proc in self.paused:
            if proc.poll() is None:
                proc.kill()
                proc.wait()

    def command(self, args, nranks):
        prefix = [] if nranks == 1 else ci.mpi_prefix(nranks, quiet=True)
        return prefix + [ci.crd_binary()] + ci.quiet(args)

    def start_paused(self, args, nranks, marker):
        """Starts crd with its rank 0 to stop after the scan; returns (Popen, pid of rank 0)."""
        env = dict(os.environ, CRD_FAULT="0:after_scan:stop")
        proc = subprocess.Popen(self.command(args, nranks), stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
        self.paused.append(proc)
        return proc, stopped_crd(marker)

    def finish(self, proc, pid):
        os.kill(pid, signal.SIGCONT)
        try:
            out, err = proc.communicate(timeout=TIMEOUT)
        except subprocess.TimeoutExpired:
            self.fail("the resumed job did not end within %d s" % TIMEOUT)
        return proc.returncode, err.decode("utf-8", "replace")

    def run_crd(self, args, nranks):
        proc = subprocess.run(self.command(args, nranks), stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                              timeout=TIMEOUT)
        return proc.returncode, proc.stderr.decode("utf-8", "replace")

    def test_second_job_keeps_the_first_jobs_temporary(self):
        for nranks in (1, 2):
            with self.subTest(nranks=nranks):
                out = os.path.join(self.dir, "same-%d.h5" % nranks)
                job_a, pid = self.start_paused(["run", self.corpus_a, "-o", out], nranks, out)
                temporaries = sorted(f for f in os.listdir(self.dir) if f.startswith("."))
                self.assertTrue(temporaries, "job A holds a temporary while it is paused")
                rc, err = self.run_crd(["run", self.corpus_b, "-o", out], nranks)
                self.assertEqual(rc, 0, err)
                self.assertEqual(page_urls(out), self.urls_b, "job B's result is in place")
                self.assertEqual(sorted(f for f in os.listdir(self.dir) if f.startswith(".")), temporaries,
                                 "job B left job A's temporary and lock file alone")
                rc, err = self.finish(job_a, pid)
                self.assertEqual(rc, 0, err)
                self.assertEqual(page_urls(out), self.urls_a, "the last job to finish holds the name")
                self.assertEqual(os.listdir(self.dir), [os.path.basename(out)], "no temporary is left")
                os.remove(out)

    def test_killed_jobs_temporary_is_removed(self):
        out = os.path.join(self.dir, "out.h5")
        env = dict(os.environ, CRD_FAULT="0:after_scan")  # SIGKILL: nothing is cleaned up
        proc = subprocess.run(self.command(["run", self.corpus_a, "-o", out], 1), env=env,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=TIMEOUT)
        self.assertEqual(proc.returncode, -signal.SIGKILL)
        left = sorted(os.listdir(self.dir))
        self.assertEqual(len(left), 2, left)  # the temporary and its lock file
        self.assertTrue(left[0].startswith(".out.h5.tmp-") and left[1] == left[0] + ".lock", left)
        # Its lock file alone (the temporary removed by an abort) goes too.
        os.remove(os.path.join(self.dir, left[0]))
        with open(os.path.join(self.dir, ".out.h5.tmp-00000000000000aa"), "wb") as f:
            f.write(b"a temporary of a killed older crd, with no lock file")
        rc, err = self.run_crd(["run", self.corpus_b, "-o", out], 1)
        self.assertEqual(rc, 0, err)
        self.assertEqual(os.listdir(self.dir), ["out.h5"])
        self.assertEqual(page_urls(out), self.urls_b)

    def test_same_job_twice_in_one_work_dir(self):
        for nranks in (1, 2):
            with self.subTest(nranks=nranks):
                work = os.path.join(self.dir, "work-%d" % nranks)
                out_a, out_b = (os.path.join(self.dir, "%s-%d.h5" % (n, nranks)) for n in "ab")
                job_a, pid = self.start_paused(["run", self.corpus_a, "-o", out_a, "--work-dir", work], nranks, out_a)
                rc, err = self.run_crd(["run", self.corpus_a, "-o", out_b, "--work-dir", work], nranks)
                self.assertEqual(rc, 1, err)
                lines = err.splitlines()
                self.assertEqual(len(lines), 1, err)
                self.assertRegex(lines[0], r"^crd run: fatal: --work-dir %s/[0-9a-f]{16} is in use by another crd job "
                                 r"with the same inputs and options \(host %s, pid %d\): wait for it to end"
                                 % (re.escape(work), re.escape(socket.gethostname()), pid))
                self.assertFalse(os.path.exists(out_b))
                rc, err = self.finish(job_a, pid)
                self.assertEqual(rc, 0, err)
                self.assertEqual(page_urls(out_a), self.urls_a)
                self.assertEqual([f for _, _, files in os.walk(work) for f in files], [],
                                 "the checkpoints and the lock are removed after the result")
                # Once the first has ended, the same job runs.
                rc, err = self.run_crd(["run", self.corpus_a, "-o", out_b, "--work-dir", work], nranks)
                self.assertEqual(rc, 0, err)
                self.assertEqual(page_urls(out_b), self.urls_a)

    def test_work_dir_that_is_the_output_is_refused_before_the_job(self):
        missing = os.path.join(self.dir, "no-such-corpus")  # never opened: refused before that
        out = os.path.join(self.dir, "r.h5")
        cases = [(out, "output '%s' is inside --work-dir '%s'" % (out, out)),
                 (out + "/", "output '%s' is inside --work-dir '%s/'" % (out, out)),
                 (os.path.join(self.dir, ".", "r.h5"), "output '%s' is inside --work-dir" % out),
                 (os.path.join(out, "ckpt"), "--work-dir '%s/ckpt' is inside output '%s'" % (out, out))]
        for nranks in (1, 2):
            for work, message in cases:
                with self.subTest(nranks=nranks, work=work):
                    rc, err = self.run_crd(["run", missing, "-o", out, "--work-dir", work], nranks)
                    self.assertEqual(rc, 2, err)
                    lines = err.splitlines()
                    self.assertEqual(len(lines), 1, err)
                    self.assertTrue(lines[0].startswith("crd run: error: " + message), lines[0])
                    self.assertEqual(os.listdir(self.dir), [], "nothing is created")


class LargeAttributes(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = ci.TempDir("round4-attributes")
        cls.paths = []
        for n in range(3000):
            # 75 characters each after the temporary directory's own name.
            path = cls.tmp("site-%04d.example" % (n // 100), "a-long-directory-name-that-makes-the-path-long",
                           "page-%04d.html" % n)
            os.makedirs(os.path.dirname(path), exist_ok=True)
            with open(path, "w") as f:
                f.write("<html><body><p>shared words on every page</p><p>page %d</p></body></html>" % n)
            cls.paths.append(path)

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def test_command_line_of_3000_paths(self):
        # mpirun cannot start ranks whose command line is over 128 KiB here (execve: E2BIG): at 2
        # ranks 800 paths (about 100 KiB), still over what an object header holds.
        for nranks, paths in ((1, self.paths), (2, self.paths[:800])):
            with self.subTest(nranks=nranks):
                out = self.tmp("paths-%d.h5" % nranks)
                ci.run_crd(ci.quiet(["run"] + paths + ["-o", out]), nranks=None if nranks == 1 else nranks,
                           timeout=TIMEOUT, mpi_quiet=True)
                with ci.h5py.File(out, "r") as f:
                    line = ci._plain(f.attrs["command_line"])
                self.assertGreater(len(line), 64 * 1024)
                words = line.split()  # run PATH… -o OUT --progress-interval 0
                self.assertEqual(words[1:1 + len(paths)], paths, "every path, in order")
                self.assertEqual(words[1 + len(paths):], ["-o", out, "--progress-interval", "0"])
                proc = ci.run_crd(["inspect", out], timeout=TIMEOUT)
                self.assertRegex(proc.stdout, r"\n  input.files +%d\n" % len(paths))
                html = self.tmp("paths-%d.html" % nranks)
                ci.run_crd(["report", out, "-o", html], timeout=TIMEOUT)
                with open(html, encoding="utf-8") as f:
                    text = f.read()
                self.assertIn(paths[0], text)
                self.assertIn(paths[-1], text)

    def test_config_of_100000_tags(self):
        tags = ["t%05d" % n for n in range(100000)]
        config = self.tmp("tags.conf")
        with open(config, "w") as f:
            f.write("tags = %s\n" % ",".join(tags))
        for nranks in (1, 2):
            with self.subTest(nranks=nranks):
                out = self.tmp("tags-%d.h5" % nranks)
                ci.run_crd(ci.quiet(["run", self.tmp("site-0000.example"), "--config", config, "-o", out]),
                           nranks=None if nranks == 1 else nranks, timeout=TIMEOUT, mpi_quiet=True)
                with ci.h5py.File(out, "r") as f:
                    chunking = ci._plain(f["/discovery/chunks"].attrs["chunking"])
                    config_text = ci._plain(f.attrs["config"])
                self.assertGreater(len(chunking), 600000)
                self.assertIn(",".join(tags[:3]), chunking)
                self.assertIn(",".join(tags[-3:]), chunking)
                self.assertIn(",".join(tags[-3:]), config_text)
                ci.run_crd(["inspect", out], timeout=TIMEOUT)


class StandardOutput(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = ci.TempDir("round4-stdout")
        corpus = cls.tmp("corpus")
        write_site(corpus, "site.example", pages=40)
        cls.labels = cls.tmp("L.h5")
        ci.run_crd(ci.quiet(["label", corpus, "-o", cls.labels, "--min-chunk-length", "1"]), timeout=TIMEOUT)
        page = os.path.join(corpus, "site.example", "p0.html")
        cls.commands = {
            "inspect": ["inspect", cls.labels, "--top", "1000"],
            "compare --json": ["compare", os.path.join(corpus, "site.example"), "--json"],
            "check": ["check", "--labels", cls.labels, "--min-chunk-length", "1", page],
            "--completion bash": ["--completion", "bash"],
        }

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def run_to(self, args, stdout, close_stdout=False):
        proc = subprocess.run([ci.crd_binary()] + args, stdout=stdout, stderr=subprocess.PIPE, timeout=TIMEOUT,
                              preexec_fn=(lambda: os.close(1)) if close_stdout else None)
        return proc.returncode, proc.stderr.decode("utf-8", "replace").splitlines(), proc.stdout

    def test_every_command_writes_something_when_it_can(self):
        for name, args in self.commands.items():
            with self.subTest(command=name):
                rc, err, out = self.run_to(args, subprocess.PIPE)
                self.assertEqual(rc, 0, err)
                self.assertGreater(len(out), 100, "the output the other cases cannot write")
        self.assertGreater(len(self.run_to(self.commands["inspect"], subprocess.PIPE)[2]), 4096,
                           "inspect's output is larger than stdio's buffer: a write fails before the end")

    def test_full_device(self):
        with open("/dev/full", "wb") as full:
            for name, args in self.commands.items():
                with self.subTest(command=name):
                    rc, err, _ = self.run_to(args, full)
                    self.assertEqual(rc, 1, err)
                    self.assertEqual(err, ["crd: error: cannot write standard output: No space left on device"])

    def test_closed_stdout(self):
        for name, args in self.commands.items():
            with self.subTest(command=name):
                rc, err, _ = self.run_to(args, None, close_stdout=True)
                self.assertEqual(rc, 1, err)
                self.assertEqual(err, ["crd: error: cannot write standard output: Bad file descriptor"])


if __name__ == "__main__":
    ci.main()
