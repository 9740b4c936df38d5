# The binomial page rule with winnowed grams, as users run it: configs/winnow-edits.ini
# serves label, detect and check; an edited copy is flagged page by page, while short unrelated
# pages that share one common phrase with the site (containment above 0.05, which a containment
# threshold low enough for diluted copies would flag) are not; identical at 1 and 2 ranks.
import os
import random
import re
import unittest

import crd_integ as ci
from test_winnow import edited, page, vocabulary_word, write


class WinnowBinomial(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = ci.TempDir("winnow-binomial")
        cls.preset = ["--config", os.path.join(ci.source_dir(), "configs", "winnow-edits.ini")]
        rng = random.Random(3535)
        site = {"p%d.html" % i: page(rng) for i in range(8)}
        for name, html in site.items():
            write(cls.tmp("site", "site.example", name), html)
            write(cls.tmp("corpus", "copy.example", name), edited(html, rng))
        paragraphs = [m.split() for n in sorted(site) for m in re.findall(r"<p>(.*?)</p>", site[n])]
        for i in range(60):
            # 50 words of its own around one 6-word phrase of a site paragraph: 2 shared grams, so at
            # most 2 labeled fingerprints, which a page of ≥ 3 fingerprints may hold by chance at R = 1 %.
            words = rng.choice(paragraphs)
            at = rng.randrange(len(words) - 6)
            words = [vocabulary_word(rng) for _ in range(25)] + words[at:at + 6] + [vocabulary_word(rng) for _ in range(25)]
            write(cls.tmp("corpus", "chance.example", "p%d.html" % i), "<html><body><p>%s</p></body></html>" % " ".join(words))
        cls.labels = cls.tmp("L.h5")
        ci.run_crd(ci.quiet(["label", cls.tmp("site"), "-o", cls.labels] + cls.preset), timeout=120)

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def detect(self, nranks, name, extra=()):
        out = self.tmp(name)
        ci.run_crd(ci.quiet(["detect", self.tmp("corpus"), "--labels", self.labels, "-o", out] + self.preset + list(extra)),
                   nranks=nranks, timeout=300)
        return out

    def test_copies_flagged_chance_matches_not(self):
        one, two = self.detect(1, "d1.h5"), self.detect(2, "d2.h5")
        ci.assert_same_datasets(self, ci.comparable(one)[0], ci.comparable(two)[0], "at np=2")
        r = ci.open_results(one)
        self.assertEqual(r.detection_attrs["page_threshold_rule"], "binomial:0.01:0.0001")
        pages = r.pages
        copy = pages[pages["url"].str.startswith("copy.example/")]
        chance = pages[pages["url"].str.startswith("chance.example/")]
        self.assertEqual((len(copy), len(chance)), (8, 60))
        self.assertEqual(int(copy["flagged"].sum()), 8, copy[["url", "labeled", "chunks"]])
        matched = chance[chance["labeled"] >= 1]
        self.assertGreaterEqual(len(matched), 5, "some chance pages keep a shared gram")
        self.assertLessEqual(int(chance["labeled"].max()), 2)
        self.assertGreater(float(matched["containment"].min()), 0.05, matched[["url", "labeled", "chunks"]])
        self.assertEqual(int(chance["flagged"].sum()), 0, matched[["url", "labeled", "chunks"]])
        # A containment threshold that a diluted copy would need (0.05) flags every one of them.
        fixed = ci.open_results(self.detect(1, "fixed.h5", ["--page-threshold", "0.05"])).pages
        self.assertEqual(int(fixed[fixed["url"].str.startswith("chance.example/")]["flagged"].sum()), len(matched))

    def test_check_applies_the_same_rule(self):
        copy_page = self.tmp("corpus", "copy.example", "p0.html")
        chance_pages = [self.tmp("corpus", "chance.example", "p%d.html" % i) for i in range(60)]
        out = ci.run_crd(["check", copy_page] + chance_pages + ["--labels", self.labels, "--show", "0"] + self.preset).stdout
        lines = [l for l in out.splitlines() if ": " in l and "labeled chunks" in l]
        self.assertEqual(len(lines), 61, out)
        self.assertTrue(lines[0].startswith(copy_page) and lines[0].endswith("FLAGGED"), out)
        self.assertFalse(any(l.endswith("FLAGGED") for l in lines[1:]), out)
        self.assertTrue(any(": 1/" in l or ": 2/" in l for l in lines[1:]), "some chance pages hold a labeled gram")


if __name__ == "__main__":
    ci.main()
