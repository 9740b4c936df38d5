# validation/winnow_labeled_sets.py's own parts, on a constructed --valdata tree (no crd run, no
# corpus): the background leaves out the labeled set's package, is split by the folder a package
# lies in (background3/ held out, the rest development), one host per package rooted at its HTML;
# the mirrors follow paper_validation.mutate (add, delete, modify at n = x · cpp) with one seed per
# host, deterministically; and the baseline host threshold is mean + σ over the background hosts'
# badness and the unmutated copy's 1.
import os
import random
import sys
import unittest

import crd_integ as ci

sys.path.insert(0, os.path.join(ci.source_dir(), "validation"))
import paper_validation as pv  # noqa: E402
import winnow_labeled_sets as w  # noqa: E402


def page(i, paragraphs):
    return ("<html><body>" + "".join("<p>Paragraph %d of page %d says something of its own.</p>\n" % (j, i)
                                     for j in range(paragraphs)) + "</body></html>").encode()


class LabeledSetsHarness(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = ci.TempDir("labeled-sets")
        layout = {"background/postgresql-doc-15/usr/share/doc/postgresql-doc-15/html": 3,
                  "background/git-doc/usr/share/doc/git-doc": 2,
                  "background2/vim-doc/usr/share/doc/vim-doc/html": 1,
                  "corpus/sphinx-doc/usr/share/doc/sphinx-doc/html": 2,
                  "background3/rust-doc/usr/share/doc/rust-doc/html": 4}
        for folder, n in layout.items():
            for i in range(n):
                pv.write(cls.tmp("valdata", folder, "p%d.html" % i), page(i, 5))
        pv.write(cls.tmp("valdata", "background3", "ruby3.1-doc", "usr", "x.ri"), b"no HTML")

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def test_background_split_by_host_without_the_labeled_package(self):
        hosts = w.background_hosts(self.tmp("valdata"), w.SETS["postgresql"][0])
        got = {h: (part, len(files), os.path.relpath(root, self.tmp("valdata"))) for h, part, root, files in hosts}
        self.assertEqual(got, {
            "git-doc.example": ("dev", 2, "background/git-doc/usr/share/doc/git-doc"),
            "vim-doc.example": ("dev", 1, "background2/vim-doc/usr/share/doc/vim-doc/html"),
            "sphinx-doc.example": ("dev", 2, "corpus/sphinx-doc/usr/share/doc/sphinx-doc/html"),
            "rust-doc.example": ("held-out", 4, "background3/rust-doc/usr/share/doc/rust-doc/html")})
        # --parts held-out crawls the held-out part alone (a constant chosen on dev, checked once).
        held = w.background_hosts(self.tmp("valdata"), w.SETS["postgresql"][0], ["held-out"])
        self.assertEqual([(h, part) for h, part, _, _ in held], [("rust-doc.example", "held-out")])
        # Another labeled set leaves postgresql in the development part.
        other = {h for h, _, _, _ in w.background_hosts(self.tmp("valdata"), w.SETS["python"][0])}
        self.assertIn("postgresql-doc-15.example", other)

    def test_mirrors_follow_the_mutation_model(self):
        site = {"a.html": page(0, 6), "b.html": page(1, 3)}
        cpp = 4.0
        m = w.mirrors(site, cpp, w.KINDS, [0.5, 2], 2)
        self.assertEqual(sorted(m), sorted("%s-x%s-c%d.example" % (k, x, c) for k in w.KINDS for x in (0.5, 2)
                                           for c in range(2)))
        self.assertEqual(m, w.mirrors(site, cpp, w.KINDS, [0.5, 2], 2))  # deterministic
        # Each host's pages are paper_validation.mutate with that host's seed, in page order.
        rng = random.Random("delete/2/1")
        expect = {rel: pv.mutate(body, "delete", 8, rng, ("delete-x2-c1.example %s" % rel).encode())
                  for rel, body in sorted(site.items())}
        self.assertEqual(m["delete-x2-c1.example"], expect)
        # delete at 2 x cpp = 8 chunks empties both pages (8 and 5 spans); at 0.5 x it removes 2.
        self.assertEqual(m["delete-x2-c0.example"], {"a.html": b"", "b.html": b""})
        self.assertEqual([len(pv.spans(b)) for b in m["delete-x0.5-c0.example"].values()],
                         [len(pv.spans(site["a.html"])) - 2, len(pv.spans(site["b.html"])) - 2])
        added = m["add-x2-c0.example"]["b.html"]
        self.assertEqual(added.count(b"<p>added paragraph "), 8)
        self.assertIn(b"added paragraph 7 of add-x2-c0.example b.html", added)
        self.assertNotEqual(m["modify-x2-c0.example"]["a.html"], b"\n".join(pv.spans(site["a.html"])))
        self.assertEqual(len(pv.spans(m["modify-x2-c0.example"]["a.html"])), len(pv.spans(site["a.html"])))

    def test_baseline_host_threshold(self):
        # Background hosts 0, 0, 0.2 and the unmutated copy's 1: mean 0.3, σ = sqrt(0.17).
        self.assertAlmostEqual(w.baseline_host_threshold([0.0, 0.0, 0.2]), 0.3 + 0.17 ** 0.5)


if __name__ == "__main__":
    ci.main()
