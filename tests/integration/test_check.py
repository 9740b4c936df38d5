# crd check (single pages, no MPI) must score pages exactly as crd detect does: same labeled and
# total chunk counts, containment and flag, with the same labels, stop rule and fixed threshold;
# and a page read from stdin ("-") must score like the same page read from its file.
import os
import re
import shutil
import unittest

import crd_integ as ci

MIN_CHUNK_LENGTH = "20"
PAGE_THRESHOLD = "0.3"
MIN_LABELED = "2"
LINE = re.compile(r"^(.*): (\d+)/(\d+) labeled chunks, containment ([0-9.]+)(  FLAGGED)?$")


def parse(stdout):
    out = {}
    for line in stdout.splitlines():
        m = LINE.match(line)
        if m:
            out[m.group(1)] = (int(m.group(2)), int(m.group(3)), float(m.group(4)), bool(m.group(5)))
    return out


class CheckAgreesWithDetect(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        html = ci.sphinx_html()
        debref = ci.corpus_package("debian-reference-en")
        pages = sorted(os.path.join(html, n) for n in os.listdir(html) if n.endswith(".html"))
        if len(pages) < 12:
            ci.skip("too few sphinx-doc pages under " + html)
        cls.tmp = ci.TempDir("check")
        # Expert corpus: half of the top-level sphinx pages; checked corpus: the other half plus
        # debian-reference pages (a different template: low containment expected).
        expert, checked = pages[::2], pages[1::2]
        for i, p in enumerate(expert):
            dst = cls.tmp("expert", "sphinx", os.path.basename(p))
            os.makedirs(os.path.dirname(dst), exist_ok=True)
            os.symlink(p, dst)
        cls.pages = {}
        for p in checked:
            cls.pages["sphinx/" + os.path.basename(p)] = p
        for root, _, names in os.walk(debref):
            for n in sorted(names):
                if n.endswith(".html") and len([k for k in cls.pages if k.startswith("debref/")]) < 8:
                    cls.pages["debref/" + n] = os.path.join(root, n)
        for key, src in cls.pages.items():
            dst = cls.tmp("corpus", key)
            os.makedirs(os.path.dirname(dst), exist_ok=True)
            shutil.copyfile(src, dst)
        cls.labels = cls.tmp("L.h5")
        ci.run_crd(ci.quiet(["label", cls.tmp("expert"), "-o", cls.labels, "--min-chunk-length", MIN_CHUNK_LENGTH]),
                   nranks=2)
        cls.detect = cls.tmp("detect.h5")
        ci.run_crd(ci.quiet(["detect", cls.tmp("corpus"), "--labels", cls.labels, "-o", cls.detect,
                             "--min-chunk-length", MIN_CHUNK_LENGTH, "--page-threshold", PAGE_THRESHOLD,
                             "--min-labeled", MIN_LABELED]), nranks=2)
        files = [cls.tmp("corpus", k) for k in sorted(cls.pages)]
        proc = ci.run_crd(["check", "--labels", cls.labels, "--min-chunk-length", MIN_CHUNK_LENGTH,
                           "--page-threshold", PAGE_THRESHOLD, "--min-labeled", MIN_LABELED, "--show", "1"] + files)
        cls.check_stdout = proc.stdout
        cls.checked = {os.path.relpath(path, cls.tmp("corpus")): v for path, v in parse(proc.stdout).items()}

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def test_every_page_agrees(self):
        t = ci.open_results(self.detect).pages
        detected = {u: (int(l), int(c), float(x), bool(fl)) for u, l, c, x, fl in
                    zip(t["url"], t["labeled"], t["chunks"], t["containment"], t["flagged"])}
        self.assertEqual(sorted(self.checked), sorted(self.pages), self.check_stdout)
        self.assertEqual(sorted(detected), sorted(self.pages))
        for key in sorted(self.pages):
            with self.subTest(page=key):
                labeled, chunks, containment, flagged = self.checked[key]
                d = detected[key]
                self.assertEqual((labeled, chunks), (d[0], d[1]))
                self.assertAlmostEqual(containment, d[2], places=4)
                self.assertEqual(flagged, d[3])
        # The comparison must cover flagged and unflagged, labeled and unlabeled pages.
        flags = {v[3] for v in self.checked.values()}
        self.assertEqual(flags, {True, False}, self.check_stdout)
        self.assertTrue(any(v[0] == 0 for v in self.checked.values()))
        n_flagged = sum(v[3] for v in self.checked.values())
        self.assertIn("%d of %d pages flagged" % (n_flagged, len(self.pages)), self.check_stdout)

    def test_stdin(self):
        key = max(self.checked, key=lambda k: self.checked[k][0])  # the page with most labeled chunks
        with open(self.tmp("corpus", key), "rb") as f:
            body = f.read()
        proc = ci.run_crd(["check", "--labels", self.labels, "--min-chunk-length", MIN_CHUNK_LENGTH,
                           "--page-threshold", PAGE_THRESHOLD, "--min-labeled", MIN_LABELED, "-"], stdin=body)
        got = parse(proc.stdout)
        self.assertEqual(list(got), ["-"], proc.stdout)
        self.assertEqual(got["-"], self.checked[key])
        self.assertGreater(got["-"][0], 0)


class BorderlinePage(unittest.TestCase):
    """One page, 1 of its 2 chunks labeled: containment 0.5 exactly. At --page-threshold 0.5 neither
    detect nor check flags it (the rule is strictly above); just below, both do, unless
    --min-labeled asks for more labeled chunks than the page has (1 = enough: at least)."""

    @classmethod
    def setUpClass(cls):
        cls.tmp = t = ci.TempDir("borderline")
        for path, text in (("expert/bank/a.html", "<p>the labeled paragraph</p>"),
                           ("corpus/site/page.html", "<p>the labeled paragraph</p><p>a paragraph of its own</p>")):
            os.makedirs(os.path.dirname(t(path)), exist_ok=True)
            with open(t(path), "w") as f:
                f.write(text)
        ci.run_crd(ci.quiet(["label", t("expert"), "-o", t("L.h5")]), nranks=2)

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def scores(self, threshold, min_labeled):
        t = self.tmp
        options = ["--labels", t("L.h5"), "--page-threshold", threshold, "--min-labeled", min_labeled]
        ci.run_crd(ci.quiet(["detect", t("corpus"), "-o", t("d.h5")] + options), nranks=2)
        pages = ci.open_results(t("d.h5")).pages
        detected = [(int(l), int(c), float(x), bool(fl)) for l, c, x, fl in
                    zip(pages["labeled"], pages["chunks"], pages["containment"], pages["flagged"])]
        os.remove(t("d.h5"))
        checked = parse(ci.run_crd(["check"] + options + [t("corpus", "site", "page.html")]).stdout)
        return detected, list(checked.values())

    def test_detect_and_check_agree_at_the_threshold(self):
        for threshold, min_labeled, flagged in (("0.5", "1", False), ("0.4999", "1", True), ("0.4999", "2", False)):
            with self.subTest(threshold=threshold, min_labeled=min_labeled):
                detected, checked = self.scores(threshold, min_labeled)
                self.assertEqual(detected, [(1, 2, 0.5, flagged)])
                self.assertEqual(checked, [(1, 2, 0.5, flagged)])


if __name__ == "__main__":
    ci.main()
