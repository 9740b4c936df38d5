# crd neardup's clusters and representatives at 1–4 ranks against a serial reference computed here,
# on a small constructed crawl (one WARC, about 1 MB): 300 near-identical stubs
# (tests/support/stub_pages.py), families of near-copies of a long text (a word or two changed),
# exact copies on a mirror host, and unrelated pages. The reference: a union–find over the pairs
# and identical pages of a run that compares every bucket (--max-bucket 100000), each cluster under
# its smallest page key. The runs at 1–4 ranks cap the buckets at 20 pages (so the stubs' buckets
# and the families' are not compared pairwise) and send in the smallest shuffle rounds; under
# Broder's rule their clusters are still the reference's, and everything in /neardup is the same
# at every rank count.
import os
import re
import sys
import unittest

import crd_integ as ci
import word_sets

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "support"))
import archives  # noqa: E402
import stub_pages  # noqa: E402

STUBS = 300
WORDS = ("alpha bravo charlie delta echo foxtrot golf hotel india juliet kilo lima mike november oscar papa "
         "quebec romeo sierra tango uniform victor whiskey xray yankee zulu").split()


def family_text(f, v):
    """Family f's 300-word text; variant v > 0 has word 40 + v replaced (one word of 300)."""
    words = ["%s%d" % (WORDS[(f * 5 + j) % len(WORDS)], (f * 1009 + j * 7) % 4001) for j in range(300)]
    if v > 0:
        words[40 + v] = "changed%d" % v
    return "<html><body><h1>Family %d</h1><p>%s</p></body></html>" % (f, " ".join(words))


def pages():
    """(url, html) of the crawl, in an order that is not the keys' order."""
    out = [(stub_pages.url(i), stub_pages.page(i).decode()) for i in range(STUBS)]
    for f in range(6):
        for v in range(8):
            out.append(("https://fam%d.example/v%d.html" % (f, (v * 3) % 8), family_text(f, v)))
        out.append(("https://mirror.example/f%d.html" % f, family_text(f, 2)))
    for u in range(20):
        words = " ".join("u%dw%d" % (u, j) for j in range(150))
        out.append(("https://other.example/u%d.html" % u, "<html><body><p>%s</p></body></html>" % words))
    return out[::-1]


def exact_jaccard(a, b, k=8):
    """The exact Jaccard of two pages' k-token shingle sets (terms: alphanumeric runs of the text)."""
    html = {url.split("://", 1)[1]: text for url, text in pages()}
    sets = []
    for key in (a, b):
        tokens = re.findall(r"[A-Za-z0-9]+", re.sub(r"<[^>]*>", " ", html[key]))
        sets.append(word_sets.shingle_set(tokens, k))
    return word_sets.jaccard(*sets)


def reference_clusters(pairs, identical):
    """{page: its cluster's smallest page} of the graph of `pairs` and `identical` (page, rep)."""
    parent = {}

    def root(a):
        parent.setdefault(a, a)
        while parent[a] != a:
            parent[a] = parent[parent[a]]
            a = parent[a]
        return a

    for a, b in list(pairs) + list(identical):
        ra, rb = root(a), root(b)
        if ra != rb:
            parent[max(ra, rb)] = min(ra, rb)
    return {page: root(page) for page in parent}


class NeardupRanks(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = ci.TempDir("neardup-ranks")
        cls.warc = cls.tmp("crawl.warc")
        with open(cls.warc, "wb") as out:
            out.write(archives.warc_warcinfo("crawl.warc"))
            for url, html in pages():
                out.write(archives.warc_response(url, html.encode()))

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def neardup(self, name, nranks, extra):
        """/neardup's tables as lists of tuples, and its attributes."""
        out = self.tmp(name)
        ci.run_crd(ci.quiet(["neardup", self.warc, "-o", out] + extra), nranks=nranks)
        text = lambda column: [bytes(x).decode("utf-8") for x in column]
        with ci.h5py.File(out, "r") as f:
            nd = f["neardup"]
            tables = {
                "pairs": list(zip(text(nd["pairs/page_a"]), text(nd["pairs/page_b"]), nd["pairs/b_sim"][:].tolist(),
                                  nd["pairs/c_sim"][:].tolist())),
                "identical": list(zip(text(nd["identical/page"]), text(nd["identical/representative"]))),
                "clusters": list(zip(text(nd["clusters/page"]), text(nd["clusters/cluster"]))),
                "representatives": list(zip(text(nd["representatives/representative"]),
                                            nd["representatives/pages"][:].tolist())),
                # Written with --min-jaccard only.
                "jaccard": nd["pairs/jaccard"][:].tolist() if "jaccard" in nd["pairs"] else None,
            }
            return tables, {k: ci._plain(v) for k, v in nd.attrs.items()}

    def test_clusters_equal_the_serial_reference_at_1_to_4_ranks(self):
        full, full_attrs = self.neardup("uncapped.h5", None, ["--max-bucket", "100000"])
        self.assertEqual(int(full_attrs["capped_buckets"]), 0)
        want = reference_clusters([(a, b) for a, b, _, _ in full["pairs"]], full["identical"])
        want_rows = sorted(want.items())
        sizes = {}
        for page, rep in want_rows:
            sizes[rep] = sizes.get(rep, 0) + 1
        self.assertEqual(full["clusters"], want_rows)
        self.assertEqual(full["representatives"], sorted(sizes.items()))
        # What the reference holds, by name: the mirror's copy joins its family under the family's
        # smallest key; an unrelated page is in no cluster; most stubs are in one cluster.
        self.assertEqual(want["mirror.example/f3.html"], "fam3.example/v0.html")
        self.assertEqual(want["fam3.example/v7.html"], "fam3.example/v0.html")
        self.assertNotIn("other.example/u4.html", want)
        stub_keys = sorted(stub_pages.url(i).split("://", 1)[1] for i in range(STUBS))
        self.assertGreater(sum(1 for k in stub_keys if want.get(k) == stub_keys[0]), STUBS // 2)

        capped = ["--max-bucket", "20", "--shuffle-buffer", "4096"]
        first = None
        for n in (1, 2, 3, 4):
            got, attrs = self.neardup("capped-np%d.h5" % n, None if n == 1 else n, capped)
            self.assertGreater(int(attrs["capped_buckets"]), 0)
            self.assertEqual(got["clusters"], want_rows, "%d ranks" % n)
            self.assertEqual(int(attrs["unlinked_entries"]), 0, n)
            self.assertEqual(got["representatives"], sorted(sizes.items()), "%d ranks" % n)
            self.assertEqual(got["identical"], full["identical"], "%d ranks" % n)
            if first is None:
                first = got
                # The pairs the caps leave: those of the buckets still compared, a subset of all.
                self.assertLess(len(got["pairs"]), len(full["pairs"]))
                self.assertTrue(set(got["pairs"]) <= set(full["pairs"]))
            self.assertEqual(got, first, "%d ranks" % n)

    def test_min_jaccard_drops_the_stub_pairs_alike_at_1_to_4_ranks(self):
        """--min-jaccard 0.9: two stubs share 92 of their 108 8-token shingles (J 0.85), a family's
        variants about 285 of 301 (0.95); every union is under the sample's 1,024, so the estimate is
        exact. The stubs' pairs and cluster go, the families' stay, identically at 1–4 ranks, with
        the candidates joined with their samples in the smallest shuffle rounds; capped buckets
        (--max-bucket 20) join the families alike and no stub. Each pair's /neardup/pairs/jaccard
        is its exact Jaccard, computed here; without --min-jaccard the column is not written."""
        stub_keys = {stub_pages.url(i).split("://", 1)[1] for i in range(STUBS)}
        off, _ = self.neardup("jaccard-off.h5", None, [])
        self.assertTrue(any(a in stub_keys and b in stub_keys for a, b, _, _ in off["pairs"]))
        self.assertIsNone(off["jaccard"])
        reference = {}
        for extra in ([], ["--max-bucket", "20"]):
            first = None
            for n in (1, 2, 3, 4):
                got, attrs = self.neardup("jaccard-np%d.h5" % n, None if n == 1 else n,
                                          ["--min-jaccard", "0.9", "--shuffle-buffer", "4096"] + extra)
                what = "%d ranks %s" % (n, extra)
                self.assertFalse([p for p in got["pairs"] if p[0] in stub_keys or p[1] in stub_keys], what)
                self.assertFalse([p for p, _ in got["clusters"] if p in stub_keys], what)
                clusters = dict(got["clusters"])
                self.assertEqual(clusters["fam3.example/v7.html"], "fam3.example/v0.html", what)
                self.assertEqual(clusters["mirror.example/f3.html"], "fam3.example/v0.html", what)
                if not extra:
                    self.assertIn("fam3.example/v1.html", [b for a, b, _, _ in got["pairs"]
                                                           if a == "fam3.example/v0.html"], what)
                    self.assertEqual(int(attrs["jaccard_dropped_pairs"]),
                                     len(off["pairs"]) - len(got["pairs"]), what)
                self.assertEqual(float(attrs["min_jaccard"]), 0.9)
                self.assertEqual(len(got["jaccard"]), len(got["pairs"]), what)
                for (a, b, _, _), j in zip(got["pairs"], got["jaccard"]):
                    if (a, b) not in reference:
                        reference[(a, b)] = exact_jaccard(a, b)
                    self.assertEqual(j, reference[(a, b)], "%s %s %s" % (a, b, what))
                    self.assertGreaterEqual(j, 0.9, what)
                if first is None:
                    first = got
                self.assertEqual(got, first, what)


if __name__ == "__main__":
    ci.main()
