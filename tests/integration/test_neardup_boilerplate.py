# --boilerplate-pages on a constructed host. 60 pages of docs.example share a long
# navigation block and footer and each has a short body of its own; two more pages share a long
# body but for one word (a true near-duplicate). With the high-recall parameters the template
# pages pair with each other; with --boilerplate-pages 50 the shared blocks are left out of the
# shingles, so only the true pair is found — at 1 and 2 ranks, identically.
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

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def pairs(self, name, extra, nranks=None):
        out = self.tmp(name)
        ci.run_crd(ci.quiet(["neardup", self.tree, "-o", out] + HIGH_RECALL + extra), nranks=nranks)
        with ci.h5py.File(out, "r") as f:
            a = [bytes(x).decode() for x in f["neardup/pairs/page_a"]]
            b = [bytes(x).decode() for x in f["neardup/pairs/page_b"]]
        return list(zip(a, b))

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
