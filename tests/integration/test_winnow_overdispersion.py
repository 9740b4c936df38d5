# The opt-in rules of docs/winnow.md, "An over-dispersed chance rate" and "Diluted mirrors", end to
# end under mpirun: `--page-threshold betabinomial` flags edited mirrors of the labeled site and no
# unrelated page, records its rule and fit in /detection, and gives the same result at 1 and 2
# ranks; `--neighborhood-min-flagged 3` (with `--neighborhood-threshold 1`, which flags nothing by
# badness) flags exactly the hosts whose pages are flagged, not the unrelated ones.
import random
import unittest

import crd_integ as ci
from test_winnow import WINNOW, DetectsWinnow, edited, page, write

BETA = ["--page-threshold", "betabinomial", "--max-neighborhood-depth", "0"]
MIRRORS = ["mirror%d.example" % m for m in range(3)]


class WinnowOverdispersion(DetectsWinnow, unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = ci.TempDir("winnow-overdispersion")
        rng = random.Random(4346)
        site = {"p%d.html" % i: page(rng) for i in range(8)}
        for name, html in site.items():
            write(cls.tmp("site", "site.example", name), html)
            for host in MIRRORS:
                write(cls.tmp("corpus", host, name), edited(html, rng))
        for h in range(3):
            for i in range(15):
                write(cls.tmp("corpus", "other%d.example" % h, "q%d.html" % i), page(rng, paragraphs=4))
        cls.labels = cls.tmp("L.h5")
        ci.run_crd(ci.quiet(["label", cls.tmp("site"), "-o", cls.labels] + WINNOW), timeout=120)

    def test_betabinomial_flags_the_edited_mirrors_only_at_any_rank_count(self):
        r = self.detect(1, "beta.h5", BETA)
        a = r.detection_attrs
        self.assertEqual(a["page_threshold_rule"], "betabinomial:0.0001:0.02")
        self.assertEqual(a["page_threshold_chosen"], 1)
        self.assertEqual(a["page_beta_pages"], 45, "the unrelated pages are the bulk; the mirrors are above the cut")
        self.assertGreater(a["page_beta_a"], 0)
        self.assertLess(a["page_threshold"], 0.001, "no unrelated page shares a gram: the rate is (0 + 1) / (n + 2)")
        for host in MIRRORS:
            self.assertEqual(self.flagged(r, host), (["%s/p%d.html" % (host, i) for i in range(8)], 8))
        for h in range(3):
            self.assertEqual(self.flagged(r, "other%d.example" % h), ([], 15))
        self.detect(2, "beta2.h5", BETA)
        ci.assert_same_datasets(self, ci.comparable(self.tmp("beta.h5"))[0], ci.comparable(self.tmp("beta2.h5"))[0],
                                "at np=2")

    def test_the_share_of_flagged_pages_flags_the_mirror_hosts(self):
        share = BETA + ["--neighborhood-threshold", "1"]
        for k, want in ((0, []), (3, MIRRORS)):
            r = self.detect(2, "share%d.h5" % k, share + ["--neighborhood-min-flagged", str(k)])
            hoods = r.neighborhoods
            self.assertEqual(sorted(hoods[hoods["flagged"] == 1]["prefix"]), want, "--neighborhood-min-flagged %d" % k)


if __name__ == "__main__":
    unittest.main()
