# --boilerplate-pages on a constructed host. 60 pages of docs.example share a long
# navigation block and footer and each has a short body of its own; two more pages share a long
# body but for one word (a true near-duplicate). With the high-recall parameters the template
# pages pair with each other; with --boilerplate-pages 50 the shared blocks are left out of the
# shingles, so only the true pair is found — at 1 and 2 ranks, identically.
# The threshold at its edge, with the block counts sent in the smallest shuffle rounds
# (--shuffle-buffer 4096, about 250 counts a round): a host whose pages carry one long block on
# exactly 50 pages and another on exactly 49 loses the first and keeps the second, so only the
# pages with the 49-page block pair, at 1 and 2 ranks, as with the default rounds.
# --min-shingles on stubs: 40 redirect pages of stubs.example (like Octave's "The node you are
# looking for is at X" or OpenJDK's "No usage of X") that differ in one name pair with each other
# with the high-recall parameters; with --min-shingles 20 they have no sketch and pair with nothing,
# while two identical stubs are still listed as identical and one cluster.
import os
import unittest

import crd_integ as ci
import word_sets

HIGH_RECALL = ["--shingle-tokens", "5", "--minvalues", "112", "--supershingles", "14", "--min-b-similarity", "1"]
NAV = word_sets.MANUAL_NAV
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



SIDE49 = " ".join("side%d" % (j * 13 % 997) for j in range(200))
SIDE50 = " ".join("other%d" % (j * 17 % 991) for j in range(200))


def edge_page(i):
    """Page e{i:02d} of 60: the shared navigation and footer; a long block on exactly 49 pages
    (e00–e48) and another on exactly 50 (e10–e59); and 23 blocks of its own (many distinct block
    counts, so the counting takes several of the smallest rounds)."""
    own = "".join("<li>own%dx%d</li>" % (i, j) for j in range(20))
    body = "".join("<p>body%d %s%d lemma%d item%d</p>" % (i, WORDS[(i + j) % len(WORDS)], j, i * 3 + j, j)
                   for j in range(3))
    side = ("<p>%s</p>" % SIDE49 if i < 49 else "") + ("<p>%s</p>" % SIDE50 if i >= 10 else "")
    return "<html><body>%s<main>%s<ul>%s</ul>%s</main>%s</body></html>" % (NAV, body, own, side, FOOTER)


class BoilerplateThresholdInTinyRounds(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = ci.TempDir("neardup-boilerplate-edge")
        cls.tree = cls.tmp("pages")
        host = os.path.join(cls.tree, "edge.example")
        os.makedirs(host)
        for i in range(60):
            with open(os.path.join(host, "e%02d.html" % i), "w") as f:
                f.write(edge_page(i))

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def run_neardup(self, name, threshold, extra=(), nranks=None):
        """(pairs as (page_a, page_b) numbers, the blocks left out, tokens removed, shuffle rounds)."""
        out = self.tmp(name)
        ci.run_crd(ci.quiet(["neardup", self.tree, "-o", out, "--boilerplate-pages", str(threshold)] + HIGH_RECALL +
                            list(extra)), nranks=nranks)
        r = ci.open_results(out)
        with ci.h5py.File(out, "r") as f:
            a = [bytes(x).decode() for x in f["neardup/pairs/page_a"]]
            b = [bytes(x).decode() for x in f["neardup/pairs/page_b"]]
        number = lambda key: int(key.rsplit("/e", 1)[1].split(".")[0])
        return ([(number(x), number(y)) for x, y in zip(a, b)], int(r.counters["neardup.boilerplate.blocks"]),
                int(r.counters["neardup.boilerplate.tokens_removed"]), int(r.resources["shuffle.rounds"]))

    def test_the_50_page_block_is_left_out_and_the_49_page_block_kept(self):
        pairs, blocks, tokens, rounds = self.run_neardup("tiny-np1.h5", 50, ["--shuffle-buffer", "4096"])
        # Only pages that share the 49-page block pair; no page that has the 50-page block alone
        # (e49–e59) is on a pair, though those eleven share 200 words.
        self.assertGreater(len(pairs), 50)
        for a, b in pairs:
            self.assertLess(max(a, b), 49, (a, b))
        # One threshold up, the 50-page block is kept: e49–e59 pair with each other, and exactly
        # one block (its 200 tokens on each of its 50 pages) fewer is left out.
        above, blocks51, tokens51, _ = self.run_neardup("tiny-51.h5", 51, ["--shuffle-buffer", "4096"])
        self.assertEqual(blocks - blocks51, 1)
        self.assertEqual(tokens - tokens51, 50 * 200)
        self.assertTrue(any(a >= 49 and b >= 49 for a, b in above))
        # The same at 1 rank in the default rounds, and at 2 ranks (where records travel) in tiny
        # rounds and in the default ones.
        self.assertEqual(self.run_neardup("default-np1.h5", 50)[:3], (pairs, blocks, tokens))
        tiny2 = self.run_neardup("tiny-np2.h5", 50, ["--shuffle-buffer", "4096"], nranks=2)
        default2 = self.run_neardup("default-np2.h5", 50, nranks=2)
        self.assertEqual(tiny2[:3], (pairs, blocks, tokens))
        self.assertEqual(default2[:3], (pairs, blocks, tokens))
        print("shuffle rounds at 2 ranks: %d with --shuffle-buffer 4096, %d by default" % (tiny2[3], default2[3]))
        # More rounds in the tiny buffer (bucket entries are 20 bytes, so fewer than when each
        # carried its page's sketch: 12 against 9 here, 21 against 7 then).
        self.assertGreater(tiny2[3], default2[3])

if __name__ == "__main__":
    ci.main()
