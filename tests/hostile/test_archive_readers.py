# Whole-program hostile-input tests of the archive readers, round 3 (docs/hostile-input.md,
# "Round 3: readers"): a length whose declared end lies past the end of the file costs
# one record in every layout, at 1 and 2 ranks; an ARC written without separators with wrong
# lengths keeps the true URLs; 10^6 lines of "WARC/1.0" are read in linear time.
# Run: python3 test_archive_readers.py [TestClass…]  (CRD_BINARY set, as ctest does)
import os
import sys
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, "..", "support"))
import crd_integ as ci  # noqa: E402  (exits 77 without h5py)
from archives import arc_filedesc, arc_header, gzip_member, http_response, warc_record  # noqa: E402
from make_corpus import response  # noqa: E402
from reader_runs import AtOneAndTwoRanks, read_with_crd_run, skipped  # noqa: E402  (tests/support)

RECORDS = 300
PAST_END = 9000000  # a 9 before a 7-digit length: far past the end of these files, under the limit
OVER_LIMIT = 100000000  # past the end too, and over the default --max-record-bytes (64 MiB)


def page(i):
    """A distinct page per record, so every record is its own page in /detection/pages."""
    items = b"".join(b"<p>item %d of page %d: %s</p>" % (j, i, b"text " * (5 + (i + j) % 7)) for j in range(4))
    return b"<html><head><title>Page %d</title></head><body>%s</body></html>" % (i, items)


def url(host, i):
    return b"http://%s/%d.html" % (host.encode(), i)


def key(host, i):
    return "%s/%d.html" % (host, i)


def warc_records(host, bad):
    """RECORDS response records; `bad` maps a record's index to the bytes added to its length."""
    out = []
    for i in range(RECORDS):
        block = http_response(page(i))
        out.append(warc_record("response", url(host, i), block, b"application/http; msgtype=response",
                               length=len(block) + bad[i] if i in bad else None))
    return out


def arc_records(host, bad, separator=True):
    out = [arc_filedesc(host + ".arc")]
    for i in range(RECORDS):
        content = http_response(page(i))
        out.append(arc_header(url(host, i), len(content) + bad.get(i, 0)) + content + (b"\n" if separator else b""))
    return out


def write(path, records, layout):
    """layout: "raw", "members" (one gzip member per record) or "one" (one member)."""
    with open(path, "wb") as f:
        if layout == "raw":
            f.write(b"".join(records))
        elif layout == "members":
            f.write(b"".join(gzip_member(r) for r in records))
        else:
            f.write(gzip_member(b"".join(records)))


class LengthPastEndOfFile(AtOneAndTwoRanks, unittest.TestCase):
    """One record of 300 declares an end past the end of its file (record 0, 55 or
    290 by 9,000,000 bytes; 298 by 10; 55 by 100,000,000, over the record limit): only that record
    is lost, counted as bad_length, in raw WARC, per-record and one-member .warc.gz, ARC and
    .arc.gz. Before the fix every record after it was dropped as one `truncated` (or, over the
    limit in one gzip member, `record_too_large`)."""

    @classmethod
    def setUpClass(cls):
        cls.tmp = ci.TempDir("round3-length")
        root = cls.tmp("in")
        os.makedirs(root)
        cls.want = set()
        cls.bad = set()
        cls.reasons = []  # one per file: the reason its bad record is counted under
        for layout in ("raw", "members", "one"):
            for bad_at, extra in ((0, PAST_END), (55, PAST_END), (290, PAST_END), (298, 10), (55, OVER_LIMIT)):
                host = "w-%s-%d-%d.example" % (layout, bad_at, extra)
                name = "%s.warc%s" % (host, "" if layout == "raw" else ".gz")
                write(os.path.join(root, name), warc_records(host, {bad_at: extra}), layout)
                cls.note(host, bad_at, "warc.bad_length")
            for bad_at, extra in ((0, PAST_END), (55, PAST_END), (290, PAST_END), (55, OVER_LIMIT)):
                host = "a-%s-%d-%d.example" % (layout, bad_at, extra)
                name = "%s.arc%s" % (host, "" if layout == "raw" else ".gz")
                write(os.path.join(root, name), arc_records(host, {bad_at: extra}), layout)
                cls.note(host, bad_at, "arc.bad_length")
        cls.root = root

    @classmethod
    def note(cls, host, bad_at, reason):
        cls.reasons.append(reason)
        for i in range(RECORDS):
            (cls.bad if i == bad_at else cls.want).add(key(host, i))

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def check(self, nranks):
        out = self.tmp("o%d.h5" % nranks)
        counters, errors, pages = read_with_crd_run(self, self.root, out, nranks)
        self.assertEqual(set(pages) & self.bad, set(), "a record with a wrong length was used")
        missing = sorted(self.want - set(pages))
        self.assertEqual(missing, [], "%d good records lost, e.g. %s" % (len(missing), missing[:5]))
        arc_files = self.reasons.count("arc.bad_length")
        self.assertEqual(skipped(counters), {"skipped.warc.bad_length": len(self.reasons) - arc_files,
                                             "skipped.arc.bad_length": arc_files, "skipped.arc.filedesc": arc_files})
        self.assertEqual(sorted(r for _, _, r in errors), sorted(self.reasons))


class ArcWithoutSeparators(AtOneAndTwoRanks, unittest.TestCase):
    """An ARC written without '\\n' after each record's content, where one length is
    7 bytes short and one 3 bytes long. The next header then starts inside a line ("</html>http://",
    or "p://" after the long one); before the fix it was read with that URL and nothing counted."""

    def check(self, nranks):
        tmp = ci.TempDir("round3-nosep")
        try:
            os.makedirs(tmp("in"))
            want = set()
            for layout in ("raw", "members", "one"):
                host = "nosep-%s.example" % layout
                records = arc_records(host, {40: -7, 80: 3}, separator=False)
                write(tmp("in", host + (".arc" if layout == "raw" else ".arc.gz")), records, layout)
                want |= {key(host, i) for i in range(RECORDS) if i not in (40, 80)}
            out = tmp("o.h5")
            counters, _, pages = read_with_crd_run(self, tmp("in"), out, nranks)
            self.assertEqual(sorted(set(pages) - want), [], "pages under a wrong URL")
            self.assertEqual(sorted(want - set(pages)), [], "good records lost")
            self.assertEqual(counters.get("skipped.arc.bad_length"), 2 * 3)
        finally:
            tmp.cleanup()


class QuadraticResync(unittest.TestCase):
    """A good record, 10^6 lines of "WARC/1.0", a good record. Every line starts a
    record whose header has no blank line within 256 KiB; each made the header search rescan the
    whole read buffer (110,000 lines: 28.8 s; 10^6 lines: over 60 s). Now each byte is scanned once:
    about a second. The timeout (well above that, far below the quadratic time) is the check."""

    LINES = 10 ** 6

    def check(self, gz):
        tmp = ci.TempDir("round3-resync")
        try:
            data = (response(b"http://first.example/", page(1)) + b"WARC/1.0\r\n" * self.LINES
                    + response(b"http://last.example/", page(2)))
            path = tmp("lines.warc" + (".gz" if gz else ""))
            with open(path, "wb") as f:
                f.write(gzip_member(data) if gz else data)
            out = tmp("o.h5")
            counters, _, pages = read_with_crd_run(self, path, out, timeout=45)
            self.assertEqual(set(pages), {"first.example", "last.example"})
            self.assertEqual(counters.get("skipped.warc.bad_header"), self.LINES)
        finally:
            tmp.cleanup()

    def test_raw(self):
        self.check(False)

    def test_one_gzip_member(self):
        self.check(True)


if __name__ == "__main__":
    ci.main()
