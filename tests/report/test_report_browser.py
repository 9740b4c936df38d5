# crd report in a real browser (Debian's chromium + chromedriver + python3-selenium, headless):
#   HostileSamples  — chunks holding <script>, <img onerror>, </textarea>, </script> and javascript:
#                     URLs (and such a page URL) appear as literal text; nothing runs, nothing is
#                     styled, no console error, the policy holds.
#   BrowserWorkflow — a real result (crd run over sphinx-doc's HTML from the documentation corpus):
#                     tables and figures render without console errors; sort and filter; mark three
#                     chunks benign, the marks survive a reload, export the stop list; crd discover
#                     --stop-chunks with that file drops exactly those three labels (h5py).
# Screenshots land in CRD_ARTEFACT_DIR (the build tree). Exit 77 (skip) without the browser.
import os
import shutil
import sys
import time
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "support"))
import crd_integ as ci  # noqa: E402  (exits 77 without h5py)

h5py = ci.h5py
CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
CHROMEDRIVER = "/usr/bin/chromedriver"
NRANKS = 2

try:
    from selenium import webdriver
    from selenium.common.exceptions import NoAlertPresentException
    from selenium.webdriver.chrome.service import Service
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys
except ImportError:
    webdriver = None


def require_browser():
    if webdriver is None:
        ci.skip("python3-selenium is not importable by %s (scripts/install_deps.sh --browser)" % sys.executable)
    if not os.access(CHROMIUM, os.X_OK) or not os.access(CHROMEDRIVER, os.X_OK):
        ci.skip("chromium or chromedriver absent (scripts/install_deps.sh --browser)")


def start_browser(width=1400, height=1000):
    options = webdriver.ChromeOptions()
    for flag in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--window-size=%d,%d" % (width, height)):
        options.add_argument(flag)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    return webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)


def artefact(name):
    d = os.environ.get("CRD_ARTEFACT_DIR") or os.path.join(os.getcwd(), "report-artefacts")
    os.makedirs(d, exist_ok=True)
    return os.path.join(d, name)


def hexes(f, dataset):
    return [bytes(row).hex() for row in f[dataset][:]]


def strings(f, dataset):
    return [bytes(v).decode("utf-8", "replace") for v in f[dataset][:]]


class BrowserCase(unittest.TestCase):
    def open_report(self, path):
        self.driver.get("file://" + path)
        self.wait_for(lambda: self.driver.execute_script("return !!window.crdReport"))

    def wait_for(self, condition, timeout=15):
        end = time.time() + timeout
        while time.time() < end:
            if condition():
                return
            time.sleep(0.05)
        self.fail("timed out waiting for the page")

    def console_errors(self):
        return [e for e in self.driver.get_log("browser") if e.get("level") in ("SEVERE", "ERROR")]

    def assert_no_alert(self):
        with self.assertRaises(NoAlertPresentException):
            self.driver.switch_to.alert.text

    def table_column(self, table, index):
        """The text of column `index` (0-based, counting every <td>) of table #table-ID's current page."""
        return self.driver.execute_script(
            "return [...document.querySelectorAll('#table-' + arguments[0] + ' tbody tr:not(.detail)')]"
            ".map(tr => tr.children[arguments[1]].textContent)", table, index)

    def column_index(self, table, key):
        return self.driver.execute_script(
            "const ths = [...document.querySelectorAll('#table-' + arguments[0] + ' thead th')];"
            "return ths.findIndex(th => th.dataset.key === arguments[1]);", table, key)

    def count_label(self, table):
        return self.driver.execute_script(
            "return document.querySelector('#table-' + arguments[0]).closest('.table-box')"
            ".querySelector('.count').textContent", table)

    def set_filter(self, table, text):
        box = self.driver.execute_script(
            "return document.querySelector('#table-' + arguments[0]).closest('.table-box').querySelector('input.filter')",
            table)
        # Emptied as a user would (clear() fires no input event), then typed.
        self.driver.execute_script("arguments[0].select()", box)
        box.send_keys(Keys.BACKSPACE)
        if text:
            box.send_keys(text)

    def click_header(self, table, key):
        self.driver.execute_script(
            "document.querySelector('#table-' + arguments[0] + ' thead th[data-key=\"' + arguments[1] + '\"]').click()",
            table, key)

    def full_screenshot(self, name):
        height = self.driver.execute_script("return document.documentElement.scrollHeight")
        self.driver.set_window_size(1400, min(max(1000, height), 16000))
        self.driver.save_screenshot(artefact(name))
        self.driver.set_window_size(1400, 1000)


# ---- hostile samples ------------------------------------------------------------------------

HOSTILE_PARAGRAPHS = [
    "<p>Script tag: <script>alert('crd-script')</script> end.",
    "<p>Image: <img src=x onerror=\"alert('crd-img')\"> end.",
    "<p>Closers: </textarea></script></style><!-- --> <b>bold?</b> end.",
    "<p>Link: <a href=\"javascript:alert('crd-js')\">click me</a> and <a href='JaVaScRiPt:alert(1)'>x</a>.",
    "<p>Style: <style>body{display:none}</style><div style=\"position:fixed;inset:0;background:red\">cover",
    "<p>Separators: a\u2028b\u2029c & &amp; \"quotes\" 'single' =HYPERLINK(\"x\") end.",
]
HOSTILE_NAME = "<img src=x onerror=alert(9)>.html"


def build_hostile_corpus(root):
    site = os.path.join(root, "evil.example")
    os.makedirs(site)
    for i in range(4):  # every chunk occurs 4 times: labeled at --chunk-threshold 1
        name = HOSTILE_NAME if i == 0 else "page%d.html" % i
        with open(os.path.join(site, name), "w", encoding="utf-8") as f:
            f.write("<html><body>" + "".join(HOSTILE_PARAGRAPHS) + "<p>Unique paragraph %d.</body></html>" % i)
    return root


class HostileSamples(BrowserCase):
    @classmethod
    def setUpClass(cls):
        require_browser()
        cls.tmp = ci.TempDir("report-hostile")
        corpus = build_hostile_corpus(cls.tmp("corpus"))
        cls.result = cls.tmp("hostile.h5")
        ci.run_crd(ci.quiet(["run", corpus, "-o", cls.result, "--chunk-threshold", "1"]), nranks=NRANKS)
        cls.report = cls.tmp("hostile.html")
        ci.run_crd(["report", cls.result, "-o", cls.report])
        with h5py.File(cls.result, "r") as f:
            cls.samples = strings(f, "discovery/chunks/sample")
            cls.urls = strings(f, "discovery/chunks/sample_url")
        cls.driver = start_browser()

    @classmethod
    def tearDownClass(cls):
        cls.driver.quit()
        cls.tmp.cleanup()

    def test_result_holds_the_hostile_chunks(self):
        # The premise: the samples really carry the markup (the scan chunker keeps it).
        joined = "\n".join(self.samples)
        for needle in ("<script>alert('crd-script')</script>", "onerror=\"alert('crd-img')\"", "</textarea></script>",
                       "javascript:alert('crd-js')", "<style>body{display:none}</style>"):
            self.assertIn(needle, joined)
        self.assertIn("evil.example/" + HOSTILE_NAME, self.urls)

    def test_page_source_has_only_crds_own_elements(self):
        with open(self.report, encoding="utf-8") as f:
            html = f.read()
        self.assertEqual(html.count("<script"), 2)  # the JSON data and crd's script
        self.assertEqual(html.count("</script"), 2)
        self.assertEqual(html.count("<style"), 1)
        self.assertNotIn("<img", html)
        self.assertNotIn("</textarea", html)
        self.assertNotIn("onerror=\"alert", html)
        self.assertIn("\\u003cscript\\u003ealert('crd-script')\\u003c/script\\u003e", html)
        csp = html.split('http-equiv="Content-Security-Policy" content="')[1].split('"')[0]
        self.assertTrue(csp.startswith("default-src &#39;none&#39;; script-src &#39;sha256-"), csp)
        self.assertNotIn("unsafe", csp)

    def test_samples_show_as_literal_text_and_nothing_runs(self):
        self.open_report(self.report)
        self.assert_no_alert()
        self.assertEqual(self.console_errors(), [])
        dom = self.driver.execute_script(
            "return {img: document.querySelectorAll('img').length, script: document.scripts.length,"
            " style: document.querySelectorAll('style').length, textarea: document.querySelectorAll('textarea').length,"
            " links: [...document.querySelectorAll('a[href]')].map(a => a.getAttribute('href')),"
            " bodyShown: getComputedStyle(document.body).display}")
        self.assertEqual(dom["img"], 0)
        self.assertEqual(dom["script"], 2)
        self.assertEqual(dom["style"], 1)
        self.assertEqual(dom["textarea"], 0)
        self.assertTrue(all(h.startswith("#") for h in dom["links"]), dom["links"])  # only the section anchors
        self.assertEqual(dom["bodyShown"], "block")
        samples = self.table_column("chunks", self.column_index("chunks", "sample"))
        text = "\n".join(samples)
        for needle in ("<script>alert('crd-script')</script>", "<img src=x onerror=\"alert('crd-img')\">",
                       "</textarea></script></style><!-- --> <b>bold?</b>", "javascript:alert('crd-js')",
                       "<div style=\"position:fixed;inset:0;background:red\">cover"):
            self.assertIn(needle, text)
        visible = self.driver.find_element(By.ID, "table-chunks").text
        self.assertIn("<script>alert('crd-script')</script>", visible)  # rendered, visible, literal
        urls = self.table_column("chunks", self.column_index("chunks", "sample_url"))
        self.assertIn("evil.example/" + HOSTILE_NAME, urls)
        self.full_screenshot("report-hostile.png")
        self.assert_no_alert()
        self.assertEqual(self.console_errors(), [])

    def test_categories_csv_escapes_samples(self):
        self.open_report(self.report)
        self.driver.execute_script("localStorage.clear()")
        self.driver.refresh()
        self.wait_for(lambda: self.driver.execute_script("return !!window.crdReport"))
        self.set_filter("chunks", "HYPERLINK")
        self.wait_for(lambda: self.count_label("chunks").startswith("1 row"))
        select = self.driver.find_element(By.CSS_SELECTOR, "#table-chunks tbody select.category")
        select.find_element(By.CSS_SELECTOR, "option[value='Misc.']").click()
        csv = self.driver.execute_script("return window.crdReport.categoriesCsvText()")
        lines = csv.split("\r\n")
        self.assertEqual(lines[0], "hash,category,sample")
        sample = [s for s in self.samples if "HYPERLINK" in s][0]
        expected_sample = '"' + sample.replace('"', '""') + '"'
        self.assertEqual(lines[1].split(",", 2)[1], '"Misc."')
        self.assertEqual(lines[1].split(",", 2)[2], expected_sample)
        self.assertEqual(lines[2:], [""])
        # Samples never start with a formula here (the scan chunker keeps the tag), so the guard is
        # checked on the page's own field encoder.
        fields = self.driver.execute_script("return arguments[0].map(window.crdReport.csvField)",
                                            ['=HYPERLINK("x")', '+1', '-1', '@SUM(A1)', 'plain, "quoted"\nline'])
        self.assertEqual(fields, ['"\'=HYPERLINK(""x"")"', '"\'+1"', '"\'-1"', '"\'@SUM(A1)"',
                                  '"plain, ""quoted""\nline"'])


# ---- usage errors (no browser needed) -------------------------------------------------------

class UsageErrors(unittest.TestCase):
    def setUp(self):
        self.tmp = ci.TempDir("report-usage")

    def tearDown(self):
        self.tmp.cleanup()

    def check(self, args, status, message):
        p = ci.run_crd(args, check=False)
        self.assertEqual(p.returncode, status, p.stderr)
        self.assertEqual(p.stderr, "crd report: error: %s\n" % message if status == 2 else p.stderr)
        if status == 2:
            self.assertEqual(len(p.stderr.splitlines()), 1)
        self.assertEqual([n for n in os.listdir(self.tmp.path) if ".tmp-" in n], [])

    def test_usage_errors(self):
        text = self.tmp("not.h5")
        with open(text, "w") as f:
            f.write("hello\n")
        out = self.tmp("r.html")
        self.check(["report", "-o", out], 2, "no result file given")
        self.check(["report", text, text, "-o", out], 2, "give exactly one result file (got 2)")
        p = ci.run_crd(["report", text, "-o", out], check=False)
        self.assertEqual(p.returncode, 2)
        self.assertTrue(p.stderr.startswith("crd report: error: %s is not a crd result file" % text), p.stderr)
        self.assertFalse(os.path.exists(out))
        p = ci.run_crd(["report", text, "-o", text], check=False)
        self.assertEqual((p.returncode, p.stderr), (2, "crd report: error: output '%s' is the same file as '%s', "
                                                       "which this job reads: refusing to overwrite it\n" % (text, text)))


# ---- the workflow on a real result ----------------------------------------------------------

class BrowserWorkflow(BrowserCase):
    @classmethod
    def setUpClass(cls):
        require_browser()
        cls.corpus = ci.sphinx_html()
        cls.tmp = ci.TempDir("report-workflow")
        cls.config = os.path.join(ci.source_dir(), "configs", "quickstart.ini")
        cls.result = cls.tmp("run.h5")
        ci.run_crd(ci.quiet(["run", cls.corpus, "--config", cls.config, "--chunk-threshold", "5", "-o", cls.result]),
                   nranks=NRANKS)
        cls.report = cls.tmp("report.html")
        ci.run_crd(["report", cls.result, "-o", cls.report])
        with h5py.File(cls.result, "r") as f:
            cls.hashes = hexes(f, "discovery/chunks/hash")
            cls.samples = strings(f, "discovery/chunks/sample")
            cls.urls = strings(f, "discovery/chunks/sample_url")
            cls.lengths = [int(v) for v in f["discovery/chunks/length"][:]]
            cls.stop_removed = int(f["discovery/chunks"].attrs["stop_removed"])
            cls.hood_badness = [float(v) for v in f["detection/neighborhoods/badness"][:]]
        cls.driver = start_browser()

    @classmethod
    def tearDownClass(cls):
        cls.driver.quit()
        cls.tmp.cleanup()

    def test_workflow(self):
        self.assertGreater(len(self.hashes), 60, "the corpus should label more than a page of chunks")
        self.open_report(self.report)
        self.driver.execute_script("localStorage.clear()")
        self.driver.refresh()
        self.wait_for(lambda: self.driver.execute_script("return !!window.crdReport"))

        # Tables and figures render, without console errors.
        rows = self.driver.execute_script(
            "return Object.fromEntries([...document.querySelectorAll('table.data')]"
            ".map(t => [t.id, t.querySelectorAll('tbody tr').length]))")
        for table in ("table-counters", "table-skips", "table-resources", "table-chunks", "table-files",
                      "table-neighborhoods", "table-pages", "table-dlabels"):
            self.assertIn(table, rows)
        self.assertEqual(rows["table-chunks"], 50)
        self.assertEqual(rows["table-skips"], 1)  # "None.": the documentation corpus has no bad input  # one page
        self.assertEqual(self.count_label("chunks"), "%s rows" % format(len(self.hashes), ","))
        charts = self.driver.execute_script(
            "return [...document.querySelectorAll('svg.chart')].map(s => [s.querySelector('title').textContent,"
            " s.getBoundingClientRect().width, s.querySelectorAll('circle, rect').length])")
        titles = [c[0] for c in charts]
        for title in ("Chunks: frequency–occurrence (paper Fig. 2)", "Files: frequency–occurrence (paper Fig. 1)",
                      "Neighborhoods by badness (paper Fig. 12)", "Pages by containment",
                      "Wall time per phase (slowest rank)"):
            self.assertIn(title, titles)
        for title, width, marks in charts:
            self.assertGreater(width, 300, title)
            self.assertGreater(marks, 2, title)
        self.assertEqual(self.console_errors(), [])
        self.full_screenshot("report-overview.png")

        # The first page holds the result's first rows (by count), with their samples and URLs.
        sample_col = self.column_index("chunks", "sample")
        self.assertEqual(self.table_column("chunks", sample_col), self.samples[:50])

        # Sort by length: descending, then ascending on a second click.
        length_col = self.column_index("chunks", "length")
        self.click_header("chunks", "length")
        shown = [int(v.replace(",", "")) for v in self.table_column("chunks", length_col)]
        self.assertEqual(shown, sorted(self.lengths, reverse=True)[:50])
        self.click_header("chunks", "length")
        shown = [int(v.replace(",", "")) for v in self.table_column("chunks", length_col)]
        self.assertEqual(shown, sorted(self.lengths)[:50])

        # Worst neighborhoods come first by badness.
        badness_col = self.column_index("neighborhoods", "badness")
        shown = [float(v) for v in self.table_column("neighborhoods", badness_col)]
        self.assertEqual(shown, [round(b, 4) for b in sorted(self.hood_badness, reverse=True)[:len(shown)]])

        # Filter: the rows whose sample, URL or hash contain the term (case-insensitive).
        term = "sphinx"
        expected = sum(1 for h, s, u in zip(self.hashes, self.samples, self.urls)
                       if term in s.lower() or term in u.lower() or term in h)
        self.assertGreater(expected, 0)
        self.assertLess(expected, len(self.hashes))
        self.set_filter("chunks", "SPHINX")
        self.wait_for(lambda: self.count_label("chunks").startswith(format(expected, ",") + " row"))
        for s, u in zip(self.table_column("chunks", sample_col),
                        self.table_column("chunks", self.column_index("chunks", "sample_url"))):
            self.assertTrue(term in s.lower() or term in u.lower())
        self.set_filter("chunks", "")
        self.click_header("chunks", "count")  # back to the result's order: count, descending
        self.wait_for(lambda: self.table_column("chunks", sample_col) == self.samples[:50])

        # Mark the 2nd, 3rd and 5th chunks benign; give one a paper category and one a new one.
        boxes = self.driver.find_elements(By.CSS_SELECTOR, "#table-chunks tbody input.benign-box")
        marked = []
        for k in (1, 2, 4):
            marked.append(boxes[k].get_attribute("data-hash"))
            boxes[k].click()
            boxes = self.driver.find_elements(By.CSS_SELECTOR, "#table-chunks tbody input.benign-box")
        self.assertEqual(marked, [self.hashes[1], self.hashes[2], self.hashes[4]])
        self.driver.find_element(By.CSS_SELECTOR, "input.new-category").send_keys("Navigation (mine)\n")
        selects = self.driver.find_elements(By.CSS_SELECTOR, "#table-chunks tbody select.category")
        selects[1].find_element(By.CSS_SELECTOR, "option[value='Templates']").click()
        selects = self.driver.find_elements(By.CSS_SELECTOR, "#table-chunks tbody select.category")
        selects[3].find_element(By.CSS_SELECTOR, "option[value='Navigation (mine)']").click()
        self.assertEqual(self.driver.find_element(By.CSS_SELECTOR, ".pruning-count").text, "3 benign · 2 categorized")
        self.full_screenshot("report-pruning.png")

        # The marks survive a reload (localStorage by run id).
        self.driver.refresh()
        self.wait_for(lambda: self.driver.execute_script("return !!window.crdReport"))
        checked = self.driver.execute_script(
            "return [...document.querySelectorAll('#table-chunks input.benign-box')].filter(b => b.checked)"
            ".map(b => b.dataset.hash)")
        self.assertEqual(sorted(checked), sorted(marked))
        stop_text = self.driver.execute_script("return window.crdReport.stopListText()")
        csv = self.driver.execute_script("return window.crdReport.categoriesCsvText()")
        self.assertEqual(sorted(line for line in stop_text.splitlines() if not line.startswith("#")), sorted(marked))
        csv_rows = sorted(line.split(",")[:2] for line in csv.split("\r\n")[1:] if line)
        self.assertEqual(csv_rows, sorted([['"%s"' % self.hashes[1], '"Templates"'],
                                           ['"%s"' % self.hashes[3], '"Navigation (mine)"']]))
        self.assertEqual(self.console_errors(), [])

        # The exported stop list, as written, drops exactly those chunks from discovery's labels.
        stop_file = self.tmp("stop-chunks.txt")
        with open(stop_file, "w", encoding="utf-8") as f:
            f.write(stop_text)
        rerun = self.tmp("rerun.h5")
        ci.run_crd(ci.quiet(["discover", self.corpus, "--config", self.config, "--chunk-threshold", "5",
                             "--stop-chunks", stop_file, "-o", rerun]), nranks=NRANKS)
        with h5py.File(rerun, "r") as f:
            after = hexes(f, "discovery/chunks/hash")
            self.assertEqual(int(f["discovery/chunks"].attrs["stop_removed"]), self.stop_removed + 3)
        for h in marked:
            self.assertNotIn(h, after)
        self.assertEqual(after, [h for h in self.hashes if h not in marked])


if __name__ == "__main__":
    ci.main()
