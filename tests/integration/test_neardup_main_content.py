# The high-recall preset's Jaccard check measures what the validation's main-content rule measures
# (docs/neardup.md, "The Jaccard check"): a host of 60 pages sharing a long navigation block and
# footer, and three bodies of 500 distinct words: `base`, `near` (11 words replaced, 5-word Jaccard
# of the bodies 441/551 = 0.800) and `far` (12 replaced, 436/556 = 0.784). With the template the
# pages' whole-text Jaccard is higher (both pairs above 0.8); without it, which is what the preset's
# --boilerplate-pages 50 leaves, `near` is a near-duplicate of `base` by the 0.8 line and `far` is
# not. The preset keeps the first pair and drops the second, with /neardup/pairs/jaccard equal to the
# bodies' exact Jaccard computed here (every union is under the 4,096 of the sample, so the estimate
# is exact); at the preset's earlier threshold (--min-jaccard 0.775) `far` was kept too. At 1 and
# 3 ranks, identically.
import os
import re
import unittest

import crd_integ as ci
import word_sets
from word_sets import jaccard

NAV = word_sets.MANUAL_NAV
FOOTER = ("<footer><p>This manual is free software; you can redistribute it and/or modify it under the terms of "
          "the GNU General Public License as published by the Free Software Foundation.</p></footer>")


def word(n, salt=""):
    """A distinct word of letters only (normalization turns digits into 0)."""
    letters = ""
    while True:
        letters += "abcdefghijklmnopqrstuvwxyz"[n % 26]
        n //= 26
        if n == 0:
            return "w" + salt + letters


def body(replaced):
    """500 distinct words; `replaced` of them (every 40th, from the 20th) new: each breaks 5 shingles."""
    words = [word(j) for j in range(500)]
    for r in range(replaced):
        words[20 + 40 * r] = word(r, "new")
    return words


def page(words):
    return "<html><body>%s<main><p>%s</p></main>%s</body></html>" % (NAV, " ".join(words), FOOTER)


def shingles(words):
    return word_sets.shingle_set(words, 5)


class NeardupMainContent(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = ci.TempDir("neardup-main-content")
        cls.tree = cls.tmp("pages")
        host = os.path.join(cls.tree, "docs.example")
        os.makedirs(host)
        for i in range(60):  # the template's pages, each with a short body of its own
            with open(os.path.join(host, "t%02d.html" % i), "w") as f:
                f.write(page([word(j, "t%s" % word(i)) for j in range(12)]))
        cls.bodies = {"base": body(0), "near": body(11), "far": body(12)}
        for name, words in cls.bodies.items():
            with open(os.path.join(host, name + ".html"), "w") as f:
                f.write(page(words))
        cls.preset = os.path.join(ci.source_dir(), "configs", "neardup-high-recall.ini")

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def pairs(self, name, extra, nranks=None):
        """{(page_a, page_b): jaccard} of /neardup/pairs."""
        out = self.tmp(name)
        ci.run_crd(ci.quiet(["neardup", self.tree, "--config", self.preset, "-o", out] + extra), nranks=nranks)
        with ci.h5py.File(out, "r") as f:
            col = lambda c: [bytes(x).decode() for x in f["neardup/pairs/" + c]]
            return dict(zip(zip(col("page_a"), col("page_b")), f["neardup/pairs/jaccard"][:].tolist()))

    def test_the_preset_keeps_the_pair_at_0_8_of_the_main_content_and_drops_the_one_below(self):
        words = lambda name: re.findall(r"[a-z]+", " ".join(self.bodies[name]))
        base, near, far = (shingles(words(n)) for n in ("base", "near", "far"))
        self.assertAlmostEqual(jaccard(base, near), 441 / 551)
        self.assertAlmostEqual(jaccard(base, far), 436 / 556)
        # With the template, as a whole-text Jaccard would count it, both pairs are above 0.8.
        template = shingles(re.findall(r"[a-z]+", re.sub("<[^>]*>", " ", NAV + FOOTER).lower()))
        self.assertGreater(jaccard(base | template, far | template), 0.8)
        near_key = ("docs.example/base.html", "docs.example/near.html")
        far_key = ("docs.example/base.html", "docs.example/far.html")
        first = None
        for n in (1, 3):
            got = self.pairs("preset-np%d.h5" % n, [], None if n == 1 else n)
            self.assertIn(near_key, got, "%d ranks" % n)
            self.assertNotIn(far_key, got, "%d ranks" % n)
            self.assertEqual(got[near_key], jaccard(base, near))
            if first is None:
                first = got
            self.assertEqual(got, first, "%d ranks" % n)
        earlier = self.pairs("earlier.h5", ["--min-jaccard", "0.775"])
        self.assertEqual(earlier[far_key], jaccard(base, far))
        self.assertEqual(earlier[near_key], jaccard(base, near))


if __name__ == "__main__":
    ci.main()
