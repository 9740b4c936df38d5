# The page rule by default (docs/winnow.md, "The page threshold"): `--chunker winnow` without
# --page-threshold flags by the binomial rule in detect, run and check, /config and
# /detection@page_threshold_chosen record that the rule was the default, and an explicit
# --page-threshold (here auto) is kept and recorded as chosen; the default run is identical at 1 and
# 2 ranks. Before, the default was auto (mean + σ) in detect and 0 (any labeled gram) in check.
import random
import re
import unittest

import crd_integ as ci
from test_winnow import WINNOW, DetectsWinnow, edited, page, vocabulary_word, write

DEFAULT_NOTE = "# page-threshold not given: binomial is the default with --chunker winnow"


class WinnowDefaultRule(DetectsWinnow, unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = ci.TempDir("winnow-default-rule")
        rng = random.Random(4343)
        site = {"p%d.html" % i: page(rng) for i in range(8)}
        for name, html in site.items():
            write(cls.tmp("site", "site.example", name), html)
            write(cls.tmp("corpus", "copy.example", name), edited(html, rng))
        paragraphs = [m.split() for n in sorted(site) for m in re.findall(r"<p>(.*?)</p>", site[n])]
        for i in range(40):
            # One 6-word phrase of the site among 50 words of their own: at most 2 labeled grams.
            words = rng.choice(paragraphs)
            at = rng.randrange(len(words) - 6)
            words = [vocabulary_word(rng) for _ in range(25)] + words[at:at + 6] + [vocabulary_word(rng) for _ in range(25)]
            write(cls.tmp("corpus", "chance.example", "p%d.html" % i), "<html><body><p>%s</p></body></html>" % " ".join(words))
        cls.labels = cls.tmp("L.h5")
        ci.run_crd(ci.quiet(["label", cls.tmp("site"), "-o", cls.labels] + WINNOW), timeout=120)

    def test_winnow_without_a_page_threshold_flags_by_the_binomial_rule(self):
        r = self.detect(1, "default.h5")
        a = r.detection_attrs
        self.assertEqual(a["page_threshold_rule"], "binomial:0.01:0.0001")
        self.assertEqual(a["page_threshold_chosen"], 0)
        config = r.attrs["config"]
        self.assertIn(DEFAULT_NOTE, config)
        self.assertIn("\npage-threshold = binomial\n", config)
        pages = r.pages
        copy = pages[pages["url"].str.startswith("copy.example/")]
        chance = pages[pages["url"].str.startswith("chance.example/")]
        self.assertEqual(sorted(copy[copy["flagged"] == 1]["url"]), ["copy.example/p%d.html" % i for i in range(8)])
        self.assertGreaterEqual(int((chance["labeled"] >= 1).sum()), 3, "some chance pages keep a shared gram")
        self.assertEqual(list(chance[chance["flagged"] == 1]["url"]), [])
        # The same pages, flags and statistics as the rule given by name; only the record differs.
        named = self.detect(1, "named.h5", ["--page-threshold", "binomial"])
        self.assertEqual(named.detection_attrs["page_threshold_chosen"], 1)
        self.assertNotIn(DEFAULT_NOTE, named.attrs["config"])
        ci.assert_same_datasets(self, ci.comparable(self.tmp("default.h5"))[0], ci.comparable(self.tmp("named.h5"))[0],
                                "given by name")
        # Identical at 2 ranks.
        self.detect(2, "default2.h5")
        ci.assert_same_datasets(self, ci.comparable(self.tmp("default.h5"))[0], ci.comparable(self.tmp("default2.h5"))[0],
                                "at np=2")

    def test_an_explicit_auto_is_kept_and_recorded_as_chosen(self):
        r = self.detect(1, "auto.h5", ["--page-threshold", "auto"])
        a = r.detection_attrs
        self.assertEqual(a["page_threshold_rule"], "auto")
        self.assertEqual(a["page_threshold_chosen"], 1)
        self.assertIn("\npage-threshold = auto\n", r.attrs["config"])
        self.assertNotIn(DEFAULT_NOTE, r.attrs["config"])
        self.assertAlmostEqual(a["page_threshold"], a["page_mean"] + a["page_sigma"])

    def test_other_chunkers_keep_auto_recorded_as_the_default(self):
        labels = self.tmp("L-scan.h5")
        ci.run_crd(ci.quiet(["label", self.tmp("site"), "-o", labels]), timeout=120)
        out = self.tmp("scan.h5")
        ci.run_crd(ci.quiet(["detect", self.tmp("corpus"), "--labels", labels, "-o", out]), timeout=300)
        r = ci.open_results(out)
        self.assertEqual((r.detection_attrs["page_threshold_rule"], r.detection_attrs["page_threshold_chosen"]), ("auto", 0))
        self.assertIn("\npage-threshold = auto\n", r.attrs["config"])
        self.assertNotIn("not given", r.attrs["config"])

    def test_check_takes_the_same_default(self):
        copy_page = self.tmp("corpus", "copy.example", "p0.html")
        chance_pages = [self.tmp("corpus", "chance.example", "p%d.html" % i) for i in range(40)]
        out = ci.run_crd(["check", copy_page] + chance_pages + ["--labels", self.labels, "--show", "0"] + WINNOW).stdout
        lines = [l for l in out.splitlines() if ": " in l and "labeled chunks" in l]
        self.assertEqual(len(lines), 41, out)
        self.assertTrue(lines[0].startswith(copy_page) and lines[0].endswith("FLAGGED"), out)
        self.assertTrue(any(": 1/" in l or ": 2/" in l for l in lines[1:]), "some chance pages hold a labeled gram")
        self.assertEqual([l for l in lines[1:] if l.endswith("FLAGGED")], [], out)


if __name__ == "__main__":
    ci.main()
