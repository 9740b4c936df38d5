# --boilerplate-pages on a constructed host. 60 pages of docs.example share a long
# navigation block and footer and each has a short body of its own; two more pages share a long
# body but for one word (a true near-duplicate). With the high-recall parameters the template
# pages pair with each other; with --boilerplate-pages 50 the shared blocks are left out of the
# shingles, so only the true pair is found — at 1 and 2 ranks, identically.
# --min-shingles on stubs: 40 redirect pages of stubs.example (like Octave's "The node you are
# looking for is at X" or OpenJDK's "No usage of X") that differ in one name pair with each other
# with the high-recall parameters; with --min-shingles 20 they have no sketch and pair with nothing,
# while two identical stubs are still listed as identical and one cluster.
import os
import unittest

import crd_integ as ci

HIGH_RECALL = ["--shingle-tokens", "5", "--minvalues", "112", "--supershingles", "14", "--min-b-similarity", "1"]
NAV = "<nav><ul>" + "".join("<li><a href=\"/s%d.html\">Section %d of the manual: %s</a></li>" % (i, i, topic)
                            for i, topic in enumerate(["installing the system", "configuring the network",
                                                       "managing packages", "users and groups",
                                                       "the boot process", "printing", "backups and recovery",
                                                       "system logs", "kernel modules", "security updates"])) + "</ul></nav>"
FOOTER = ("<footer><p>This manual is free software; you can redistribute it and/or modify it under the terms of "
          "the GNU General Public License as published by the Free Software Foundation.</p>"
          "<p>Last updated by the documentation team, report errors to the bug tracking system.</p></footer>")
WORDS = ("alpha bravo charlie delta echo foxtrot golf hotel india juliet kilo lima mike november oscar papa "
         "quebec romeo sierra tango uniform victor whiskey xray yankee zulu").split()


def template_page(i):
    body = " ".join("%s%d" % (WORDS[(i * 7 + j) % len(WORDS)], i * 31 + j) for j in range(12))
    return "<html><body>%s<main><p>%s</p></main>%s</body></html>" % (NAV, body, FOOTER)


def stub_page(name):
    return ("<html><head><title>%s (GNU Octave (version 7.3.0))</title></head><body><p>The node you are "
            "looking for is at <a href=\"Text.html#%s\">%s</a>.</p></body></html>" % (name, name, name))


def article(changed):
    text = " ".join("%s%d" % (WORDS[j % len(WORDS)], j) for j in range(300))
    if changed:
        text = text.replace("mike12", "changed12")
    return "<html><body>%s<main><p>%s</p></main>%s</body></html>" % (NAV, text, FOOTER)


class NeardupBoilerplate(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = ci.TempDir("neardup-boilerplate")
        cls.tree = cls.tmp("pages")
        host = os.path.join(cls.tree, "docs.example")
        os.makedirs(host)
        for i in range(60):
            with open(os.path.join(host, "t%02d.html" % i), "w") as f:
                f.write(template_page(i))
        for name, changed in (("article.html", False), ("article-copy.html", True)):
            with open(os.path.join(host, name), "w") as f:
                f.write(article(changed))

        cls.stubs = cls.tmp("stubs")
        host = os.path.join(cls.stubs, "stubs.example")
        os.makedirs(host)
        for i in range(40):
            with open(os.path.join(host, "XREF%02d.html" % i), "w") as f:
                f.write(stub_page("XREFfunction%s" % WORDS[i % len(WORDS)] + WORDS[i // len(WORDS)]))
        with open(os.path.join(host, "XREF00-again.html"), "w") as f:
            f.write(stub_page("XREFfunction%s" % WORDS[0] + WORDS[0]))

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def pairs(self, name, extra, nranks=None, tree=None, more=False):
        out = self.tmp(name)
        ci.run_crd(ci.quiet(["neardup", tree or self.tree, "-o", out] + HIGH_RECALL + extra), nranks=nranks)
        with ci.h5py.File(out, "r") as f:
            col = lambda name: [bytes(x).decode() for x in f["neardup/" + name]]
            pairs = list(zip(col("pairs/page_a"), col("pairs/page_b")))
            if more:
                return pairs, list(zip(col("identical/page"), col("identical/representative"))), \
                    list(zip(col("clusters/page"), col("clusters/cluster")))
        return pairs

    def test_stubs_pair_without_min_shingles_and_only_identical_ones_with_it(self):
        opts = ["--normalize-text", "--boilerplate-pages", "50"]
        without = self.pairs("stubs-without.h5", opts, tree=self.stubs)
        self.assertGreater(len(without), 100, "stubs that differ in one name pair without the option")
        same = ("stubs.example/XREF00-again.html", "stubs.example/XREF00.html")
        for nranks in (1, 2):
            pairs, identical, clusters = self.pairs("stubs-with-np%d.h5" % nranks, opts + ["--min-shingles", "20"],
                                                    nranks=nranks, tree=self.stubs, more=True)
            self.assertEqual(pairs, [])
            self.assertEqual(identical, [(same[1], same[0])])
            self.assertEqual(sorted(clusters), [(same[0], same[0]), (same[1], same[0])])

    def test_template_pages_pair_without_the_option_and_not_with_it(self):
        true_pair = ("docs.example/article-copy.html", "docs.example/article.html")
        without = self.pairs("without.h5", [])
        template = [p for p in without if "/t" in p[0] and "/t" in p[1]]
        self.assertGreater(len(template), 100, "pages sharing only navigation and footer pair without the option")
        self.assertIn(true_pair, without)
        with_option = self.pairs("with.h5", ["--boilerplate-pages", "50"])
        self.assertEqual(with_option, [true_pair])
        self.assertEqual(self.pairs("with-np2.h5", ["--boilerplate-pages", "50"], nranks=2), with_option)


if __name__ == "__main__":
    ci.main()
