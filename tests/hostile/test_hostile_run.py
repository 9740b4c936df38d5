# Whole-program hostile-input tests: `crd run` under mpirun over damaged archives, hostile pages and
# hostile URLs (tests/hostile/make_corpus.py) must exit 0, skip and count each bad case under its
# reason, list it in /run/errors with file and offset, and still process every good page; usage
# errors must print one line and write nothing. Run: python3 test_hostile_run.py [TestClass…]
import glob
import gzip
import os
import sys
import time
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "support"))
import crd_integ as ci  # noqa: E402  (exits 77 without h5py)
import make_corpus  # noqa: E402

h5py = ci.h5py
MAX_RECORD_BYTES = 6 << 20
NRANKS = 2


def run(args, nranks=None, timeout=900, env=None):
    """crd (under mpirun when nranks is given), unchecked: the CompletedProcess, text mode."""
    return ci.run_crd(args, nranks=nranks, check=False, timeout=timeout, env=env)


class HostileCorpus(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = ci.TempDir("hostile")
        cls.corpus = make_corpus.build(cls.tmp("corpus"), MAX_RECORD_BYTES)
        cls.results = {}
        # scan-tiny: archive streams with 64-byte buffers and reads, moved on every refill (the
        # ByteStream test knob), so every record crosses the buffer's end.
        for variant, env in (("scan", None), ("dom", None), ("scan-tiny", {"CRD_TEST_STREAM_BYTES": "64"})):
            chunker = variant.split("-")[0]
            out = cls.tmp(variant + ".h5")
            p = run(["run", cls.corpus.root, "-o", out, "--chunker", chunker, "--chunk-threshold", "0",
                     "--max-record-bytes", str(MAX_RECORD_BYTES), "--progress-interval", "0"], nranks=NRANKS,
                    env=env)
            cls.results[variant] = (p, out)

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def result(self, variant):
        p, out = self.results[variant]
        self.assertEqual(p.returncode, 0, "crd run (%s) failed:\n%s" % (variant, p.stderr[-4000:]))
        return ci.run_summary(out)

    def check_reading(self, variant):
        chunker = variant.split("-")[0]
        counters, errors, _, _ = self.result(variant)
        expected = sorted(self.corpus.errors)
        self.assertEqual(errors, expected, "the /run/errors rows differ from the damage planted")
        by_reason = {}
        for _, _, reason in expected:
            by_reason["skipped." + reason] = by_reason.get("skipped." + reason, 0) + 1
        planted = dict(self.corpus.skips)
        planted.update(self.corpus.chunker_skips[chunker])
        for name, n in list(by_reason.items()) + list(planted.items()):
            self.assertEqual(counters.get(name, 0), n, name)
        for name, value in counters.items():  # nothing skipped for a reason not planted
            if name.startswith("skipped.") and value:
                self.assertIn(name, set(by_reason) | set(planted), "unexpected %s=%d" % (name, value))
        for name, n in self.corpus.cleaning.items():
            self.assertEqual(counters.get(name, 0), n, name)

    def check_pages(self, variant):
        chunker = variant.split("-")[0]
        _, _, pages, _ = self.result(variant)
        for key, chunks in sorted(self.corpus.pages.items()):
            want = chunks[chunker]
            if want == 0:
                self.assertNotIn(key, pages, "page %r should have no chunks" % key)
                continue
            self.assertIn(key, pages, "page %r missing from /detection/pages" % key)
            if want is None:
                self.assertGreaterEqual(pages[key], 1, key)
            else:
                self.assertEqual(pages[key], want, "chunks of %r" % key)

    def test_scan_reading(self):
        self.check_reading("scan")

    def test_dom_reading(self):
        self.check_reading("dom")

    def test_scan_pages(self):
        self.check_pages("scan")

    def test_dom_pages(self):
        self.check_pages("dom")

    def test_tiny_buffers_reading(self):
        self.check_reading("scan-tiny")

    def test_tiny_buffers_pages(self):
        self.check_pages("scan-tiny")

    def test_tiny_buffers_equal_production(self):
        """Buffer sizes change nothing in the result but the bytes read from disk."""
        a, _ = ci.read_all(self.results["scan"][1])
        b, _ = ci.read_all(self.results["scan-tiny"][1])
        for group in (ci.results.DISCOVERY, ci.results.DETECTION):
            names = [n for n in a if n.startswith(group + "/")]
            self.assertTrue(names)
            for name in names:
                self.assertEqual(a[name].tolist(), b[name].tolist(), name)

    def test_dom_decodes_declared_charsets(self):
        _, _, _, samples = self.result("dom")
        self.assertIn("café crème brûlée", samples)
        self.assertIn("日本語のテキスト", samples)

    def test_no_temporaries_left(self):
        self.assertEqual(glob.glob(self.tmp("*.tmp-*")), [])


class UsageErrors(unittest.TestCase):
    """Each usage error: exit status ≠ 0, exactly one line on stderr, no output file."""

    def setUp(self):
        self.tmp = ci.TempDir("usage")
        self.out = self.tmp("out.h5")
        self.page = self.tmp("site")
        os.makedirs(self.page)
        with open(os.path.join(self.page, "index.html"), "wb") as f:
            f.write(make_corpus.GOOD_PAGE)

    def tearDown(self):
        self.tmp.cleanup()

    def assert_usage_error(self, args, out=None):
        out = out or self.out
        p = run(args)
        self.assertNotEqual(p.returncode, 0, "%s succeeded" % args)
        lines = [ln for ln in p.stderr.splitlines() if ln.strip()]
        self.assertEqual(len(lines), 1, "stderr of %s:\n%s" % (args, p.stderr))
        self.assertFalse(os.path.exists(out), "%s left %s" % (args, out))
        self.assertEqual(glob.glob(out + ".tmp-*"), [])
        return lines[0]

    def test_unknown_option(self):
        self.assert_usage_error(["run", self.page, "-o", self.out, "--no-such-option", "1"])

    def test_unknown_chunker(self):
        self.assert_usage_error(["run", self.page, "-o", self.out, "--chunker", "regex"])

    def test_missing_input(self):
        self.assert_usage_error(["run", self.tmp("absent"), "-o", self.out])

    def test_missing_list_file(self):
        self.assert_usage_error(["run", "@" + self.tmp("absent.txt"), "-o", self.out])

    def test_output_dir_missing(self):
        out = self.tmp("no", "such", "dir", "out.h5")
        self.assert_usage_error(["run", self.page, "-o", out], out=out)

    def test_output_parent_is_a_file(self):
        out = os.path.join(self.page, "index.html", "out.h5")
        self.assert_usage_error(["run", self.page, "-o", out], out=out)

    def test_labels_file_is_text(self):
        labels = self.tmp("labels.h5")
        with open(labels, "w") as f:
            f.write("this is not an HDF5 file\n")
        self.assert_usage_error(["detect", "--labels", labels, self.page, "-o", self.out])

    def test_labels_file_is_foreign_hdf5(self):
        labels = self.tmp("foreign.h5")
        with h5py.File(labels, "w") as f:
            f["data"] = [1, 2, 3]
        self.assert_usage_error(["detect", "--labels", labels, self.page, "-o", self.out])


class DenialOfService(unittest.TestCase):
    """Inputs built to make crd slow (docs/hostile-input.md, "Bugs found"; both fixed)."""

    def test_false_gzip_members_are_read_once(self):
        """After a damaged gzip member the reader resynchronises from the member's start + 1; an
        earlier version re-read a whole 1 MiB input buffer from disk for every false gzip header
        (~5 s per MiB of them). Now a target still in the buffer is reached without the disk."""
        tmp = ci.TempDir("falsegz")
        try:
            good = make_corpus.response(b"http://ok.example/first", make_corpus.GOOD_PAGE)
            unit = b"\x1f\x8b\x08\x00" + bytes(range(7, 19))  # a gzip header, then non-deflate bytes
            data = gzip.compress(good, mtime=0) + unit * (1 << 16)  # 1 MiB of false members
            path = tmp("false_members.warc.gz")
            with open(path, "wb") as f:
                f.write(data)
            out = tmp("o.h5")
            p = run(["run", path, "-o", out, "--progress-interval", "0"], timeout=600)
            self.assertEqual(p.returncode, 0, p.stderr)
            counters, _, pages, _ = ci.run_summary(out)
            self.assertIn("ok.example/first", pages)
            self.assertLessEqual(counters["input.bytes"], 2 * len(data),
                                 "input.bytes=%d for a %d-byte file" % (counters["input.bytes"], len(data)))
        finally:
            tmp.cleanup()

    def test_dom_chunker_is_not_quadratic_in_nesting(self):
        """gumbo 0.10.1 walks its stack of open elements for every start tag, so parsing is
        quadratic in nesting depth (100 000 nested <div>, a 1.1 MB page: ~95 s). The dom chunker
        skips pages nested deeper than 4096 elements (browsers cap depth too), counted as
        skipped.dom.too_deep; the file is still hashed. A flat 4 MB page of 10^6 <p> takes ~4 s,
        so a 60 000-deep page (0.66 MB) must not take more than 15 s."""
        tmp = ci.TempDir("deep")
        try:
            depth = 60000
            site = tmp("deep.example")
            os.makedirs(site)
            with open(os.path.join(site, "index.html"), "wb") as f:
                f.write(b"<div>" * depth + b"deep" + b"</div>" * depth)
            out = tmp("o.h5")
            start = time.monotonic()
            p = run(["run", tmp.path, "-o", out, "--chunker", "dom", "--progress-interval", "0"], timeout=900)
            seconds = time.monotonic() - start
            self.assertEqual(p.returncode, 0, p.stderr)
            self.assertLess(seconds, 15.0, "dom chunker took %.1f s on %d nested <div>" % (seconds, depth))
            counters, _, _, _ = ci.run_summary(out)
            self.assertEqual(counters.get("skipped.dom.too_deep"), 1)
            self.assertEqual(counters.get("documents"), 1, "the page is still read and file-hashed")
        finally:
            tmp.cleanup()


if __name__ == "__main__":
    ci.main()
