# The combined mode (docs/winnow.md, "Deletions: the combined mode"): `--chunker winnow+scan` labels
# and scores a page's exact chunks and its winnowed grams together, and flags a page when either
# part passes the binomial test. A copy cut down to two short paragraphs (whole chunks deleted, the
# rest verbatim) keeps one fingerprint, which no binomial test on grams can flag, but its three
# exact chunks are all copied: flagged. Edited copies are still flagged by their grams; pages that
# share the site's template chunk and a phrase are not; identical at 1 and 2 ranks.
# The exact part's 100-byte rule (--exact-min-length, the default 100): exact chunks shorter than
# 100 bytes are stop chunks, so unrelated pages sharing the site's short navigation chunks are not
# flagged, while copies cut down to long paragraphs still are; the two-short-paragraph cut above is
# flagged only with --exact-min-length 0.
import random
import re
import unittest

import crd_integ as ci
from test_winnow import edited, vocabulary_word, write

COMBINED = ["--chunker", "winnow+scan"]
NO_EXACT_MIN = ["--exact-min-length", "0"]
NAV = "<div>Home</div><div>Next</div><div>Previous</div><div>Up</div><div>Index</div><div>Contents</div>\n"


def paragraph(rng, words):
    return "<p>" + " ".join(vocabulary_word(rng) for _ in range(words)) + ".</p>\n"


def site_page(rng):
    # Four long paragraphs and six short ones (list items, captions): the short ones hold too few
    # words for a window of grams.
    parts = [paragraph(rng, 40) for _ in range(4)] + [paragraph(rng, 7) for _ in range(6)]
    rng.shuffle(parts)
    return "<html><body>" + "".join(parts) + "</body></html>"


def cut(html, keep):
    """The page with every paragraph but `keep` (indices among its paragraphs) deleted whole: its
    spans from one <p> to the next kept verbatim, as validation/paper_validation.py deletes."""
    head, body = html.split("<p>", 1)
    spans = ["<p>" + p for p in body.split("<p>")]
    return head + "".join(spans[i] for i in keep)


class WinnowCombined(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = ci.TempDir("winnow-combined")
        rng = random.Random(4302)
        cls.site = {"p%d.html" % i: site_page(rng) for i in range(8)}
        for name, html in cls.site.items():
            write(cls.tmp("site", "site.example", name), html)
            write(cls.tmp("corpus", "edit.example", name), edited(html, rng))
            paragraphs = re.findall(r"<p>.*?</p>", html)
            short = [i for i, p in enumerate(paragraphs) if len(p.split()) < 10]
            write(cls.tmp("corpus", "cut.example", name), cut(html, sorted(rng.sample(short, 2))))
            long_ones = [i for i, p in enumerate(paragraphs) if len(p.split()) > 20]
            write(cls.tmp("corpus", "longcut.example", name), cut(html, sorted(rng.sample(long_ones, 2))))
        # The site's index page carries its navigation chunks (short labeled chunks).
        write(cls.tmp("site", "site.example", "index.html"), "<html><body>%s%s</body></html>" % (NAV, paragraph(rng, 40)))
        phrases = [m.split() for n in sorted(cls.site) for m in re.findall(r"<p>(.*?)</p>", cls.site[n])
                   if len(m.split()) > 20]
        for i in range(40):
            # The site's template chunk (<html><body>) and one 6-word phrase of a site paragraph.
            words = rng.choice(phrases)
            at = rng.randrange(len(words) - 6)
            words = [vocabulary_word(rng) for _ in range(25)] + words[at:at + 6] + [vocabulary_word(rng) for _ in range(25)]
            write(cls.tmp("corpus", "chance.example", "p%d.html" % i),
                  "<html><body><p>%s</p>\n%s</body></html>" % (" ".join(words), paragraph(rng, 30)))
            # An unrelated page under the same documentation generator: the site's navigation
            # chunks (6 short labeled chunks) and its own text.
            write(cls.tmp("corpus", "nav.example", "p%d.html" % i),
                  "<html><body>%s%s%s</body></html>" % (NAV, paragraph(rng, 30), paragraph(rng, 30)))
        cls.labels = {}
        for name, chunker in (("combined", COMBINED), ("winnow", ["--chunker", "winnow"])):
            cls.labels[name] = cls.tmp("L-%s.h5" % name)
            ci.run_crd(ci.quiet(["label", cls.tmp("site"), "-o", cls.labels[name]] + chunker), timeout=120)

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def detect(self, nranks, name, chunker, labels, extra=()):
        out = self.tmp(name)
        ci.run_crd(ci.quiet(["detect", self.tmp("corpus"), "--labels", labels, "-o", out] + chunker + list(extra)),
                   nranks=nranks, timeout=300)
        return out

    def flagged(self, path, host):
        pages = ci.open_results(path).pages
        mine = pages[pages["url"].str.startswith(host + "/")]
        return sorted(mine[mine["flagged"] == 1]["url"]), len(mine)

    def test_deletions_flagged_by_their_exact_chunks(self):
        one = self.detect(1, "c1.h5", COMBINED, self.labels["combined"], NO_EXACT_MIN)
        a = ci.open_results(one).detection_attrs
        self.assertEqual((a["page_threshold_rule"], a["page_threshold_chosen"]), ("binomial:0.01:0.0001", 0))
        every = ["%s/p%d.html" % ("%s", i) for i in range(8)]
        self.assertEqual(self.flagged(one, "cut.example"), ([u % "cut.example" for u in every], 8))
        self.assertEqual(self.flagged(one, "edit.example"), ([u % "edit.example" for u in every], 8))
        self.assertEqual(self.flagged(one, "chance.example"), ([], 40))
        pages = ci.open_results(one).pages
        cut_pages = pages[pages["url"].str.startswith("cut.example/")]
        # Three exact chunks (the template and two paragraphs), all labeled, and one fingerprint
        # (14 words: fewer grams than a window), which may cross the cut.
        self.assertEqual(set(cut_pages["chunks"]), {4})
        self.assertEqual(set(cut_pages["labeled"]) - {3, 4}, set())
        two = self.detect(2, "c2.h5", COMBINED, self.labels["combined"], NO_EXACT_MIN)
        ci.assert_same_datasets(self, ci.comparable(one)[0], ci.comparable(two)[0], "at np=2")

    def test_short_template_chunks_are_no_copied_paragraphs(self):
        every = ["%s/p%d.html" % ("%s", i) for i in range(8)]
        off = self.detect(1, "n0.h5", COMBINED, self.labels["combined"], NO_EXACT_MIN)
        self.assertEqual(len(self.flagged(off, "nav.example")[0]), 40, "6 of 9 exact chunks labeled")
        for nranks in (1, 2):
            on = self.detect(nranks, "n%d.h5" % nranks, COMBINED, self.labels["combined"], ["--shuffle-buffer", "4096"])
            self.assertIn("\nexact-min-length = 100\n", ci.open_results(on).attrs["config"])
            self.assertEqual(self.flagged(on, "nav.example"), ([], 40))
            self.assertEqual(self.flagged(on, "longcut.example"), ([u % "longcut.example" for u in every], 8))
            self.assertEqual(self.flagged(on, "edit.example"), ([u % "edit.example" for u in every], 8))
            self.assertEqual(self.flagged(on, "chance.example"), ([], 40))
        ci.assert_same_datasets(self, ci.comparable(self.tmp("n1.h5"))[0], ci.comparable(self.tmp("n2.h5"))[0], "at np=2")

    def test_grams_alone_miss_them(self):
        out = self.detect(1, "w1.h5", ["--chunker", "winnow"], self.labels["winnow"])
        self.assertEqual(self.flagged(out, "cut.example"), ([], 8))
        self.assertEqual(len(self.flagged(out, "edit.example")[0]), 8)

    def test_labels_of_another_chunking_are_refused(self):
        r = ci.run_crd(["detect", self.tmp("corpus"), "--labels", self.labels["winnow"], "-o", self.tmp("x.h5")] + COMBINED,
                       check=False)
        self.assertEqual(r.returncode, 2, r.stderr)
        self.assertIn("chunker=winnow+scan", r.stderr)

    def test_needs_the_binomial_rule(self):
        r = ci.run_crd(["detect", self.tmp("corpus"), "--labels", self.labels["combined"], "-o", self.tmp("y.h5"),
                        "--page-threshold", "auto"] + COMBINED, check=False)
        self.assertEqual(r.returncode, 2, r.stderr)
        self.assertIn("binomial", r.stderr)

    def test_check_refuses_the_combined_chunker(self):
        r = ci.run_crd(["check", self.tmp("corpus", "cut.example", "p0.html"), "--labels", self.labels["combined"]] + COMBINED,
                       check=False)
        self.assertEqual(r.returncode, 2, r.stderr)
        self.assertIn("winnow+scan", r.stderr)


if __name__ == "__main__":
    ci.main()
