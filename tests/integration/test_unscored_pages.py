# Every page detect does not score is counted with its reason. A page whose sentences are all
# shorter than --min-chunk-length (the 100-byte rule of informed runs, docs/validation.md) has
# sentences, but none left after stop removal: it is counted as detect.pages.only_stop_chunks. A
# page with no visible text at all is counted by the chunker (skipped.sentence.none). Counters and
# pages are identical at 1 and 2 ranks; without the stop rule the short page is scored and the
# counter is absent.
import os
import unittest

import crd_integ as ci

LONG = ("The write-ahead log records every change to the data files before the change itself is written, "
        "so that a crash can be repaired by replaying it. ")
LONG2 = ("Checkpoints bound the amount of log that must be replayed after a crash, at the price of writing "
         "every dirty page of the shared buffers at once. ")
SITE_PAGE = "<html><body><p>%s%s</p><p>See below. Read on.</p></body></html>" % (LONG, LONG2)
SENTENCE = ["--chunker", "sentence", "--min-chunk-length", "100"]


def write(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)


class UnscoredPagesCounted(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = ci.TempDir("unscored-pages")
        write(cls.tmp("site", "site.example", "wal.html"), SITE_PAGE)
        write(cls.tmp("corpus", "copy.example", "wal.html"), SITE_PAGE)
        # Sentences, every one shorter than 100 bytes: all stop chunks under the 100-byte rule.
        write(cls.tmp("corpus", "short.example", "nav.html"),
              "<html><body><p>See below. Read on.</p><p>Next: the log. Previous: the buffers.</p></body></html>")
        # No visible text: the chunker emits nothing (its own skip reason).
        write(cls.tmp("corpus", "empty.example", "blank.html"), "<html><body><img src=x.png></body></html>")
        cls.labels = {}
        for name, extra in (("stop", SENTENCE), ("all", ["--chunker", "sentence"])):
            cls.labels[name] = cls.tmp("L-%s.h5" % name)
            ci.run_crd(ci.quiet(["label", cls.tmp("site"), "-o", cls.labels[name]] + extra), timeout=120)

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def detect(self, nranks, name, extra):
        out = self.tmp(name)
        ci.run_crd(ci.quiet(["detect", self.tmp("corpus"), "--labels", self.labels[name.split("-")[0]], "-o", out,
                             "--page-threshold", "binomial"] + extra), nranks=nranks, timeout=300)
        r = ci.open_results(out)
        return sorted(r.pages["url"]), dict(r.counters)

    def test_page_of_stop_chunks_counted_at_1_and_2_ranks(self):
        got = [self.detect(n, "stop-%d.h5" % n, SENTENCE) for n in (1, 2)]
        self.assertEqual(got[0], got[1])
        urls, counters = got[0]
        self.assertEqual(urls, ["copy.example/wal.html"])
        self.assertEqual(counters.get("detect.pages.only_stop_chunks"), 1)
        self.assertEqual(counters.get("skipped.sentence.none"), 1)

    def test_without_the_stop_rule_the_short_page_is_scored(self):
        urls, counters = self.detect(1, "all-1.h5", ["--chunker", "sentence"])
        self.assertEqual(urls, ["copy.example/wal.html", "short.example/nav.html"])
        self.assertNotIn("detect.pages.only_stop_chunks", counters)
        self.assertEqual(counters.get("skipped.sentence.none"), 1)


if __name__ == "__main__":
    ci.main()
