# Grams a host repeats are its boilerplate (docs/winnow.md, "A chance rate measured from the crawl"):
# with `--chunker winnow --host-stop-pages 20`, a labeled gram that one host holds on more than 20
# pages is not counted by the page rule. A host that repeats the site's license paragraph on each of
# its 30 pages (as a source tree repeats its license header) is then not flagged, while edited
# copies of the site on three mirror hosts are; /config and /detection record it; identical at 1 and
# 2 ranks. Without the option (the default, 0) every such page is flagged.
# The limit is relative to the labeled site (the `count` column of /labels): a javadoc-like site that
# repeats its member text on each of its 30 pages has mirrors that repeat it as often, and they stay
# flagged; the tree repeating a paragraph the site holds once is still not.
# Across hosts (docs/winnow.md, "Phrasing shared across hosts"): a paragraph of the site that six
# unrelated hosts hold on two pages each (too few for the stop per host) is phrasing with
# `--cross-host-stop-hosts 4 --cross-host-stop-cut 0.02`: their short pages are no longer flagged,
# the edited mirrors still are, at 1 and 2 ranks. That is the default under `--chunker winnow`
# (/config says it was not chosen; `--cross-host-stop-hosts 0` turns it off), not under
# `--chunker winnow+scan`, which keeps 0.
import random
import unittest

import crd_integ as ci
from test_winnow import WINNOW, DetectsWinnow, edited, page, vocabulary_word, write

STOP = ["--host-stop-pages", "20"]


class WinnowHostStop(DetectsWinnow, unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = ci.TempDir("winnow-host-stop")
        rng = random.Random(4344)
        license_text = " ".join(vocabulary_word(rng) for _ in range(40))
        site = {"p%d.html" % i: page(rng) for i in range(8)}
        site["license.html"] = "<html><body><p>%s</p></body></html>" % license_text
        for name, html in site.items():
            write(cls.tmp("site", "site.example", name), html)
            for m in range(3):
                write(cls.tmp("corpus", "mirror%d.example" % m, name), edited(html, rng))
        for i in range(30):
            own = " ".join(vocabulary_word(rng) for _ in range(60))
            write(cls.tmp("corpus", "tree.example", "src%d.html" % i),
                  "<html><body><p>%s</p>\n<p>%s</p></body></html>" % (license_text, own))
        cls.labels = cls.tmp("L.h5")
        ci.run_crd(ci.quiet(["label", cls.tmp("site"), "-o", cls.labels] + WINNOW), timeout=120)

    def test_a_host_repeating_a_license_is_not_flagged_mirrors_are(self):
        r = self.detect(1, "stop.h5", STOP)
        a = r.detection_attrs
        self.assertEqual(a["host_stop_pages"], 20)
        self.assertGreaterEqual(a["host_stop_labels"], 1)
        self.assertIn("\nhost-stop-pages = 20\n", r.attrs["config"])
        self.assertEqual(self.flagged(r, "tree.example"), ([], 30))
        names = sorted(["p%d.html" % i for i in range(8)] + ["license.html"])
        for m in range(3):
            host = "mirror%d.example" % m
            flagged, n = self.flagged(r, host)
            self.assertEqual(n, 9)
            # The copied license page shares its grams with the tree's 30 pages: stopped, so only
            # the mirrors' own copies of the other pages are evidence.
            self.assertEqual(flagged, ["%s/%s" % (host, p) for p in names if p != "license.html"])
        # Identical at 2 ranks.
        self.detect(2, "stop2.h5", STOP)
        ci.assert_same_datasets(self, ci.comparable(self.tmp("stop.h5"))[0], ci.comparable(self.tmp("stop2.h5"))[0],
                                "at np=2")

    def test_without_the_stop_the_repeated_license_is_flagged(self):
        r = self.detect(1, "off.h5", ["--host-stop-pages", "0"])
        self.assertEqual((r.detection_attrs["host_stop_pages"], r.detection_attrs["host_stop_labels"]), (0, 0))
        self.assertIn("\nhost-stop-pages = 0\n", r.attrs["config"])
        flagged, n = self.flagged(r, "tree.example")
        self.assertEqual((len(flagged), n), (30, 30))

    def test_the_default_under_winnow(self):
        # --chunker winnow without --host-stop-pages: 20, and /config says why.
        r = self.detect(1, "default.h5")
        self.assertEqual(r.detection_attrs["host_stop_pages"], 20)
        self.assertIn("\n# host-stop-pages not given: 20 is the default with --chunker winnow", r.attrs["config"])
        self.assertIn("\nhost-stop-pages = 20\n", r.attrs["config"])
        self.assertEqual(self.flagged(r, "tree.example"), ([], 30))


class WinnowHostStopRelative(DetectsWinnow, unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = ci.TempDir("winnow-host-stop-relative")
        rng = random.Random(4345)
        member_text = " ".join(vocabulary_word(rng) for _ in range(60))
        license_text = " ".join(vocabulary_word(rng) for _ in range(40))
        fresh = lambda: " ".join(vocabulary_word(rng) for _ in range(40))  # noqa: E731
        write(cls.tmp("site", "site.example", "license.html"), "<html><body><p>%s</p></body></html>" % license_text)
        for i in range(30):
            write(cls.tmp("site", "site.example", "c%d.html" % i),
                  "<html><body><p>%s</p>\n<p>%s</p></body></html>" % (member_text, fresh()))
            # The mirror keeps each page's member text and rewrites the rest: its only evidence is
            # the text the site itself repeats 30 times.
            write(cls.tmp("corpus", "mirror.example", "c%d.html" % i),
                  "<html><body><p>%s</p>\n<p>%s</p></body></html>" % (member_text, fresh()))
            write(cls.tmp("corpus", "tree.example", "src%d.html" % i),
                  "<html><body><p>%s</p>\n<p>%s</p></body></html>" % (license_text, fresh()))
        cls.labels = cls.tmp("L.h5")
        ci.run_crd(ci.quiet(["label", cls.tmp("site"), "-o", cls.labels] + WINNOW), timeout=120)

    def test_a_mirror_repeating_what_the_site_repeats_is_flagged(self):
        r = self.detect(1, "rel.h5", STOP + ["--shuffle-buffer", "4096"])
        self.assertEqual(self.flagged(r, "mirror.example"),
                         (sorted("mirror.example/c%d.html" % i for i in range(30)), 30))
        self.assertEqual(self.flagged(r, "tree.example"), ([], 30))
        self.detect(2, "rel2.h5", STOP + ["--shuffle-buffer", "4096"])
        ci.assert_same_datasets(self, ci.comparable(self.tmp("rel.h5"))[0], ci.comparable(self.tmp("rel2.h5"))[0],
                                "at np=2")


XHOST = ["--cross-host-stop-hosts", "4", "--cross-host-stop-cut", "0.02"]


class WinnowCrossHostStop(DetectsWinnow, unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = ci.TempDir("winnow-cross-host-stop")
        rng = random.Random(4346)
        words = lambda n: " ".join(vocabulary_word(rng) for _ in range(n))  # noqa: E731
        phrase = words(40)
        site = {"p%d.html" % i: page(rng) for i in range(8)}
        site["api.html"] = "<html><body><p>%s</p>\n<p>%s</p>\n<p>%s</p></body></html>" % (words(60), phrase, words(60))
        cls.pages = sorted(site)
        for name, html in site.items():
            write(cls.tmp("site", "site.example", name), html)
            for m in range(3):
                write(cls.tmp("corpus", "mirror%d.example" % m, name), edited(html, rng))
        # Each unrelated host: a long page where the phrase is 1 % of the grams (a witness that it is
        # common) and a short one where it is most of them (flagged by the binomial rule alone).
        for u in range(6):
            host = "unrelated%d.example" % u
            write(cls.tmp("corpus", host, "long.html"), "<html><body><p>%s</p>\n<p>%s</p></body></html>" % (phrase, words(4000)))
            write(cls.tmp("corpus", host, "short.html"), "<html><body><p>%s</p>\n<p>%s</p></body></html>" % (phrase, words(30)))
        cls.labels = cls.tmp("L.h5")
        ci.run_crd(ci.quiet(["label", cls.tmp("site"), "-o", cls.labels] + WINNOW), timeout=120)

    def unrelated_flagged(self, r):
        return sorted(u for h in range(6) for u in self.flagged(r, "unrelated%d.example" % h)[0])

    def test_a_phrase_on_many_hosts_is_not_copying_mirrors_are(self):
        r = self.detect(1, "xhost.h5", XHOST + ["--shuffle-buffer", "4096"])
        a = r.detection_attrs
        self.assertEqual((a["cross_host_stop_hosts"], a["cross_host_stop_cut"]), (4, 0.02))
        self.assertGreaterEqual(a["cross_host_stop_labels"], 1)
        self.assertIn("\ncross-host-stop-hosts = 4\n", r.attrs["config"])
        self.assertEqual(self.unrelated_flagged(r), [])
        for m in range(3):
            host = "mirror%d.example" % m
            self.assertEqual(self.flagged(r, host), (["%s/%s" % (host, p) for p in self.pages], 9))
        self.detect(2, "xhost2.h5", XHOST + ["--shuffle-buffer", "4096"])
        ci.assert_same_datasets(self, ci.comparable(self.tmp("xhost.h5"))[0], ci.comparable(self.tmp("xhost2.h5"))[0],
                                "at np=2")

    def test_without_it_the_short_pages_are_flagged(self):
        r = self.detect(1, "plain.h5", ["--cross-host-stop-hosts", "0"])
        self.assertNotIn("cross_host_stop_hosts", r.detection_attrs)
        self.assertIn("\ncross-host-stop-hosts = 0\n", r.attrs["config"])
        self.assertNotIn("cross-host-stop-hosts not given", r.attrs["config"])
        self.assertEqual(self.unrelated_flagged(r), self.shorts())

    def test_the_default_under_winnow(self):
        # --chunker winnow without --cross-host-stop-hosts: 4 (cut 0.02), and /config says it was not chosen.
        r = self.detect(1, "default.h5")
        a = r.detection_attrs
        self.assertEqual((a["cross_host_stop_hosts"], a["cross_host_stop_cut"]), (4, 0.02))
        self.assertIn("\n# cross-host-stop-hosts not given: 4 is the default with --chunker winnow", r.attrs["config"])
        self.assertIn("\ncross-host-stop-hosts = 4\n", r.attrs["config"])
        self.assertEqual(self.unrelated_flagged(r), [])
        for m in range(3):
            host = "mirror%d.example" % m
            self.assertEqual(self.flagged(r, host), (["%s/%s" % (host, p) for p in self.pages], 9))
        # Results equal the explicit option's (the /config record aside).
        self.detect(1, "explicit.h5", XHOST)
        ci.assert_same_datasets(self, ci.comparable(self.tmp("default.h5"))[0],
                                ci.comparable(self.tmp("explicit.h5"))[0], "explicit")

    def test_winnow_scan_keeps_it_off(self):
        # --chunker winnow+scan keeps 0, as it keeps --host-stop-pages 0: the short pages stay flagged
        # by their grams.
        labels = self.tmp("L-ws.h5")
        ci.run_crd(ci.quiet(["label", self.tmp("site"), "-o", labels, "--chunker", "winnow+scan"]), timeout=120)
        out = self.tmp("ws.h5")
        ci.run_crd(ci.quiet(["detect", self.tmp("corpus"), "--labels", labels, "-o", out, "--chunker", "winnow+scan"]),
                   timeout=300)
        r = ci.open_results(out)
        self.assertNotIn("cross_host_stop_hosts", r.detection_attrs)
        self.assertIn("\ncross-host-stop-hosts = 0\n", r.attrs["config"])
        self.assertNotIn("cross-host-stop-hosts not given", r.attrs["config"])
        self.assertEqual(self.unrelated_flagged(r), self.shorts())

    def shorts(self):
        return ["unrelated%d.example/short.html" % u for u in range(6)]


if __name__ == "__main__":
    ci.main()
