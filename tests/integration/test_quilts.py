# crd quilts under mpirun at 1–4 ranks. A page stitched from one plain paragraph of each
# of five real pages of the Python documentation (copied under five hosts) is found with exactly
# those five sources and the grams each covered; a page of three paragraphs of one real page is
# not a quilt; empty, short and huge pages are skipped and counted by reason; the result files are
# identical at every rank count. On the whole debian-reference package plus these pages, the sweep
# obeys Najork 2012's Theorems 1–3 (monotone in θ, c and m), and the pages quilted at m = 50 are
# among those quilted at m = 100.
import os
import re
import unittest

import crd_integ as ci

RANKS = (1, 2, 3, 4)
LIBRARY = ("usr", "share", "doc", "python3.11", "html", "library")
SOURCES = ("cgi.html", "curses.html", "decimal.html", "heapq.html", "logging.html")
COPIED = "idle.html"
K = 5
TERM = re.compile(r"[A-Za-z0-9\u0080-\U0010FFFF]+")  # crd's terms: alphanumeric runs, non-ASCII as letters


def plain_paragraphs(html):
    """<p> elements of plain text (no markup, no character references, no URLs), 45+ words."""
    return [m.group(1) for m in re.finditer(r"<p>([^<>&]+)</p>", html)
            if len(m.group(1).split()) >= 45 and "http" not in m.group(1) and "www." not in m.group(1)]


def grams(text):
    terms = TERM.findall(text)
    return {tuple(terms[i:i + K]) for i in range(len(terms) - K + 1)}


class Quilts(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        python = os.path.join(ci.corpus_package("python3.11-doc"), *LIBRARY)
        cls.debref = ci.corpus_package("debian-reference-en")
        cls.tmp = ci.TempDir("quilts")
        tree = cls.tmp("pages")
        read = lambda name: open(os.path.join(python, name), encoding="utf-8").read()
        files, cls.patches = {}, {}
        for i, name in enumerate(SOURCES):
            files["s%d.example/%s" % (i, name)] = read(name)
            cls.patches["s%d.example/%s" % (i, name)] = plain_paragraphs(read(name))[0]
        files["s9.example/" + COPIED] = read(COPIED)
        cls.copied = plain_paragraphs(read(COPIED))[:3]
        # A word of its own between patches, so no gram across two patches is in any source (the
        # end of one patch and the start of the next can also follow each other in a source).
        body = "".join("<p>%s</p><p>seam%d</p>\n" % (p, i) for i, p in enumerate(cls.patches.values()))
        cls.quilt_text = "Notes\n" + "\n".join("%s seam%d" % (p, i) for i, p in enumerate(cls.patches.values()))
        files["q.example/quilt.html"] = "<html><body><h1>Notes</h1>\n%s</body></html>" % body
        files["q.example/copy.html"] = "<html><body>%s</body></html>" % "".join("<p>%s</p>" % p for p in cls.copied)
        files["q.example/empty.html"] = ""
        files["q.example/short.html"] = "<p>four words only here</p>"
        files["q.example/many-grams.html"] = "<p>%s</p>" % " ".join("w%d" % i for i in range(120000))
        files["q.example/too-large.html"] = "<p>%s</p>" % ("x " * (1536 * 1024))
        for name, text in files.items():
            os.makedirs(os.path.dirname(os.path.join(tree, name)), exist_ok=True)
            with open(os.path.join(tree, name), "w", encoding="utf-8") as f:
                f.write(text)
        cls.results = {}
        for n in RANKS:
            cwd = cls.tmp("np%d" % n)
            os.makedirs(cwd)
            ci.run_crd(ci.quiet(["quilts", tree, "--max-page-grams", "100000", "--max-record-bytes", "2M",
                                 "--shuffle-buffer", "64K", "-o", "out.h5"]), nranks=n, cwd=cwd)
            cls.results[n] = os.path.join(cwd, "out.h5")
        cls.sweep_out = {}
        for m in ("50", "100"):
            cwd = cls.tmp("sweep-m%s" % m)
            os.makedirs(cwd)
            ci.run_crd(ci.quiet(["quilts", tree, cls.debref, "--max-gram-documents", m, "--sweep-m", "5,10,20,50,100,200",
                                 "--sweep-c", "1,2,3,4,6,8", "--sweep-theta", "0.1,0.3,0.5,0.7,0.9",
                                 "-o", "out.h5"]), nranks=2, cwd=cwd)
            cls.sweep_out[m] = os.path.join(cwd, "out.h5")

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def pages(self, path):
        t = ci.open_results(path).table("/quilts/pages")
        return {u: (int(g), int(p), float(f), int(s), int(q)) for u, g, p, f, s, q in
                zip(t["url"], t["grams"], t["patch_grams"], t["patchfrac"], t["sources"], t["quilted"])}

    def test_the_quilt_is_found_with_exactly_its_sources(self):
        pages = self.pages(self.results[1])
        quilt_grams = grams(self.quilt_text)
        patch = set().union(*(grams(p) for p in self.patches.values()))
        g, p, f, s, q = pages["q.example/quilt.html"]
        self.assertEqual((g, p, s, q), (len(quilt_grams), len(patch), 5, 1))
        self.assertAlmostEqual(f, len(patch) / len(quilt_grams))
        t = ci.open_results(self.results[1]).table("/quilts/sources")
        found = {(pg, src): int(c) for pg, src, c in zip(t["page"], t["source"], t["grams_covered"])}
        self.assertEqual(found, {("q.example/quilt.html", url): len(grams(text)) for url, text in self.patches.items()})
        r = ci.open_results(self.results[1])
        self.assertEqual(r.group_attrs("/quilts")["quilted"], 1)
        self.assertEqual(r.group_attrs("/quilts")["foreign_sourced"], "off")
        shown = ci.run_crd(["inspect", self.results[1]]).stdout
        self.assertIn("quilted pages (k 5, m 50, c 4, θ 0.5, φ 0, foreign-sourced off): 1 of %d pages" % (len(SOURCES) + 3),
                      shown)
        self.assertRegex(shown, r"\n +5 +%.3f  q\.example/quilt\.html\n" % f)

    def test_pages_from_a_single_source_are_not_quilted(self):
        g, p, f, s, q = self.pages(self.results[1])["q.example/copy.html"]
        self.assertEqual((s, q), (1, 0))  # nearly every gram a patch gram, but one source
        copied = set().union(*(grams(text) for text in self.copied))
        self.assertGreaterEqual(p, len(copied))  # the grams across paragraphs may be the source's too
        self.assertLessEqual(p, g)
        self.assertGreater(f, 0.9)
        t = ci.open_results(self.results[1]).table("/quilts/sources")
        self.assertNotIn("q.example/copy.html", set(t["page"]))

    def test_bad_pages_are_skipped_and_counted_by_reason(self):
        r = ci.open_results(self.results[1])
        counters = r.counters.to_dict()
        self.assertEqual(counters["quilts.pages.no_words"], 1)
        self.assertEqual(counters["quilts.pages.fewer_than_k_words"], 1)
        self.assertEqual(counters["quilts.pages.too_many_grams"], 1)
        errors = r.table("/run/errors")
        self.assertEqual([(os.path.basename(f), why) for f, why in zip(errors["file"], errors["reason"])],
                         [("too-large.html", "record_too_large")])
        pages = self.pages(self.results[1])
        for skipped in ("empty", "short", "many-grams", "too-large"):
            self.assertNotIn("q.example/%s.html" % skipped, pages)
        self.assertEqual(len(pages), len(SOURCES) + 3)

    def test_same_results_at_every_rank_count(self):
        one = ci.comparable(self.results[1], drop_root=("nranks", "created", "command_line"))
        for n in RANKS[1:]:
            other = ci.comparable(self.results[n], drop_root=("nranks", "created", "command_line"))
            ci.assert_same_datasets(self, other[0], one[0], "at np=%d" % n)
            self.assertEqual(other[1], one[1], "attributes at np=%d" % n)

    def test_monotone_in_theta_c_and_m_on_a_real_corpus(self):
        sweep = ci.open_results(self.sweep_out["50"]).table("/quilts/sweep")
        counts = {(int(m), int(c), float(t)): int(q) for m, c, t, q in
                  zip(sweep["m"], sweep["c"], sweep["theta"], sweep["quilted"])}
        ms, cs, ts = (sorted({key[i] for key in counts}) for i in range(3))
        self.assertEqual((ms, cs, ts), ([5, 10, 20, 50, 100, 200], [1, 2, 3, 4, 6, 8], [0.1, 0.3, 0.5, 0.7, 0.9]))
        self.assertGreater(counts[50, 4, 0.5], 0)
        self.assertGreater(counts[50, 1, 0.1], counts[50, 8, 0.9])
        for m in ms:
            for c in cs:
                for a, b in zip(ts, ts[1:]):
                    self.assertGreaterEqual(counts[m, c, a], counts[m, c, b], "Theorem 1 at m=%d c=%d" % (m, c))
            for t in ts:
                for a, b in zip(cs, cs[1:]):
                    self.assertGreaterEqual(counts[m, a, t], counts[m, b, t], "Theorem 2 at m=%d θ=%g" % (m, t))
        for c in cs:
            for t in ts:
                for a, b in zip(ms, ms[1:]):
                    self.assertLessEqual(counts[a, c, t], counts[b, c, t], "Theorem 3 at c=%d θ=%g" % (c, t))
        # Page by page: quilted at m = 50 ⇒ quilted at m = 100; and the sweep's pivot row is /quilts/pages.
        at50 = {u for u, row in self.pages(self.sweep_out["50"]).items() if row[4]}
        at100 = {u for u, row in self.pages(self.sweep_out["100"]).items() if row[4]}
        self.assertLessEqual(at50, at100)
        self.assertEqual(len(at50), counts[50, 4, 0.5])
        self.assertEqual(len(at100), counts[100, 4, 0.5])
        self.assertIn("q.example/quilt.html", at50)

    def test_the_preset_is_the_pivot_foreign_sourced_with_a_sweep(self):
        cwd = self.tmp("preset")
        os.makedirs(cwd)
        preset = os.path.join(ci.source_dir(), "configs", "quilts-najork.ini")
        ci.run_crd(ci.quiet(["quilts", self.tmp("pages"), "--config", preset, "-o", "out.h5"]), nranks=2, cwd=cwd)
        r = ci.open_results(os.path.join(cwd, "out.h5"))
        attrs = r.group_attrs("/quilts")
        self.assertEqual((attrs["k"], attrs["m"], attrs["c"], attrs["theta"], attrs["foreign_sourced"]),
                         (5, 50, 4, 0.5, "domain"))
        self.assertEqual(len(r.table("/quilts/sweep")), 5 * 5 * 5)
        shown = ci.run_crd(["inspect", os.path.join(cwd, "out.h5")]).stdout
        self.assertRegex(shown, r"\n +50 +4 +0\.50 +1 ")  # the sweep's pivot row: one quilt
        # Every source lies on another registrable domain (sN.example against q.example): the same five.
        t = r.table("/quilts/sources")
        self.assertEqual(sorted(t["source"]), sorted(self.patches))


if __name__ == "__main__":
    ci.main()
