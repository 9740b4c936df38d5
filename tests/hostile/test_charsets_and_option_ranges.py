# Hostile input, round 3 (docs/hostile-input.md "Round 3: charsets and option
# ranges"): pages whose encoding is declared only inside the document are decoded by the dom and
# sentence chunkers (HTML5 sniffing: byte-order mark, HTTP header, <meta> prescan), at 1 and 2
# ranks; numeric options out of range are usage errors. Run: python3 test_charsets_and_option_ranges.py [TestClass…]
import json
import os
import re
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "support"))
import crd_integ as ci  # noqa: E402  (exits 77 without h5py)
import archives  # noqa: E402  (tests/support, on crd_integ's path)
import bounded_crd  # noqa: E402  (tests/support)
from bounded_crd import run_bounded, write_site  # noqa: E402

h5py = ci.h5py
NO_CHARSET = b"Content-Type: text/html\r\n"
LATIN1 = b"Content-Type: text/html; charset=iso-8859-1\r\n"
UTF8 = b"Content-Type: text/html; charset=utf-8\r\n"


def text(form):
    """The page's one paragraph: the same French words, then the form's name (distinct chunks)."""
    return "Café crème, déclaré par %s." % form


def latin1_page(head, form):
    return b"<html><head>" + head + b"</head><body><p>" + text(form).encode("latin-1") + b"</p></body></html>"


def utf16_page(form, big_endian):
    page = "<html><body><p>" + text(form) + "</p></body></html>"
    return (b"\xfe\xff" + page.encode("utf-16-be")) if big_endian else (b"\xff\xfe" + page.encode("utf-16-le"))


# (name, HTTP headers, body, decoded): decoded is False where the bytes must stay undecodable.
PAGES = [
    ("meta-charset", NO_CHARSET, latin1_page(b'<meta charset="iso-8859-1">', "meta-charset"), True),
    ("meta-unquoted-case", NO_CHARSET, latin1_page(b"<META CharSet=LATIN1>", "meta-unquoted-case"), True),
    ("meta-single-quotes", NO_CHARSET, latin1_page(b"<meta charset='us-ascii'>", "meta-single-quotes"), True),
    ("http-equiv", NO_CHARSET,
     latin1_page(b'<meta http-equiv="Content-Type" content="text/html; charset=iso-8859-1">', "http-equiv"), True),
    ("after-comment", NO_CHARSET,
     latin1_page(b"<!-- <meta charset=utf-8> --><title>t</title><meta charset=latin1>", "after-comment"), True),
    ("http-header", LATIN1, latin1_page(b"", "http-header"), True),
    # The HTTP header wins over the meta: these bytes are UTF-8, as the header says.
    ("http-wins", UTF8, b"<meta charset=latin1><p>" + text("http-wins").encode("utf-8"), True),
    ("bom-utf8", NO_CHARSET, b"\xef\xbb\xbf<meta charset=latin1><p>" + text("bom-utf8").encode("utf-8"), True),
    ("bom-utf16le", LATIN1, utf16_page("bom-utf16le", False), True),
    ("bom-utf16be", NO_CHARSET, utf16_page("bom-utf16be", True), True),
    # Not decoded: a meta past the first 1024 bytes, and a label that names no encoding.
    ("meta-too-late", NO_CHARSET,
     latin1_page(b"<title>" + b"x" * 1100 + b"</title><meta charset=latin1>", "meta-too-late"), False),
    ("unknown-label", NO_CHARSET, latin1_page(b"<meta charset=x-latin-9000>", "unknown-label"), False),
]


def url(name):
    return "http://charsets.example/%s.html" % name


def key(name):
    """The page's key in /detection/pages (its URL without the scheme)."""
    return "charsets.example/%s.html" % name


class InDocumentCharsets(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = ci.TempDir("round3-charsets")
        cls.warc = cls.tmp("charsets.warc")
        with open(cls.warc, "wb") as f:
            for name, headers, body, _ in PAGES:
                f.write(archives.warc_response(url(name), body, headers=headers))
        cls.runs = {}
        for chunker in ("dom", "sentence"):
            for nranks in (1, 2):
                out = cls.tmp("%s-%d.h5" % (chunker, nranks))
                p = ci.run_crd(ci.quiet(["run", cls.warc, "-o", out, "--chunker", chunker,
                                         "--chunk-threshold", "0"]), nranks=nranks, check=False)
                cls.runs[chunker, nranks] = (p, out)

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def samples(self, chunker, nranks):
        p, out = self.runs[chunker, nranks]
        self.assertEqual(p.returncode, 0, ci.stderr_excerpt(p.stderr))
        with h5py.File(out, "r") as f:
            return sorted(s.decode("utf-8", "surrogateescape") for s in f["/discovery/chunks/sample"][:])

    def check(self, chunker):
        samples = self.samples(chunker, 1)
        self.assertEqual(self.samples(chunker, 2), samples, "1 and 2 ranks differ")
        for name, _, _, decoded in PAGES:
            if decoded:
                self.assertIn(text(name), samples, name)
            else:
                self.assertNotIn(text(name), samples, name)
        return samples

    def test_dom_decodes_each_declared_form(self):
        samples = self.check("dom")
        # Not decoded: U+FFFD where é and è were, never a wrong letter.
        for name, _, _, decoded in PAGES:
            if not decoded:
                self.assertIn(text(name).replace("é", "\ufffd").replace("è", "\ufffd"), samples, name)

    def test_sentence_does_not_skip_declared_pages(self):
        self.check("sentence")
        counters, _, pages, _ = ci.run_summary(self.runs["sentence", 2][1])
        undecodable = [name for name, _, _, decoded in PAGES if not decoded]
        # A page the sniffing cannot decode loses only its sentences holding U+FFFD (the
        # counter counts sentences), never a declared page.
        self.assertGreaterEqual(counters.get("skipped.sentence.invalid_utf8", 0), len(undecodable))
        for name, _, _, decoded in PAGES:
            if decoded:
                self.assertGreater(pages.get(key(name), 0), 0, name)


    def page_files(self):
        """Two Latin-1 page files, declared by a meta charset and by an http-equiv, sharing a paragraph."""
        d = self.tmp("pages")
        os.makedirs(d, exist_ok=True)
        heads = {"a": b'<meta charset="iso-8859-1">',
                 "b": b'<meta http-equiv="Content-Type" content="text/html; charset=latin1">'}
        for name, head in heads.items():
            with open(os.path.join(d, name + ".html"), "wb") as f:
                f.write(b"<html><head>" + head + b"</head><body><p>" + SHARED.encode("latin-1") + b"</p><p>Page "
                        + name.encode() + b" seule.</p></body></html>")
        return d

    def test_compare_reads_page_files_in_their_declared_charset(self):
        d = self.page_files()
        p = ci.run_crd(["compare", os.path.join(d, "a.html"), os.path.join(d, "b.html"), "--json"])
        result = json.loads(p.stdout)
        self.assertEqual(result["counters"].get("skipped.sentence.invalid_utf8", 0), 0)
        self.assertEqual([s["text"] for s in result["pairs"][0]["sentences"]], SHARED_SENTENCES)

    def test_check_reads_page_files_in_their_declared_charset(self):
        d = self.page_files()
        labels = self.tmp("L.h5")
        ci.run_crd(ci.quiet(["label", d, "--chunker", "dom", "-o", labels]), nranks=2)
        p = ci.run_crd(["check", "--labels", labels, "--chunker", "dom", os.path.join(d, "a.html")])
        self.assertIn('"%s"' % SHARED, p.stdout)
        self.assertIn("2/2 labeled chunks", p.stdout)


SHARED_SENTENCES = ["Café crème au lait.", "Une autre phrase ici."]
SHARED = " ".join(SHARED_SENTENCES)


def run_single(args, timeout=120):
    """crd without mpirun, under a 4 GiB address-space limit (bounded_crd)."""
    return run_bounded(args, timeout=timeout)


EXTREMES = [0, 1, 4294967295, 4294967296, 1 << 63]


class SiteCase(bounded_crd.SiteCase):
    PREFIX = "round3-"


class OptionRanges(SiteCase):
    """Numeric options of neardup and quilts: a documented range, checked at parse time (exit 2,
    one line, nothing written); no value of any option ends in std::bad_alloc."""

    def refused(self, args, option, nranks=None):
        out = self.tmp("refused.h5")
        if nranks is None:
            p = run_single(args + ["-o", out])
        else:
            p = ci.run_crd(args + ["-o", out], nranks=nranks, check=False, mpi_quiet=True)
        self.assertEqual(p.returncode, 2, "%s: %s" % (args, p.stderr))
        lines = p.stderr.strip().splitlines()
        self.assertEqual(len(lines), 1, p.stderr)
        self.assertIn("--" + option, lines[0])
        self.assertFalse(os.path.exists(out))
        return lines[0]

    def test_c_similarity_above_the_fingerprint_bits(self):
        for nranks in (1, 2):
            for option in ("min-c-similarity", "combined-c-similarity"):
                line = self.refused(["neardup", self.site, "--" + option, "385"], option, nranks)
                self.assertIn("at most --simhash-bits (384)", line)
                self.refused(["neardup", self.site, "--simhash-bits", "128", "--simhash-pieces", "4", "--" + option, "129"],
                             option, nranks)
        # A default above fewer bits only where the method uses it.
        self.refused(["neardup", self.site, "--simhash-bits", "128", "--simhash-pieces", "4", "--method", "simhash"],
                     "min-c-similarity")
        for args in (["--method", "simhash", "--min-c-similarity", "384"],
                     ["--simhash-bits", "128", "--simhash-pieces", "4"]):
            out = self.tmp("fits.h5")
            ci.run_crd(ci.quiet(["neardup", self.site, "-o", out] + args), nranks=2)
            os.remove(out)

    def test_quilts_min_sources_zero(self):
        for nranks in (1, 2):
            self.assertIn("0 is not in 1..4294967295",
                          self.refused(["quilts", self.site, "--min-sources", "0"], "min-sources", nranks))
        self.refused(["quilts", self.site, "--sweep-c", "4,0"], "sweep-c")

    def check_extremes(self, command, options):
        for option in options:
            for value in EXTREMES:
                out = self.tmp("x.h5")
                p = run_single([command, self.site, "--" + option, str(value), "-o", out, "--progress-interval", "0"])
                self.assertIn(p.returncode, (0, 2), "--%s %d: %s" % (option, value, p.stderr[-2000:]))
                self.assertNotIn("bad_alloc", p.stderr)
                if p.returncode == 2:
                    self.assertEqual(len(p.stderr.strip().splitlines()), 1, p.stderr)
                    self.assertFalse(os.path.exists(out))
                else:
                    os.remove(out)

    def test_neardup_extremes_are_usage_errors_not_bad_alloc(self):
        self.check_extremes("neardup", ["shingle-tokens", "minvalues", "supershingles", "min-b-similarity",
                                        "simhash-bits", "simhash-pieces", "min-c-similarity",
                                        "combined-c-similarity", "max-bucket"])
        # The pairs that fit together but once ran out of memory (2^32 min-values or bits).
        for args, option in (
                (["--minvalues", "4294967295", "--supershingles", "4294967295", "--min-b-similarity", "1"], "minvalues"),
                (["--minvalues", "4294967294", "--supershingles", "2"], "minvalues"),
                (["--method", "simhash", "--simhash-bits", "4294967232", "--simhash-pieces", "67108863"],
                 "simhash-bits")):
            self.refused(["neardup", self.site] + args, option)

    def test_quilts_extremes_and_sweep_lengths(self):
        self.check_extremes("quilts", ["gram-words", "max-gram-documents", "min-sources", "max-page-grams"])
        many = ",".join(str(v) for v in range(2, 19))  # 17 values
        self.refused(["quilts", self.site, "--sweep-m", many], "sweep-m")
        self.refused(["quilts", self.site, "--sweep-c", many], "sweep-c")
        self.refused(["quilts", self.site, "--sweep-theta", ",".join(["0.5"] * 17)], "sweep-theta")
        out = self.tmp("sweep16.h5")
        ci.run_crd(ci.quiet(["quilts", self.site, "--sweep-m", ",".join(str(v) for v in range(2, 18)), "-o", out]),
                   nranks=2)

    def test_help_shows_the_ranges(self):
        neardup = run_single(["neardup", "--help"]).stdout
        for text in ("--minvalues 1..4096", "--simhash-bits 64..4096", "--min-c-similarity 0..4096",
                     "--shingle-tokens 1..1000", "--max-bucket 0..4294967295"):
            self.assertIn(text, neardup)
        quilts = run_single(["quilts", "--help"]).stdout
        for text in ("--min-sources 1..4294967295", "--gram-words 1..1000", "--max-gram-documents 2..4294967295"):
            self.assertIn(text, quilts)


class Messages(SiteCase):
    """Sizes in a unit that fits, errors that fit the command, whitespace that is not a prefix."""

    def test_budget_under_a_gibibyte_is_not_zero_gib(self):
        for nranks in (1, 2):
            p = ci.run_crd(ci.quiet(["run", self.site, "-o", self.tmp("m.h5"), "--memory", "64K"]), nranks=nranks,
                           check=False, mpi_quiet=True)
            self.assertNotEqual(p.returncode, 0)
            self.assertNotIn("0.00 GiB", p.stderr)
            self.assertIn("--memory 64 KiB", p.stderr)

    def test_compare_missing_input_does_not_suggest_skip_missing(self):
        p = run_single(["compare", self.site, self.tmp("absent")])
        self.assertEqual(p.returncode, 2, p.stderr)
        self.assertIn("absent", p.stderr)
        self.assertNotIn("--skip-missing", p.stderr)
        # Commands that have the option still name it.
        p = run_single(["run", self.site, self.tmp("absent"), "-o", self.tmp("r.h5")])
        self.assertEqual(p.returncode, 2, p.stderr)
        self.assertIn("--skip-missing", p.stderr)

    def test_whitespace_only_truth_names_no_prefix(self):
        labels = self.tmp("L.h5")
        ci.run_crd(ci.quiet(["label", self.site, "-o", labels]))
        for text in (" \n", "\t \r\n  \n", "   # a comment\n\f\n"):
            truth = self.tmp("truth.txt")
            with open(truth, "w") as f:
                f.write(text)
            for nranks in (1, 2):
                out = self.tmp("c.h5")
                p = ci.run_crd(["compare-hashing", self.site, "--labels", labels, "--truth", truth, "-o", out,
                                "--progress-interval", "0"], nranks=nranks, check=False, mpi_quiet=True)
                self.assertEqual(p.returncode, 2, p.stderr)
                self.assertEqual(p.stderr.strip().splitlines(),
                                 ["crd compare-hashing: error: truth file '%s' names no positive URL prefix" % truth])
                self.assertFalse(os.path.exists(out))


COMPARE_LINE = re.compile(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ crd compare: (~?)([\d.]+)% (~?)(\d+)/(\d+) chunks, "
                          r"\d+ chunks/s, ETA \d+ s$")


class CompareHashingProgress(unittest.TestCase):
    """compare-hashing prints progress lines while it compares chunks with the labels."""

    def test_progress_lines_with_a_tiny_interval(self):
        tmp = ci.TempDir("round3-progress")
        try:
            site = tmp("site")
            write_site(site, pages=40)
            labels = tmp("L.h5")
            ci.run_crd(ci.quiet(["label", site, "-o", labels]))
            with open(tmp("truth.txt"), "w") as f:
                f.write("h0.example\n")
            totals = {}
            for nranks in (1, 2):
                p = ci.run_crd(["compare-hashing", site, "--labels", labels, "--truth", tmp("truth.txt"),
                                "-o", tmp("c%d.h5" % nranks), "--progress-interval", "0.000001"], nranks=nranks)
                lines = [ln for ln in p.stderr.splitlines() if " crd compare: " in ln]
                self.assertGreaterEqual(len(lines), 2, p.stderr)
                matches = [COMPARE_LINE.match(ln) for ln in lines]
                self.assertTrue(all(matches), lines)
                done = [int(m.group(4)) for m in matches if not m.group(3)]
                self.assertEqual(done, sorted(done), "progress never goes backwards")
                final = matches[-1]
                self.assertEqual(final.group(2), "100.0")
                self.assertEqual(final.group(4), final.group(5))
                totals[nranks] = int(final.group(5))
                self.assertGreater(totals[nranks], 0)
            self.assertEqual(totals[1], totals[2], "the job's distinct chunks, whatever the rank count")
        finally:
            tmp.cleanup()


if __name__ == "__main__":
    ci.main()
