# Command-line hazards: -o naming something the job reads or something that is not a
# regular file; reads without a bound (check of /dev/zero or an endless stdin, --config /dev/zero);
# negative numbers that wrapped around; --config DIR and check DIR; terminal escape sequences from
# crawled URLs and samples reaching the terminal. Every crd run has a timeout: none may hang.
import os
import re
import resource
import stat
import subprocess
import unittest

import crd_integ as ci

PAGE = b"<html><body><p>shared paragraph one</p><div>shared block two</div><p>own %d</p></body></html>"


def http_response(uri, body):
    block = b"HTTP/1.1 200 OK\r\nContent-Type: text/html; charset=utf-8\r\n\r\n" + body
    head = (b"WARC/1.0\r\nWARC-Type: response\r\nWARC-Target-URI: " + uri +
            b"\r\nWARC-Date: 2024-01-01T00:00:00Z\r\nContent-Type: application/http; msgtype=response\r\n"
            b"Content-Length: %d\r\n\r\n" % len(block))
    return head + block + b"\r\n\r\n"


def write_warc(path, records):
    with open(path, "wb") as f:
        for uri, body in records:
            f.write(http_response(uri, body))


def small_warc(path):
    write_warc(path, [(b"http://a.example/%d.html" % i, PAGE % i) for i in range(3)])


def one_error_line(tc, proc, command, what):
    """Usage error: exit 2 and exactly one stderr line 'crd COMMAND: error: …' containing `what`."""
    lines = proc.stderr.splitlines()
    tc.assertEqual(proc.returncode, 2, "%s\nstderr:\n%s" % (what, proc.stderr))
    tc.assertEqual(len(lines), 1, "want one stderr line, got:\n%s" % proc.stderr)
    tc.assertTrue(lines[0].startswith("crd %s: error: " % command), lines[0])
    tc.assertIn(what, lines[0])
    return lines[0]


def snapshot(path):
    st = os.lstat(path)
    data = None
    if stat.S_ISREG(st.st_mode):
        with open(path, "rb") as f:
            data = f.read()
    return (st.st_ino, stat.S_IFMT(st.st_mode), data)


class OutputNamesAnInput(unittest.TestCase):
    """-o naming an input, a list, the config, the stop list, the labels, a FIFO, a device or a
    directory is refused before any work: exit 2, one line (printed once under mpirun), the file
    untouched, nothing written beside it."""
    NRANKS = None

    @classmethod
    def setUpClass(cls):
        cls.tmp = ci.TempDir("output-input")
        t = cls.tmp
        os.makedirs(t("site", "a.example"))
        small_warc(t("in.warc"))
        small_warc(t("site", "nested.warc"))
        with open(t("site", "a.example", "page.html"), "wb") as f:
            f.write(PAGE % 9)
        os.link(t("in.warc"), t("hardlink.h5"))
        os.link(t("site", "nested.warc"), t("nested-link.h5"))
        with open(t("inputs.lst"), "w") as f:
            f.write(t("in.warc") + "\n")
        with open(t("crd.ini"), "w") as f:
            f.write("chunk-threshold = 1\n")
        with open(t("stop.txt"), "w") as f:
            f.write("shared paragraph one\n")
        ci.run_crd(ci.quiet(["label", t("in.warc"), "-o", t("L.h5")]), timeout=120)
        os.mkfifo(t("fifo.h5"))
        os.makedirs(t("a_directory"))
        cls.device = None
        if os.geteuid() == 0:  # a private null device: replacing it would harm nothing else
            os.mknod(t("null.h5"), 0o600 | stat.S_IFCHR, os.makedev(1, 3))
            cls.device = t("null.h5")

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def refused(self, args, protected, words):
        t = self.tmp
        before = {p: snapshot(p) for p in protected}
        listing = sorted(os.listdir(t.path))
        # A missing input is named too: the output check must come first, before the inputs are listed.
        proc = ci.run_crd(ci.quiet(args), nranks=self.NRANKS, check=False, timeout=120, mpi_quiet=True)
        line = one_error_line(self, proc, args[0], words[0])
        for w in words[1:]:
            self.assertIn(w, line)
        for p in protected:
            self.assertEqual(snapshot(p), before[p], "%s was changed" % p)
        self.assertEqual(sorted(os.listdir(t.path)), listing, "nothing may be written beside the output")
        return line

    def test_output_is_an_input_archive(self):
        t = self.tmp
        line = self.refused(["run", t("in.warc"), "-o", t("in.warc")], [t("in.warc")], ["in.warc"])
        self.assertEqual(line, "crd run: error: output '%s' is the same file as '%s', which this job reads: "
                               "refusing to overwrite it" % (t("in.warc"), t("in.warc")))

    def test_output_is_a_hard_link_or_another_spelling_of_an_input(self):
        t = self.tmp
        self.refused(["discover", t("in.warc"), "-o", t("hardlink.h5")], [t("in.warc")], ["hardlink.h5", "in.warc"])
        other = os.path.join(t.path, "site", "..", "in.warc")
        self.refused(["discover", t("in.warc"), "-o", other], [t("in.warc")], ["refusing to overwrite"])

    def test_output_is_inside_an_input_directory(self):
        t = self.tmp
        line = self.refused(["run", t("site"), "-o", t("site", "nested.warc")], [t("site", "nested.warc")],
                            ["nested.warc"])
        self.assertIn("same file as input", line)
        self.refused(["run", t("site"), "-o", t("nested-link.h5")], [t("site", "nested.warc")], ["nested-link.h5"])
        self.refused(["run", t("site"), "-o", t("site", "a.example", "page.html")],
                     [t("site", "a.example", "page.html")], ["page.html"])

    def test_output_is_the_list_config_stop_list_or_labels(self):
        t = self.tmp
        missing = t("does-not-exist.warc")
        self.refused(["run", "@" + t("inputs.lst"), missing, "-o", t("inputs.lst")], [t("inputs.lst")],
                     ["inputs.lst"])
        self.refused(["run", t("in.warc"), missing, "--config", t("crd.ini"), "-o", t("crd.ini")], [t("crd.ini")],
                     ["crd.ini"])
        self.refused(["discover", t("in.warc"), missing, "--stop-chunks", t("stop.txt"), "-o", t("stop.txt")],
                     [t("stop.txt")], ["stop.txt"])
        self.refused(["detect", t("in.warc"), missing, "--labels", t("L.h5"), "-o", t("L.h5")], [t("L.h5")],
                     ["L.h5"])

    def test_output_is_not_a_regular_file(self):
        t = self.tmp
        line = self.refused(["run", t("in.warc"), "-o", t("fifo.h5")], [t("fifo.h5")], ["fifo.h5"])
        self.assertTrue(line.endswith("is a FIFO: give a regular file name"), line)
        if self.device:
            line = self.refused(["run", t("in.warc"), "-o", self.device], [self.device], ["null.h5"])
            self.assertTrue(line.endswith("is a device: give a regular file name"), line)
        line = self.refused(["run", t("in.warc"), "-o", t("a_directory")], [t("a_directory")], ["a_directory"])
        self.assertTrue(line.endswith("is a directory: give a regular file name"), line)

    def test_empty_trailing_slash_and_missing_directory(self):
        t = self.tmp
        self.assertEqual(self.refused(["run", t("in.warc"), "-o", ""], [], ["-o"]),
                         "crd run: error: option -o: the output path is empty")
        self.refused(["run", t("in.warc"), "-o", t("new-dir") + "/"], [], ["new-dir/", "names a directory"])
        self.refused(["run", t("in.warc"), "-o", t("no-such-dir", "o.h5")], [],
                     ["no-such-dir", "No such file or directory"])

    def test_an_ordinary_existing_output_is_still_replaced(self):
        t = self.tmp
        out = t("a_directory", "old.h5")
        with open(out, "w") as f:
            f.write("an earlier result")
        ci.run_crd(ci.quiet(["discover", t("in.warc"), "-o", out]), nranks=self.NRANKS, timeout=120)
        self.assertIsNotNone(ci.open_results(out).chunks)
        os.remove(out)


class OutputNamesAnInputUnderMpirun(OutputNamesAnInput):
    NRANKS = 2


# Under a sanitizer (ci.SANITIZED) no address-space cap can be set; there the outputs and the
# timeout still show that the reads stop at their limits.
SANITIZED = ci.SANITIZED


def limit_memory(megabytes):
    def apply():
        if not SANITIZED:
            resource.setrlimit(resource.RLIMIT_AS, (megabytes << 20, megabytes << 20))
    return apply


def crd_limited(args, stdin=None, megabytes=2048, timeout=60):
    """crd with its address space capped: an unbounded read fails instead of eating the machine."""
    proc = subprocess.run([ci.crd_binary()] + args, stdin=stdin, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          timeout=timeout, preexec_fn=limit_memory(megabytes))
    proc.stdout = proc.stdout.decode("utf-8", "replace")
    proc.stderr = proc.stderr.decode("utf-8", "replace")
    return proc


class UnboundedReads(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = ci.TempDir("unbounded")
        small_warc(cls.tmp("in.warc"))
        cls.labels = cls.tmp("L.h5")
        ci.run_crd(ci.quiet(["label", cls.tmp("in.warc"), "-o", cls.labels]), timeout=120)
        with open(cls.tmp("page.html"), "wb") as f:
            f.write(PAGE % 0)

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def test_check_dev_zero_is_skipped_at_the_record_limit(self):
        proc = crd_limited(["check", "--labels", self.labels, "--max-record-bytes", "1M", "/dev/zero",
                            self.tmp("page.html")])
        self.assertEqual(proc.returncode, 0, proc.stderr)
        self.assertEqual(proc.stderr, "")
        lines = proc.stdout.splitlines()
        self.assertEqual(lines[0], "/dev/zero: not checked (larger than --max-record-bytes, 1048576 bytes)")
        self.assertTrue(lines[1].startswith(self.tmp("page.html") + ": 4/4 labeled chunks"), lines[1])
        self.assertEqual(lines[-1], "1 of 2 pages flagged, 1 not checked")

    def test_check_dev_zero_with_the_default_limit(self):
        proc = crd_limited(["check", "--labels", self.labels, "/dev/zero"], megabytes=1024)
        self.assertEqual(proc.returncode, 0, proc.stderr)
        self.assertEqual(proc.stdout.splitlines()[0],
                         "/dev/zero: not checked (larger than --max-record-bytes, 67108864 bytes)")

    def test_check_endless_stdin(self):
        yes = subprocess.Popen(["yes", "<p>again and again</p>"], stdout=subprocess.PIPE)
        try:
            proc = crd_limited(["check", "--labels", self.labels, "--max-record-bytes", "4M", "-"], stdin=yes.stdout)
        finally:
            yes.kill()
            yes.wait()
            yes.stdout.close()
        self.assertEqual(proc.returncode, 0, proc.stderr)
        self.assertEqual(proc.stdout.splitlines(),
                         ["-: not checked (larger than --max-record-bytes, 4194304 bytes)",
                          "0 of 1 pages flagged, 1 not checked"])

    def test_check_a_page_at_the_limit_is_still_checked(self):
        size = os.path.getsize(self.tmp("page.html"))
        proc = crd_limited(["check", "--labels", self.labels, "--max-record-bytes", str(size), self.tmp("page.html")])
        self.assertIn("4/4 labeled chunks", proc.stdout)
        proc = crd_limited(["check", "--labels", self.labels, "--max-record-bytes", str(size - 1),
                            self.tmp("page.html")])
        self.assertIn("not checked (larger than --max-record-bytes, %d bytes)" % (size - 1), proc.stdout)
        proc = crd_limited(["check", "--labels", self.labels, "--max-record-bytes", "18446744073709551615",
                            self.tmp("page.html")])  # the largest limit: no overflow to "read nothing"
        self.assertIn("4/4 labeled chunks", proc.stdout)

    def test_config_dev_zero_and_endless_pipe(self):
        for command in (["run", self.tmp("in.warc"), "-o", self.tmp("o.h5")], ["check", "--labels", self.labels,
                                                                               self.tmp("page.html")]):
            with self.subTest(command=command[0]):
                proc = crd_limited(command + ["--config", "/dev/zero"])
                one_error_line(self, proc, command[0], "config file '/dev/zero' is larger than 1 MiB")
                yes = subprocess.Popen(["yes", "chunk-threshold = 1"], stdout=subprocess.PIPE)
                try:
                    proc = crd_limited(command + ["--config", "/dev/stdin"], stdin=yes.stdout)
                finally:
                    yes.kill()
                    yes.wait()
                    yes.stdout.close()
                one_error_line(self, proc, command[0], "config file '/dev/stdin' is larger than 1 MiB")
        self.assertFalse(os.path.exists(self.tmp("o.h5")))


class DirectoriesWhereFilesAreExpected(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = ci.TempDir("dirs")
        small_warc(cls.tmp("in.warc"))
        os.makedirs(cls.tmp("a_dir"))
        ci.run_crd(ci.quiet(["label", cls.tmp("in.warc"), "-o", cls.tmp("L.h5")]), timeout=120)

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def test_config_directory(self):
        proc = ci.run_crd(["run", self.tmp("in.warc"), "--config", self.tmp("a_dir"), "-o", self.tmp("o.h5")],
                          check=False, timeout=60)
        self.assertEqual(one_error_line(self, proc, "run", "a_dir"),
                         "crd run: error: config file '%s' is a directory" % self.tmp("a_dir"))
        self.assertFalse(os.path.exists(self.tmp("o.h5")))

    def test_check_directory(self):
        proc = ci.run_crd(["check", "--labels", self.tmp("L.h5"), self.tmp("a_dir")], check=False, timeout=60)
        self.assertEqual(one_error_line(self, proc, "check", "a_dir"),
                         "crd check: error: page '%s' is a directory (check reads page files, or - for stdin)"
                         % self.tmp("a_dir"))
        self.assertEqual(proc.stdout, "")


# Every unsigned option of every command, and values that must be refused.
NUMBER_OPTIONS = {
    "discover": ["--chunk-threshold", "--file-threshold", "--min-chunk-length", "--sample-bytes",
                 "--max-record-bytes", "--shuffle-buffer", "--memory"],
    "label": ["--min-chunk-length", "--max-record-bytes", "--memory"],
    "detect": ["--replicate-max", "--min-labeled", "--provenance-samples", "--min-chunk-length"],
    "run": ["--chunk-threshold", "--min-labeled", "--provenance-samples", "--memory", "--max-record-bytes"],
    "check": ["--min-labeled", "--show", "--min-chunk-length", "--max-record-bytes"],
    "inspect": ["--top"],
    "report": ["--top"],
    "neardup": ["--shingle-tokens", "--minvalues", "--supershingles", "--min-b-similarity", "--simhash-bits",
                "--simhash-pieces", "--min-c-similarity", "--combined-c-similarity", "--max-bucket"],
    "compare-hashing": ["--min-labeled", "--min-chunk-length", "--max-record-bytes", "--memory"],
}


class NegativeNumbers(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = ci.TempDir("numbers")
        small_warc(cls.tmp("in.warc"))
        ci.run_crd(ci.quiet(["label", cls.tmp("in.warc"), "-o", cls.tmp("L.h5")]), timeout=120)
        with open(cls.tmp("truth.txt"), "w") as f:
            f.write("example.com\n")

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def base(self, command):
        t = self.tmp
        if command == "inspect":
            return ["inspect", t("L.h5")]
        if command == "report":
            return ["report", t("L.h5"), "-o", t("r.html")]
        if command == "check":
            return ["check", "--labels", t("L.h5"), t("in.warc")]
        args = [command, t("in.warc"), "-o", t("o.h5"), "--progress-interval", "0"]
        if command == "compare-hashing":
            return args + ["--labels", t("L.h5"), "--truth", t("truth.txt")]
        return args + (["--labels", t("L.h5")] if command == "detect" else [])

    def test_every_unsigned_option_refuses_negative_and_malformed_numbers(self):
        for command, options in NUMBER_OPTIONS.items():
            for option in options:
                for value in ("-5", "-1G", "12abc", "1e3"):
                    with self.subTest(command=command, option=option, value=value):
                        proc = ci.run_crd(self.base(command) + [option, value], check=False, timeout=60)
                        line = one_error_line(self, proc, command, option)
                        self.assertIn("'%s'" % value, line)
        self.assertFalse(os.path.exists(self.tmp("o.h5")))

    def test_the_issues_examples(self):
        proc = ci.run_crd(self.base("discover") + ["--chunk-threshold", "-5"], check=False, timeout=60)
        self.assertEqual(one_error_line(self, proc, "discover", "-5"),
                         "crd discover: error: option '--chunk-threshold': '-5' is not a whole number ≥ 0")
        for option in ("--memory", "--max-record-bytes"):
            proc = ci.run_crd(self.base("run") + [option, "-1"], check=False, timeout=60)
            self.assertEqual(one_error_line(self, proc, "run", option),
                             "crd run: error: option '%s': '-1' is not a size ≥ 0 (e.g. 4096, 512K, 64M, 2G)" % option)
        proc = ci.run_crd(["inspect", self.tmp("L.h5"), "--top", "-1"], check=False, timeout=30)
        one_error_line(self, proc, "inspect", "--top")
        proc = ci.run_crd(self.base("detect") + ["--max-neighborhood-depth", "-2"], check=False, timeout=60)
        one_error_line(self, proc, "detect", "--max-neighborhood-depth")

    def test_negative_numbers_in_a_config_file(self):
        with open(self.tmp("neg.ini"), "w") as f:
            f.write("chunk-threshold = -5\n")
        proc = ci.run_crd(self.base("run") + ["--config", self.tmp("neg.ini")], check=False, timeout=60)
        line = one_error_line(self, proc, "run", "chunk-threshold")
        self.assertIn("'-5' is not a whole number ≥ 0", line)


# Bytes that would drive a terminal: ESC sequences (clear screen, set window title), BEL, a C1 CSI
# (U+009B) and an invalid UTF-8 byte 0x9b (the 8-bit CSI).
EVIL_URL = b"http://evil.example/\x1b]0;pwned\x07/\x1b[2J\xc2\x9b31m\x9b.html"
EVIL_TEXT = b"<p>\x1b[31mred \x1b]0;title\x07 text \xc2\x9b1m\x9b</p>"
CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\ufffd]")


class TerminalEscapes(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = ci.TempDir("escapes")
        t = cls.tmp
        pages = [(EVIL_URL, b"<html><body>" + EVIL_TEXT + b"<p>plain %d</p></body></html>" % i) for i in range(3)]
        pages += [(b"http://good.example/%d.html" % i, b"<html><body>" + EVIL_TEXT + b"</body></html>")
                  for i in range(2)]
        write_warc(t("evil.warc"), pages)
        ci.run_crd(ci.quiet(["run", t("evil.warc"), "--chunk-threshold", "1", "--page-threshold", "0",
                             "-o", t("out.h5")]), timeout=120)
        cls.evil_page = t("page\x1b[2J.html")
        with open(cls.evil_page, "wb") as f:
            f.write(b"<html><body>" + EVIL_TEXT + b"</body></html>")

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def assert_clean(self, text):
        bad = CONTROL.search(text)
        if bad:
            self.fail("control character %r at %d in:\n%s" % (bad.group(), bad.start(), text))

    def test_the_result_holds_the_raw_bytes(self):
        r = ci.open_results(self.tmp("out.h5"))
        urls = r.table(ci.results.PAGES, decode=False)["url"].tolist()
        samples = r.table(ci.results.CHUNKS, decode=False)["sample"].tolist()
        self.assertTrue(any(b"\x1b]0;pwned\x07" in u for u in urls), urls)
        self.assertTrue(any(b"\x1b[31mred" in s for s in samples), samples)

    def test_inspect_escapes_urls_and_samples(self):
        proc = ci.run_crd(["inspect", self.tmp("out.h5")], timeout=60)
        self.assert_clean(proc.stdout)
        self.assertIn("evil.example/\\x1b]0;pwned\\x07/\\x1b[2J\\xc2\\x9b31m\\x9b.html", proc.stdout)
        self.assertIn("\\x1b[31mred \\x1b]0;title\\x07 text \\xc2\\x9b1m\\x9b", proc.stdout)

    def test_check_escapes_file_names_and_matched_text(self):
        proc = ci.run_crd(["check", "--labels", self.tmp("out.h5"), self.evil_page], timeout=60)
        self.assert_clean(proc.stdout)
        self.assertIn("page\\x1b[2J.html: 2/2 labeled chunks", proc.stdout)
        self.assertIn("\\x1b[31mred", proc.stdout)

    def test_error_lines_escape_file_names(self):
        proc = ci.run_crd(["check", "--labels", self.tmp("out.h5"), self.tmp("gone\x1b]0;x\x07.html")],
                          check=False, timeout=60)
        self.assert_clean(proc.stderr)
        one_error_line(self, proc, "check", "gone\\x1b]0;x\\x07.html")
        proc = ci.run_crd(["run", self.tmp("evil.warc"), "-o", self.tmp("no\x1b[2Jdir", "o.h5")], check=False,
                          timeout=60)
        self.assert_clean(proc.stderr)
        one_error_line(self, proc, "run", "no\\x1b[2Jdir")


if __name__ == "__main__":
    ci.main()
