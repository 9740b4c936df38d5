# Issue 30: every kind of file the real samples under ../shared show (wget- and wpull-style WARCs,
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
                errors = r.table(R.ERRORS, decode="surrogateescape")
                self.assertEqual(len(errors["file"]), want["errors"], errors)
                self.assertTrue(all(f == self.paths[name] for f in errors["file"]))
                pages = r.table(R.PAGES, decode="surrogateescape")
                self.assertEqual(sorted(pages["url"]), sorted(u for u in want["urls"] if u in self.html_urls(name)))

    def html_urls(self, name):
        """The expected documents that are pages crd chunks (HTML), as opposed to JSON, text, images."""
        html = {"wget-1-14.warc.gz": {"http://example.com/"}, "wpull.warc.gz": {"http://example.com/"}}
        return html.get(name, set(archives.SAMPLE_SHAPES[name][1]["urls"]))


if __name__ == "__main__":
    ci.main()
