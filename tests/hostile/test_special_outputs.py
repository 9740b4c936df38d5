# Every command that writes a file refuses an output that is a device,
# a FIFO or a symbolic link (to anything), with one line and exit 2, and leaves the node as it was
# and no temporary beside it (crd report replaced /dev/null with a regular file); -o naming a
# checkpoint (anything inside --work-dir) or an @LIST nested in another list is refused; a
# --work-dir inside an input directory is refused; result files given as FIFOs or devices
# (--labels, merge, report, inspect, compare --labels, check --labels) are refused at once instead
# of blocking until a writer appears.
#
# Only nodes this test creates in its own temporary directory are used: a device node made with
# mknod (1,3: what /dev/null is; only as root) and a FIFO, never /dev/null itself, so a crd without
# the fix replaces the test's node, not the machine's. Every run has a timeout, so a FIFO opened
# for reading fails the test instead of hanging it. Run at 1 rank (no mpirun) and 2 ranks.
import os
import re
import stat
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "support"))
import crd_integ as ci  # noqa: E402  (exits 77 without h5py)
from scratch_case import ScratchCase  # noqa: E402  (tests/support)

TIMEOUT = 60
NO_PROGRESS = ("report", "inspect", "compare", "check")  # single-process commands: no --progress-interval
E = re.escape


def write_pages(root):
    for n in range(6):
        path = os.path.join(root, "site.example", "p%d.html" % n)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w") as f:
            f.write("<html><body><p>shared paragraph</p><p>page %d's own paragraph</p></body></html>" % n)


def corpus_and_result(tmp):
    """A small corpus in `tmp` and a run over it with counts: the input of report, merge, inspect
    and --labels."""
    corpus, result = tmp("corpus"), tmp("result.h5")
    write_pages(corpus)
    ci.run_crd(ci.quiet(["run", corpus, "--chunk-threshold", "1", "--keep-counts", "-o", result]))
    return corpus, result


def kind(path):
    mode = os.lstat(path).st_mode
    for name, test in (("link", stat.S_ISLNK), ("device", stat.S_ISCHR), ("fifo", stat.S_ISFIFO),
                       ("file", stat.S_ISREG), ("dir", stat.S_ISDIR)):
        if test(mode):
            return name
    return "other"


class Round3(ScratchCase):
    SCRATCH = "round3-outputs"

    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        cls.corpus, cls.result = corpus_and_result(cls.tmp)
        cls.page = os.path.join(cls.corpus, "site.example", "p0.html")

    def crd(self, args, nranks=1):
        """(rc, stderr lines) of crd at nranks (1: no mpirun), failing the test if it runs TIMEOUT s."""
        args = list(args) if args[0] in NO_PROGRESS else ci.quiet(args)
        try:
            proc = ci.run_crd(args, nranks=None if nranks == 1 else nranks, check=False, timeout=TIMEOUT,
                              mpi_quiet=True)
        except subprocess.TimeoutExpired:
            self.fail("crd blocked for %d s: crd %s" % (TIMEOUT, " ".join(args)))
        return proc.returncode, proc.stderr.splitlines()

    def assert_refused(self, args, pattern, nranks=1):
        rc, lines = self.crd(args, nranks)
        self.assertEqual(rc, 2, "\n".join(lines))
        self.assertEqual(len(lines), 1, "\n".join(lines))
        self.assertRegex(lines[0], pattern)

    def assert_untouched(self, nodes):
        """Each {path: kind} still is that kind (a link still points where it did), and the
        directory holds nothing else: no temporary left."""
        for path, expected in nodes.items():
            self.assertEqual(kind(path), expected, path)
        self.assertEqual(sorted(os.listdir(self.dir)), sorted(os.path.basename(p) for p in nodes))

    def special_outputs(self):
        """{path: (kind, what crd must say)} of outputs no command may replace."""
        nodes = {}
        fifo = os.path.join(self.dir, "fifo")
        os.mkfifo(fifo)
        nodes[fifo] = ("fifo", "is a FIFO")
        regular = os.path.join(self.dir, "regular.h5")
        with open(regular, "w") as f:
            f.write("an earlier result")
        link = os.path.join(self.dir, "link-to-file.h5")
        os.symlink(regular, link)
        nodes[regular] = ("file", None)
        nodes[link] = ("link", "is a symbolic link")
        dangling = os.path.join(self.dir, "dangling.h5")
        os.symlink(os.path.join(self.dir, "nowhere.h5"), dangling)
        nodes[dangling] = ("link", "is a symbolic link")
        if os.geteuid() == 0:
            null = os.path.join(self.dir, "null")
            os.mknod(null, 0o666 | stat.S_IFCHR, os.makedev(1, 3))
            nodes[null] = ("device", "is a device")
            stdout_like = os.path.join(self.dir, "stdout")  # what /dev/stdout is: a link to a device
            os.symlink(null, stdout_like)
            nodes[stdout_like] = ("link", "is a symbolic link")
        return nodes

    def check_every_special_output(self, make_args, nranks=1):
        nodes = self.special_outputs()
        for path, (_, says) in nodes.items():
            if says is None:
                continue
            with self.subTest(output=os.path.basename(path), nranks=nranks):
                self.assert_refused(make_args(path), r"output '%s' %s: give a regular file name$" % (E(path), says), nranks)
        self.assert_untouched({path: k for path, (k, _) in nodes.items()})
        with open(os.path.join(self.dir, "regular.h5")) as f:
            self.assertEqual(f.read(), "an earlier result")

    def test_report(self):
        self.check_every_special_output(lambda out: ["report", self.result, "-o", out])

    def test_run_discover_label_detect_at_1_and_2_ranks(self):
        # Every MPI command checks -o in one function (start_job, cli/command_frame.cpp): each is tried at 1 rank,
        # and two of them under mpirun at 2 ranks, where rank 0 decides and every rank exits alike.
        cases = [(command, 1) for command in (["run"], ["discover"], ["label"], ["detect", "--labels", self.result])]
        cases += [(["run"], 2), (["detect", "--labels", self.result], 2)]
        for command, nranks in cases:
            with self.subTest(command=command[0], nranks=nranks):
                self.check_every_special_output(lambda out: command + [self.corpus, "-o", out], nranks)
                for name in os.listdir(self.dir):
                    os.unlink(os.path.join(self.dir, name))

    def test_merge_neardup_quilts_compare_hashing(self):
        truth = os.path.join(self.tmp("truth.txt"))
        with open(truth, "w") as f:
            f.write("site.example\n")
        for command in (["merge", self.result], ["neardup", self.corpus], ["quilts", self.corpus],
                        ["compare-hashing", self.corpus, "--labels", self.result, "--truth", truth]):
            with self.subTest(command=command[0]):
                self.check_every_special_output(lambda out: command + ["-o", out], 2 if command[0] == "merge" else 1)
                for name in os.listdir(self.dir):
                    os.unlink(os.path.join(self.dir, name))

    def test_output_inside_the_work_dir_is_refused(self):
        work = os.path.join(self.dir, "work")
        os.makedirs(os.path.join(work, "0123456789abcdef"))
        ckpt = os.path.join(work, "0123456789abcdef", "rank-0-of-1.scan.ckpt")
        with open(ckpt, "wb") as f:
            f.write(b"CRDCKPT\n")
        for nranks in (1, 2):
            with self.subTest(nranks=nranks):
                self.assert_refused(["run", self.corpus, "--work-dir", work, "-o", ckpt],
                                    r"^crd run: error: output '%s' is inside --work-dir '%s', which holds the "
                                    r"checkpoints: write the result elsewhere$" % (E(ckpt), E(work)), nranks)
        with open(ckpt, "rb") as f:
            self.assertEqual(f.read(), b"CRDCKPT\n")

    def test_nested_list_as_output_is_refused(self):
        inner = os.path.join(self.dir, "inner.lst")
        outer = os.path.join(self.dir, "outer.lst")
        with open(inner, "w") as f:
            f.write(self.corpus + "\n")
        with open(outer, "w") as f:
            f.write("@inner.lst\n")
        for nranks in (1, 2):
            with self.subTest(nranks=nranks):
                self.assert_refused(["run", "@" + outer, "-o", inner],
                                    r"^crd run: error: output '%s' is the same file as '@%s', which this job reads: "
                                    r"refusing to overwrite it$" % (E(inner), E(inner)), nranks)
        with open(inner) as f:
            self.assertEqual(f.read(), self.corpus + "\n")

    def test_work_dir_inside_an_input_directory_is_refused(self):
        corpus = os.path.join(self.dir, "corpus")
        write_pages(corpus)
        listed = os.path.join(self.dir, "inputs.lst")
        with open(listed, "w") as f:
            f.write(corpus + "\n")
        out = os.path.join(self.dir, "out.h5")
        for nranks in (1, 2):
            for given, work in ((corpus, os.path.join(corpus, "work")),
                                (corpus, os.path.join(corpus, "site.example", "new", "work")),
                                ("@" + listed, os.path.join(corpus, "work"))):
                with self.subTest(nranks=nranks, given=given, work=work):
                    self.assert_refused(["run", given, "--work-dir", work, "-o", out],
                                        r"^crd run: error: --work-dir '%s' is inside input directory '%s': its "
                                        r"checkpoints would be read as input; put it elsewhere$" % (E(work), E(corpus)), nranks)
                    self.assertFalse(os.path.exists(os.path.join(corpus, "work")))
                    self.assertFalse(os.path.exists(out))

    def special_inputs(self):
        nodes = []
        fifo = os.path.join(self.dir, "in-fifo")
        os.mkfifo(fifo)
        nodes.append((fifo, "is a FIFO"))
        if os.geteuid() == 0:
            null = os.path.join(self.dir, "in-null")
            os.mknod(null, 0o666 | stat.S_IFCHR, os.makedev(1, 3))
            nodes.append((null, "is a device"))
        return nodes

    def test_result_files_that_are_fifos_or_devices_are_refused_without_blocking(self):
        out = os.path.join(self.dir, "out")
        for node, says in self.special_inputs():
            message = r"%s %s: result files are read only from regular files$" % (E(node), says)
            cases = [(["report", node, "-o", out + ".html"], 1), (["inspect", node], 1),
                     (["compare", self.page, self.page, "--labels", node], 1),
                     (["check", "--labels", node, self.page], 1)]
            for nranks in (1, 2):
                cases += [(["detect", self.corpus, "--labels", node, "-o", out + ".h5"], nranks),
                          (["merge", self.result, node, "-o", out + ".h5"], nranks)]
            for args, nranks in cases:
                with self.subTest(input=os.path.basename(node), command=args[0], nranks=nranks):
                    self.assert_refused(args, message, nranks)
            self.assertEqual(kind(node), "fifo" if "FIFO" in says else "device")
        self.assertFalse([n for n in os.listdir(self.dir) if n.startswith("out")])


if __name__ == "__main__":
    ci.main()
