# crd report's sections for near-duplicates, quilts, similarity pairs and the hashing comparison,
# in a real browser (headless Chromium + Selenium; skipped without them), on real results: the
# documentation corpus's sphinx-doc HTML plus planted mirror copies and a planted quilt, with a
# hostile page name among them. Each section renders without console errors, its tables hold what
# h5py reads from the result, sort and filter as h5py's data says, show hostile text as text, and
# its marks export what a rerun reads (`crd quilts --exclude-pages`).
import json
import os
import re
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "support"))
import crd_integ as ci  # noqa: E402
from test_report_browser import BrowserCase, require_browser, start_browser, strings  # noqa: E402

h5py = ci.h5py
NRANKS = 2
HOSTILE = "<img src=x onerror=alert(7)>.html"
QUILT_SOURCES = ["alpha.example", "beta.example", "gamma.example", "delta.example"]


def plain_text_pages(tree, limit):
    """Up to `limit` sphinx-doc pages with enough text, as (relative path, bytes), sorted."""
    out = []
    for d, _, names in sorted(os.walk(tree)):
        for n in sorted(names):
            if not n.endswith(".html"):
                continue
            p = os.path.join(d, n)
            with open(p, "rb") as f:
                body = f.read()
            if 4000 < len(body) < 60000:
                out.append((os.path.relpath(p, tree), body))
    return out[:limit]


def plant_quilt(root, page, sites, first):
    """A post of 60 words on each of `sites` and `page` stitched from all of them; the words carry
    the site's index (from `first`), so no two quilts share a passage."""
    words = "quill needle thread patch seam stitch cotton linen velvet satin wool felt".split()
    passages = []
    for i, site in enumerate(sites, start=first):
        text = " ".join("%s%d %s" % (words[(i * 7 + j) % len(words)], i, words[j % len(words)]) for j in range(60))
        passages.append(text)
        os.makedirs(os.path.join(root, site), exist_ok=True)
        with open(os.path.join(root, site, "post.html"), "w") as f:
            f.write("<html><body><p>%s</p><p>own words of %s only here</p></body></html>" % (text, site))
    os.makedirs(os.path.join(root, os.path.dirname(page)), exist_ok=True)
    with open(os.path.join(root, page), "w") as f:
        f.write("<html><body>%s</body></html>" % "".join("<p>%s</p>" % t for t in passages))


def report_data(html):
    """The page's JSON data (tables by id) as crd report wrote it."""
    with open(html, encoding="utf-8") as f:
        page = f.read()
    start = page.index('<script type="application/json" id="crd-data">') + len('<script type="application/json" id="crd-data">')
    data = json.loads(page[start:page.index("</script>", start)])
    return {t["id"]: t for t in data["tables"]}


def build_corpus(root):
    """sphinx-doc's pages under docs.example, a mirror of 12 of them on mirror.example (one word
    changed per page, so near- but not exactly duplicate), a hostile page name, a quilt stitched
    from passages of four source sites and one of twelve."""
    tree = ci.sphinx_html()
    pages = plain_text_pages(tree, 40)
    for rel, body in pages:
        path = os.path.join(root, "docs.example", rel.replace(os.sep, "_"))
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "wb") as f:
            f.write(body)
    for k, (rel, body) in enumerate(pages[:12]):
        name = HOSTILE if k == 0 else rel.replace(os.sep, "_")
        path = os.path.join(root, "mirror.example", name)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "wb") as f:
            f.write(body.replace(b"Sphinx", b"Sphynx", 1))
    plant_quilt(root, "quilt.example/quilt.html", QUILT_SOURCES, 0)
    # A quilt of 12 sources: more than the report lists per page (quilts_section.cpp, 10).
    plant_quilt(root, "patchwork.example/big.html", ["src%d.example" % k for k in range(12)], len(QUILT_SOURCES))
    return root


class SectionsCase(BrowserCase):
    @classmethod
    def setUpClass(cls):
        require_browser()
        cls.tmp = ci.TempDir("report-sections")
        cls.corpus = build_corpus(cls.tmp("corpus"))
        cls.driver = start_browser()

    @classmethod
    def tearDownClass(cls):
        cls.driver.quit()
        cls.tmp.cleanup()

    def report_of(self, result, name):
        html = self.tmp(name)
        ci.run_crd(["report", result, "-o", html])
        self.open_report(html)
        self.driver.execute_script("localStorage.clear()")
        self.driver.refresh()
        self.wait_for(lambda: self.driver.execute_script("return !!window.crdReport"))
        self.assertEqual(self.console_errors(), [])
        return html

    def section_ids(self):
        return self.driver.execute_script("return [...document.querySelectorAll('section[id]')].map(s => s.id)")

    def chart_titles(self):
        return self.driver.execute_script(
            "return [...document.querySelectorAll('svg.chart')].map(s => s.querySelector('title').textContent)")


class NeardupSection(SectionsCase):
    def test_neardup_section(self):
        result = self.tmp("nd.h5")
        ci.run_crd(ci.quiet(["neardup", self.corpus, "-o", result]), nranks=NRANKS)
        with h5py.File(result, "r") as f:
            pa = strings(f, "neardup/pairs/page_a")
            pb = strings(f, "neardup/pairs/page_b")
            c_sim = [int(v) for v in f["neardup/pairs/c_sim"][:]]
            same = [int(v) for v in f["neardup/pairs/same_site"][:]]
        cross = [(a, b) for a, b, s in zip(pa, pb, same) if not s]
        self.assertGreaterEqual(len(cross), 10, "the mirror copies should pair across sites")
        self.report_of(result, "nd.html")
        self.assertIn("neardup", self.section_ids())
        titles = self.chart_titles()
        self.assertIn("Pairs by B-similarity (agreeing supershingles)", titles)
        self.assertIn("Pairs by C-similarity (agreeing simhash bits)", titles)
        labels = self.driver.execute_script(
            "return [...document.querySelectorAll('#neardup svg .marker-label')].map(t => t.textContent)")
        self.assertIn("B ≥ 2", labels)
        self.assertIn("C ≥ 372", labels)
        self.assertIn("combined ≥ 355", labels)

        # Pairs: every pair, closest first; sorting by C ascending gives h5py's minimum first.
        self.assertEqual(self.count_label("ndpairs"), "%s rows" % format(len(pa), ","))
        col = self.column_index("ndpairs", "c_sim")
        shown = [int(v) for v in self.table_column("ndpairs", col)]
        self.assertEqual(shown, sorted(c_sim, reverse=True)[:len(shown)])
        self.click_header("ndpairs", "c_sim")  # already the sort key: one click reverses it
        shown = [int(v) for v in self.table_column("ndpairs", col)]
        self.assertEqual(shown, sorted(c_sim)[:len(shown)])
        # Filter on a site: the pairs h5py has with that text in either page.
        expected = sum(1 for a, b in zip(pa, pb) if "mirror.example" in a or "mirror.example" in b)
        self.set_filter("ndpairs", "MIRROR.example")
        self.wait_for(lambda: self.count_label("ndpairs").startswith(format(expected, ",") + " row"))
        self.set_filter("ndpairs", "")

        # The hostile page name is text, and nothing ran.
        self.set_filter("ndpages", "onerror")
        self.wait_for(lambda: self.count_label("ndpages").startswith("1 row"))
        url_col = self.column_index("ndpages", "url")  # counts the mark column too
        self.assertEqual(self.table_column("ndpages", url_col), ["mirror.example/" + HOSTILE])
        self.assertEqual(self.driver.execute_script("return document.querySelectorAll('img').length"), 0)
        self.assert_no_alert()
        self.set_filter("ndpages", "")

        # Clusters: the largest holds a page and its mirror (two sites).
        sizes = [int(v) for v in self.table_column("ndclusters", self.column_index("ndclusters", "pages"))]
        self.assertEqual(sizes, sorted(sizes, reverse=True))
        sites = self.table_column("ndclusters", self.column_index("ndclusters", "sites"))
        self.assertIn("2", sites)
        # They are the result's clusters (/neardup/representatives), each marked with its
        # representative, the page to keep: the cluster's smallest page key.
        with h5py.File(result, "r") as f:
            reps = strings(f, "neardup/representatives/representative")
            rep_sizes = [int(v) for v in f["neardup/representatives/pages"][:]]
            members = dict(zip(strings(f, "neardup/clusters/page"), strings(f, "neardup/clusters/cluster")))
        self.assertEqual(self.count_label("ndclusters"), "%s rows" % format(len(reps), ","))
        shown = self.table_column("ndclusters", self.column_index("ndclusters", "representative"))
        self.assertEqual([dict(zip(reps, rep_sizes))[r] for r in shown], sizes)
        for rep in shown:
            self.assertEqual(rep, min(p for p, c in members.items() if c == rep))
        listed = self.table_column("ndclusters", self.column_index("ndclusters", "members"))
        for rep, text in zip(shown, listed):
            self.assertTrue(text.startswith(rep + " (representative, kept)"), text[:200])

        # Marks: one original, one "not a copy"; they survive a reload and export as CSV.
        a, b = cross[0]
        for url, choice in ((a, "the original"), (b, "not a copy")):
            self.set_filter("ndpages", url)
            self.wait_for(lambda: self.count_label("ndpages").startswith("1 row"))
            select = self.driver.find_element(By.CSS_SELECTOR, "#table-ndpages tbody select.row-mark")
            select.find_element(By.CSS_SELECTOR, "option[value='%s']" % choice).click()
        self.driver.refresh()
        self.wait_for(lambda: self.driver.execute_script("return !!window.crdReport"))
        csv = self.driver.execute_script("return window.crdReport.rowMarksText('ndpages')")
        self.assertEqual(csv.split("\r\n"), ["url,mark"] + sorted(['"%s","the original"' % a, '"%s","not a copy"' % b])
                         + [""])
        self.assertEqual(self.console_errors(), [])
        self.full_screenshot("report-neardup.png")

    def test_neardup_pairs_show_the_jaccard_estimate(self):
        # Only a result of --min-jaccard has /neardup/pairs/jaccard; the pairs view shows it.
        result = self.tmp("nd-jaccard.h5")
        ci.run_crd(ci.quiet(["neardup", self.corpus, "--min-jaccard", "0.5", "-o", result]), nranks=NRANKS)
        with h5py.File(result, "r") as f:
            jaccard = [float(v) for v in f["neardup/pairs/jaccard"][:]]
        self.assertTrue(jaccard)
        self.report_of(result, "nd-jaccard.html")
        col = self.column_index("ndpairs", "jaccard")
        self.click_header("ndpairs", "jaccard")
        shown = self.table_column("ndpairs", col)
        self.assertEqual(shown, ["%.4f" % v for v in sorted(jaccard, reverse=True)[:len(shown)]])
        self.assertEqual(self.console_errors(), [])


class QuiltsSection(SectionsCase):
    def test_quilts_section_and_rerun(self):
        result = self.tmp("q.h5")
        ci.run_crd(ci.quiet(["quilts", self.corpus, "-o", result, "--sweep-m", "5,10,50", "--sweep-c", "2,3,4",
                             "--sweep-theta", "0.3,0.5,0.8"]), nranks=NRANKS)
        with h5py.File(result, "r") as f:
            urls = strings(f, "quilts/pages/url")
            quilted = [int(v) for v in f["quilts/pages/quilted"][:]]
            src_page = strings(f, "quilts/sources/page")
            src = strings(f, "quilts/sources/source")
            gain = [int(v) for v in f["quilts/sources/grams_covered"][:]]
            sweep_rows = len(f["quilts/sweep/m"])
        quilted_urls = [u for u, q in zip(urls, quilted) if q]
        self.assertIn("quilt.example/quilt.html", quilted_urls)
        self.report_of(result, "q.html")
        self.assertIn("quilts", self.section_ids())
        self.assertEqual(self.count_label("quilted"), "%s rows" % format(len(quilted_urls), ","))
        self.assertEqual(self.count_label("qsweep"), "%s rows" % sweep_rows)
        titles = self.chart_titles()
        for p in ("m", "c", "θ"):
            self.assertIn("Quilted pages against %s (Najork 2012, Fig. 3)" % p, titles)
        facts = self.driver.find_element(By.ID, "quilts").text
        self.assertIn("foreign-sourced", facts.lower())  # the labels are drawn in capitals by CSS

        # The planted quilt's sources, in greedy order (gains never rise), are h5py's sources.
        self.set_filter("quilted", "quilt.example")
        self.wait_for(lambda: self.count_label("quilted").startswith("1 row"))
        self.driver.find_element(By.CSS_SELECTOR, "#table-quilted tbody button.btn-refs").click()
        items = self.driver.execute_script(
            "return [...document.querySelectorAll('#table-quilted tr.detail li')].map(li =>"
            " [li.querySelector('.url-chip').textContent, li.querySelector('.meta').textContent])")
        mine = {s: g for p, s, g in zip(src_page, src, gain) if p == "quilt.example/quilt.html"}
        self.assertEqual(sorted(s for s, _ in items), sorted(mine))
        shown_gain = [int(re.search(r"covers ([\d,]+)", m).group(1).replace(",", "")) for _, m in items]
        self.assertEqual(shown_gain, sorted(shown_gain, reverse=True))
        self.assertEqual(shown_gain, [mine[s] for s, _ in items])
        self.full_screenshot("report-quilts.png")

        # Mark the quilt benign, export the URL list, rerun without it.
        self.driver.find_element(By.CSS_SELECTOR, "#table-quilted tbody select.row-mark") \
            .find_element(By.CSS_SELECTOR, "option[value='benign']").click()
        text = self.driver.execute_script("return window.crdReport.rowMarksText('quilted')")
        self.assertEqual([l for l in text.splitlines() if not l.startswith("#")], ["quilt.example/quilt.html"])
        exclude = self.tmp("exclude.txt")
        with open(exclude, "w") as f:
            f.write(text)
        rerun = self.tmp("q2.h5")
        ci.run_crd(ci.quiet(["quilts", self.corpus, "-o", rerun, "--exclude-pages", exclude]), nranks=NRANKS)
        with h5py.File(rerun, "r") as f:
            urls2 = strings(f, "quilts/pages/url")
            counters = dict(zip(strings(f, "run/counters/name"), [int(v) for v in f["run/counters/value"][:]]))
        self.assertNotIn("quilt.example/quilt.html", urls2)
        self.assertEqual(sorted(set(urls) - set(urls2)), ["quilt.example/quilt.html"])
        self.assertEqual(counters.get("quilts.pages.excluded"), 1)
        # A FIFO given as the list is refused at once, never waited on.
        fifo = self.tmp("exclude.fifo")
        os.mkfifo(fifo)
        p = ci.run_crd(["quilts", self.corpus, "-o", self.tmp("q3.h5"), "--exclude-pages", fifo], check=False,
                       timeout=60)
        self.assertEqual((p.returncode, p.stderr), (2, "crd quilts: error: page list '%s' is not a regular file\n" % fifo))
        self.assertEqual(self.console_errors(), [])


class PairsAndHashing(SectionsCase):
    def test_similarity_pairs_and_hashing_comparison(self):
        labels = self.tmp("labels.h5")
        ci.run_crd(ci.quiet(["label", os.path.join(self.corpus, "docs.example"), "-o", labels]), nranks=NRANKS)
        det = self.tmp("det.h5")
        ci.run_crd(ci.quiet(["detect", self.corpus, "--labels", labels, "--pairs", "3", "-o", det]), nranks=NRANKS)
        with h5py.File(det, "r") as f:
            pages = strings(f, "detection/pairs/page")
            first = [float(v) for v in f["detection/pairs/first"][:]]
        self.assertGreater(len(pages), 0)
        self.report_of(det, "det.html")
        self.assertIn("pairs", self.section_ids())
        self.assertEqual(self.count_label("simpairs"), "%s rows" % format(len(pages), ","))
        shown = [float(v) for v in self.table_column("simpairs", self.column_index("simpairs", "first"))]
        self.assertEqual(shown, [round(v, 4) for v in sorted(first, reverse=True)[:len(shown)]])

        truth = self.tmp("truth.txt")
        with open(truth, "w") as f:
            f.write("mirror.example/\n")
        cmp = self.tmp("cmp.h5")
        ci.run_crd(ci.quiet(["compare-hashing", self.corpus, "--labels", labels, "--truth", truth, "-o", cmp]),
                   nranks=NRANKS)
        with h5py.File(cmp, "r") as f:
            methods = sorted(set(strings(f, "compare_hashing/confusion/method")))
            rows = len(f["compare_hashing/confusion/method"])
        shown = ci.run_crd(["inspect", cmp]).stdout
        self.assertIn("exact hashing against LSH:", shown)
        for m in methods:
            self.assertRegex(shown, r"\n  %s +" % m)
        self.report_of(cmp, "cmp.html")
        self.assertIn("compare-hashing", self.section_ids())
        self.assertEqual(self.count_label("confusion"), "%s rows" % rows)
        titles = self.chart_titles()
        for m in methods:
            self.assertIn("%s: false positives by threshold" % m, titles)
        legend = self.driver.execute_script(
            "return [...document.querySelectorAll('#compare-hashing svg .series.dashed .legend')].map(t => t.textContent)")
        self.assertIn("extrapolated FP (estimate)", legend)
        self.assertEqual(self.console_errors(), [])
        self.full_screenshot("report-compare-hashing.png")


class TopLimits(unittest.TestCase):
    """The report's row limits, made tiny or overrun, keep the right rows (no browser needed)."""

    @classmethod
    def setUpClass(cls):
        cls.tmp = ci.TempDir("report-limits")
        cls.corpus = build_corpus(cls.tmp("corpus"))

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def test_top_keeps_the_closest_pairs(self):
        result = self.tmp("nd.h5")
        ci.run_crd(ci.quiet(["neardup", self.corpus, "-o", result]), nranks=NRANKS)
        with h5py.File(result, "r") as f:
            pa, pb = strings(f, "neardup/pairs/page_a"), strings(f, "neardup/pairs/page_b")
            b = [int(v) for v in f["neardup/pairs/b_sim"][:]]
            c = [int(v) for v in f["neardup/pairs/c_sim"][:]]
        self.assertGreater(len(pa), 3)
        html = self.tmp("nd.html")
        ci.run_crd(["report", result, "-o", html, "--top", "3"])
        t = report_data(html)["ndpairs"]
        best = sorted(range(len(pa)), key=lambda i: (-c[i], -b[i], i))[:3]
        self.assertEqual(t["data"]["page_a"], [pa[i] for i in best])
        self.assertEqual(t["data"]["page_b"], [pb[i] for i in best])
        self.assertEqual(t["data"]["c_sim"], [c[i] for i in best])
        self.assertEqual(t["total"], len(pa))
        self.assertIn("crd inspect", t["inspect"])

    def test_sources_beyond_the_listed_ten_and_top_one(self):
        result = self.tmp("q.h5")
        ci.run_crd(ci.quiet(["quilts", self.corpus, "-o", result]), nranks=NRANKS)
        with h5py.File(result, "r") as f:
            urls = strings(f, "quilts/pages/url")
            frac = [float(v) for v in f["quilts/pages/patchfrac"][:]]
            quilted = [int(v) for v in f["quilts/pages/quilted"][:]]
            mine = {s: int(g) for p, s, g in zip(strings(f, "quilts/sources/page"), strings(f, "quilts/sources/source"),
                                                 f["quilts/sources/grams_covered"][:]) if p == "patchwork.example/big.html"}
        self.assertEqual(len(mine), 12)
        html = self.tmp("q.html")
        ci.run_crd(["report", result, "-o", html])
        tables = report_data(html)
        q, src = tables["quilted"], tables["qsources"]
        row = q["data"]["url"].index("patchwork.example/big.html")
        self.assertEqual(q["data"]["sources"][row], 12)  # the count column counts all
        listed = q["data"]["cover"][row]
        self.assertEqual(len(listed), 10)
        self.assertEqual([src["data"]["rank"][k] for k in listed], list(range(1, 11)))
        shown = [src["data"]["source"][k] for k in listed]
        self.assertTrue(set(shown) <= set(mine))
        self.assertEqual([src["data"]["grams_covered"][k] for k in listed], sorted(mine.values(), reverse=True)[:10])
        # --top 1: the one quilted page with the highest patchfrac.
        ci.run_crd(["report", result, "-o", html, "--top", "1"])
        q = report_data(html)["quilted"]
        best = max((f, u) for u, f, k in zip(urls, frac, quilted) if k)
        self.assertEqual(q["data"]["url"], [best[1]])


try:
    from selenium.webdriver.common.by import By
except ImportError:
    By = None

if __name__ == "__main__":
    ci.main()
