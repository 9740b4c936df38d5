# Whole-program hostile-input tests of the readers, round 4 (docs/hostile-input.md "Round
# 4", "Records beside a bad neighbour"): crd run over archives where good records sit beside bad
# ones and pages that warcio reads, at 1 and 2 ranks; a UTF-16 page under winnow gives the grams of
# its UTF-8 twin. Run: python3 test_round4_readers.py [TestClass…]  (CRD_BINARY set, as ctest does)
import os
import sys
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, "..", "support"))
import crd_integ as ci  # noqa: E402  (exits 77 without h5py)
from archives import arc_filedesc, arc_record, gzip_member, http_response, warc_record  # noqa: E402
from reader_runs import AtOneAndTwoRanks, read_with_crd_run, skipped  # noqa: E402  (tests/support)

HTML = b"Content-Type: text/html\r\n"


def page(i):
    return b"<html><body><p>Round four page %d, its own words number %d.</p><p>Second %d.</p></body></html>" % (i, i, i)


def response(uri, block, extra=b"", record_id=None):
    return warc_record(b"response", uri, block, b"application/http; msgtype=response", extra=extra,
                       record_id=record_id)


def chunked(data, size=50):
    return b"".join(b"%x\r\n%s\r\n" % (len(data[i:i + size]), data[i:i + size]) for i in range(0, len(data), size)) + \
        b"0\r\n\r\n"


def neighbours_warc():
    """(bytes, the keys crd must read, the skipped counters it must count)."""
    u = lambda i: b"http://r4.example/%d.html" % i  # noqa: E731
    k = lambda i: "r4.example/%d.html" % i  # noqa: E731
    cr_only = response(u(90), http_response(page(90))).replace(b"\r\n", b"\r")
    seg_block = http_response(page(12) + b"<p>" + b"segment text " * 200 + b"</p>")
    half = len(seg_block) // 2
    records = [
        response(u(1), http_response(page(1))),
        cr_only,                                                  # warc.bad_header, not merged into 2
        response(u(2), http_response(page(2))),
        b"WARC/1.0" + b"j" * 2048,                                # junk with no newline: warc.bad_header
        response(u(3), http_response(page(3))),
        response(u(4), http_response(chunked(gzip_member(page(4))), headers=HTML + b"Transfer-Encoding: gzip, chunked\r\n")),
        response(u(5), http_response(page(5), headers=HTML + b"Content-Encoding: gzip\r\n")),   # stored decoded
        response(u(6), http_response(page(6), headers=HTML + b"Content-Encoding: none\r\n")),
        response(u(7), http_response(chunked(page(7))[:-40], headers=HTML + b"Transfer-Encoding: chunked\r\n"),
                 extra=b"WARC-Truncated: length\r\n"),
        response(u(8), b"HTTP/1.1 100 Continue\r\n\r\n" + http_response(page(8))),
        response(u(9), http_response(page(9), status=b"2000 OK")),  # http.bad_response
        response(u(12), seg_block[:half], extra=b"WARC-Segment-Number: 1\r\n", record_id=b"r4-seg"),
        response(u(10), http_response(page(10))),
        warc_record(b"continuation", u(12), seg_block[half:], extra=b"WARC-Segment-Origin-ID: <urn:uuid:r4-seg>\r\n"
                    b"WARC-Segment-Number: 2\r\nWARC-Segment-Total-Length: %d\r\n" % len(seg_block)),
        warc_record(b"continuation", u(13), b"orphan part", extra=b"WARC-Segment-Origin-ID: <urn:uuid:r4-none>\r\n"
                    b"WARC-Segment-Number: 2\r\n"),                # warc.segmented
    ]
    zeros = response(u(11), http_response(page(11)))
    length = zeros.split(b"Content-Length: ")[1].split(b"\r\n")[0]
    records.append(zeros.replace(b"Content-Length: " + length, b"Content-Length: " + length.rjust(22, b"0"), 1))
    keys = [k(i) for i in (1, 2, 3, 4, 5, 6, 7, 8, 10, 11, 12)]
    skipped = {"skipped.warc.bad_header": 2, "skipped.http.bad_response": 1, "skipped.warc.segmented": 1}
    return b"".join(records), keys, skipped


def neighbours_arc():
    u = lambda i: b"http://r4arc.example/%d.html" % i  # noqa: E731
    long_url = b"http://r4arc.example/" + b"u" * 300000
    cr = http_response(page(22)).replace(b"\r\n", b"\r")
    data = (arc_filedesc(b"r4.arc") + arc_record(u(21), http_response(page(21))) +
            arc_record(long_url, http_response(page(29))) + arc_record(u(23), http_response(page(23))) +
            b"%s 192.0.2.1 20240101000000 text/html %d\r" % (u(22), len(cr)) + cr + b"\r" +
            arc_record(u(24), http_response(page(24))))
    keys = ["r4arc.example/%d.html" % i for i in (21, 23, 24)]
    return data, keys, {"skipped.arc.bad_header": 1, "skipped.http.bad_response": 1, "skipped.arc.filedesc": 1}


class BadNeighbours(AtOneAndTwoRanks, unittest.TestCase):
    """Every good record beside a bad one is read; every bad record is counted; pages warcio reads
    are read (raw WARC, one gzip member, ARC)."""

    @classmethod
    def setUpClass(cls):
        cls.tmp = ci.TempDir("round4-readers")
        cls.corpus = cls.tmp("corpus")
        os.makedirs(cls.corpus)
        warc, cls.warc_keys, cls.warc_skips = neighbours_warc()
        arc, cls.arc_keys, cls.arc_skips = neighbours_arc()
        with open(os.path.join(cls.corpus, "n.warc"), "wb") as f:
            f.write(warc)
        with open(os.path.join(cls.corpus, "g.warc.gz"), "wb") as f:
            f.write(gzip_member(warc.replace(b"r4.example", b"r4gz.example")))
        with open(os.path.join(cls.corpus, "a.arc"), "wb") as f:
            f.write(arc)

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def check(self, nranks):
        out = self.tmp("n%d.h5" % nranks)
        counters, errors, pages = read_with_crd_run(self, self.corpus, out, nranks, ["--chunk-threshold", "0"])
        want = sorted(self.warc_keys + [k.replace("r4.example", "r4gz.example") for k in self.warc_keys] + self.arc_keys)
        self.assertEqual(sorted(pages), want)
        self.assertEqual(pages["r4.example/12.html"], pages["r4gz.example/12.html"])
        expect = {k: 2 * v for k, v in self.warc_skips.items()}
        for k, v in self.arc_skips.items():
            expect[k] = expect.get(k, 0) + v
        self.assertEqual(skipped(counters), expect)
        for name, n in (("http.encoding_already_decoded", 2), ("http.unknown_encoding_as_identity", 2),
                        ("http.truncated_body_kept", 2), ("http.interim_response", 2), ("warc.segments_joined", 2)):
            self.assertEqual(counters.get(name), n, name)


class WinnowUtf16(AtOneAndTwoRanks, unittest.TestCase):
    """A UTF-16 page under --chunker winnow gives the grams of the same text in UTF-8."""

    def check(self, nranks):
        tmp = ci.TempDir("round4-winnow")
        try:
            text = ("<html><body><p>" + " ".join("wort%d grüße" % i for i in range(40)) + "</p></body></html>")
            os.makedirs(tmp("site/u8.example"))
            os.makedirs(tmp("site/u16.example"))
            with open(tmp("site/u8.example/p.html"), "wb") as f:
                f.write(text.encode("utf-8"))
            with open(tmp("site/u16.example/p.html"), "wb") as f:
                f.write(b"\xff\xfe" + text.encode("utf-16-le"))
            out = tmp("w.h5")
            counters, _, pages = read_with_crd_run(self, tmp("site"), out, nranks,
                                                   ["--chunker", "winnow", "--chunk-threshold", "0"])
            self.assertGreater(pages["u8.example/p.html"], 5)
            self.assertEqual(pages["u16.example/p.html"], pages["u8.example/p.html"])
            with ci.h5py.File(out, "r") as f:
                labeled = f["detection/pages/labeled"][:]
            self.assertTrue(all(int(x) == pages["u8.example/p.html"] for x in labeled), labeled)
        finally:
            tmp.cleanup()


if __name__ == "__main__":
    ci.main()
