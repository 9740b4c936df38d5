# Every kind of file the real samples under ../shared show (wget- and wpull-style WARCs,
# revisits, URL-agnostic revisits, a missing separator, POST captures, resource records, gzip
# content encoding, a status line without reason text, a bad status line, a wrong Content-Length,
# one gzip member for a whole file, ARC and ARC.gz, a bad ARC, a site crawl) is also built by
# tests/support/archives.py, and crd reads each as expected: records, documents, every skip reason,
# the /run/errors rows and the documents' URLs. Needs no ../shared and no corpus.
import os
import unittest

import crd_integ as ci
from crd_integ import results as R

import archives


class SampleShapes(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = ci.TempDir("shapes")
        cls.paths = {os.path.basename(p): p for p in ci.sample_archives(cls.tmp)}

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def read(self, name):
        out = self.tmp(name + ".h5")
        ci.run_crd(ci.quiet(["run", self.paths[name], "--chunk-threshold", "0", "--file-threshold", "0",
                             "--min-labeled", "0", "-o", out]))
        return ci.open_results(out)

    def test_each_shape_reads_as_expected(self):
        for name, (_, want) in sorted(archives.SAMPLE_SHAPES.items()):
            with self.subTest(name):
                r = self.read(name)
                counters = r.counters.to_dict()
                self.assertEqual(counters.get("records", 0), want["records"], counters)
                self.assertEqual(counters.get("documents", 0), want["documents"], counters)
                skips = {k[len("skipped."):]: v for k, v in counters.items() if k.startswith("skipped.") and v}
                self.assertEqual(skips, want["skips"])
                for counter, value in want["notes"].items():
                    self.assertEqual(counters.get(counter, 0), value, counter)
                errors = r.table(R.ERRORS, decode="surrogateescape")
                order = sorted(range(len(errors["offset"])), key=lambda i: int(errors["offset"][i]))
                self.assertEqual([errors["reason"][i] for i in order], want["errors"])
                self.assertTrue(all(f == self.paths[name] for f in errors["file"]))
                self.assertEqual(sorted(r.table(R.PAGES, decode="surrogateescape")["url"]), want["pages"])

    def test_errors_point_at_the_damaged_record(self):
        # bad-length.warc: the row's offset is where the short request record starts.
        r = self.read("bad-length.warc")
        errors = r.table(R.ERRORS)
        with open(self.paths["bad-length.warc"], "rb") as f:
            data = f.read()
        at = int(errors["offset"][0])
        self.assertEqual(data[at:at + 8], b"WARC/1.0")
        self.assertIn(b"m\r\n\r\n\r\n", data[at:at + 400])  # the 3 bytes past its declared length

    def test_plain_and_gzip_arc_give_the_same_pages_and_chunks(self):
        a, b = self.read("sample.arc"), self.read("sample.arc.gz")
        self.assertEqual(a.table(R.PAGES)["url"].tolist(), b.table(R.PAGES)["url"].tolist())
        self.assertEqual(a.table(R.PAGES)["chunks"].tolist(), b.table(R.PAGES)["chunks"].tolist())
        self.assertGreater(int(a.table(R.PAGES)["chunks"][0]), 1)


if __name__ == "__main__":
    ci.main()
