# Inputs that are not what they seem, end to end: a named input that does not exist (a usage error,
# or with --skip-missing a row of /run/errors), an @LIST that is a device, fifos and sockets inside
# a directory, archives in compressions crd does not read, file names holding '?' or '#', and a
# UTF-16 page with a byte-order mark. Run under mpirun -np 2 and as a singleton.
import bz2
import os
import socket
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "hostile"))
import crd_integ as ci  # noqa: E402  (exits 77 without h5py)
import make_corpus  # noqa: E402

NRANKS = 2
TIMEOUT = 120  # a fifo opened by mistake would block: the run must end well within this


def read_run(path):
    counters, errors, pages, samples = ci.run_summary(path)
    return counters, sorted((file, reason) for file, _, reason in errors), pages, samples


class Fixture(unittest.TestCase):
    maxDiff = None

    @classmethod
    def setUpClass(cls):
        cls.tmp = ci.TempDir("input-kinds")
        t = cls.tmp
        os.makedirs(t("out"))
        cls.good = t("good.warc")
        with open(cls.good, "wb") as f:
            f.write(make_corpus.response(b"http://good.example/", make_corpus.GOOD_PAGE))
        cls.typo = t("typo.warc")
        cls.list = t("inputs.txt")
        with open(cls.list, "w") as f:
            f.write("good.warc\ntypo.warc\n")

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def out(self, name):
        return self.tmp("out", name)

    def leftovers(self):
        return [x for x in os.listdir(self.tmp("out")) if ".tmp" in x or x.startswith("fail")]


class MissingInputs(Fixture):
    def check_usage_error(self, args, words, nranks):
        out = self.out("fail.h5")
        p = ci.run_crd(ci.quiet(args + ["-o", out]), nranks=nranks, check=False, timeout=TIMEOUT, mpi_quiet=True)
        lines = p.stderr.splitlines()
        self.assertNotEqual(p.returncode, 0, args)
        self.assertEqual(len(lines), 1, "want one stderr line, got:\n" + p.stderr)
        self.assertRegex(lines[0], r"^crd run: error: ")
        for w in words:
            self.assertIn(w, lines[0])
        self.assertEqual(self.leftovers(), [], "nothing may be written")

    def test_a_missing_input_is_a_usage_error(self):
        for nranks in (None, NRANKS):
            with self.subTest(nranks=nranks):
                self.check_usage_error(["run", self.good, self.typo], [self.typo, "--skip-missing"], nranks)
                self.check_usage_error(["run", "@" + self.list], [self.typo, "line 2", "--skip-missing"], nranks)

    def test_a_device_as_input_list_is_a_usage_error(self):
        for nranks in (None, NRANKS):
            with self.subTest(nranks=nranks):
                self.check_usage_error(["run", "@/dev/zero"], ["@/dev/zero", "not a regular file"], nranks)

    def test_skip_missing_lists_the_missing_input_by_name(self):
        for args in ([self.good, self.typo], ["@" + self.list]):
            out = self.out("skip.h5")
            p = ci.run_crd(ci.quiet(["run"] + args + ["--skip-missing", "-o", out]), nranks=NRANKS, timeout=TIMEOUT)
            self.assertIn("crd: warning: left out %s: not found (input.missing)" % self.typo, p.stderr)
            counters, errors, pages, _ = read_run(out)
            self.assertEqual(errors, [(self.typo, "input.missing")])
            self.assertEqual(counters["skipped.input.missing"], 1)
            self.assertEqual(pages, {"good.example": 5})
            os.remove(out)


class DirectoryOfOddFiles(Fixture):
    """One directory holding a fifo, a socket, a bzip2 WARC, two files whose names differ only
    after a '?', and a UTF-16 page without a declared charset."""

    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        site = cls.tmp("tree", "site")
        os.makedirs(site)
        cls.tree = cls.tmp("tree")
        for name, text in (("a?x.html", b"<p>first page</p>"), ("a?y.html", b"<p>second page</p>"),
                           ("b#1.html", b"<p>third page</p>")):
            with open(os.path.join(site, name), "wb") as f:
                f.write(text)
        with open(os.path.join(site, "utf16.html"), "wb") as f:
            f.write(b"\xff\xfe" + "<p>caf\u00e9 \u65e5\u672c</p><p>second paragraph</p>".encode("utf-16-le"))
        os.mkfifo(os.path.join(site, "pipe.html"))
        cls.sock = socket.socket(socket.AF_UNIX)
        cls.sock.bind(os.path.join(site, "sock"))
        cls.bz2 = os.path.join(site, "crawl.warc.bz2")
        with open(cls.bz2, "wb") as f:
            f.write(bz2.compress(make_corpus.response(b"http://bz.example/", make_corpus.GOOD_PAGE)))
        cls.results = {}
        for nranks in (None, NRANKS):
            out = cls.tmp("out", "tree-%s.h5" % nranks)
            p = ci.run_crd(ci.quiet(["run", cls.tree, "--chunker", "dom", "--chunk-threshold", "0", "-o", out]),
                           nranks=nranks, check=False, timeout=TIMEOUT)
            cls.results[nranks] = (p, out)

    @classmethod
    def tearDownClass(cls):
        cls.sock.close()
        super().tearDownClass()

    def result(self, nranks):
        p, out = self.results[nranks]
        self.assertEqual(p.returncode, 0, p.stderr[-4000:])
        return p, read_run(out)

    def test_special_files_are_counted(self):
        for nranks in (None, NRANKS):
            _, (counters, _, pages, _) = self.result(nranks)
            self.assertEqual(counters.get("skipped.input.not_regular"), 2, nranks)
            self.assertNotIn("site/pipe.html", pages)

    def test_bzip2_archive_is_refused_by_name_with_a_warning(self):
        for nranks in (None, NRANKS):
            p, (counters, errors, pages, _) = self.result(nranks)
            self.assertEqual(errors, [(self.bz2, "input.unsupported_compression")], nranks)
            self.assertEqual(counters.get("skipped.input.unsupported_compression"), 1)
            self.assertIn("crd: warning: left out %s: compressed with bzip2" % self.bz2, p.stderr)
            self.assertFalse(any(k.startswith("bz.example") or "crawl.warc" in k for k in pages), pages)

    def test_names_with_query_and_fragment_characters_keep_their_own_keys(self):
        for nranks in (None, NRANKS):
            _, (_, _, pages, _) = self.result(nranks)
            self.assertEqual(sorted(pages), ["site/a%3Fx.html", "site/a%3Fy.html", "site/b%231.html",
                                             "site/utf16.html"], nranks)

    def test_utf16_page_is_decoded(self):
        for nranks in (None, NRANKS):
            _, (_, _, pages, samples) = self.result(nranks)
            self.assertEqual(pages["site/utf16.html"], 2)
            self.assertIn("caf\u00e9 \u65e5\u672c", samples)
            self.assertIn("second paragraph", samples)


if __name__ == "__main__":
    ci.main()
