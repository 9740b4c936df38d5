# --chunker winnow end to end: every chunker-aware command accepts it (label, discover,
# detect, run, check, compare); a copy of a site with a one-character edit every ~12 words, which
# exact paragraph chunks no longer find, is flagged page by page while unrelated hosts are not; the
# result is identical at 1 and 2 ranks; inspect and report name the chunker.
import json
import os
import random
import re
import unittest

import crd_integ as ci

WORDS = ["alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf", "hotel", "india", "juliet", "kilo",
         "lima", "mike", "november", "oscar", "papa", "quebec", "romeo", "sierra", "tango", "uniform", "victor",
         "whiskey", "xray", "yankee", "zulu"]
WINNOW = ["--chunker", "winnow"]


def vocabulary_word(rng):
    # Two NATO words and a number: a vocabulary of ~68,000 words, so unrelated pages share no 5-gram.
    return "%s%s%d" % (rng.choice(WORDS), rng.choice(WORDS), rng.randrange(100))


def page(rng, paragraphs=6, words=40):
    return "<html><body>" + "".join(
        "<p>" + " ".join(vocabulary_word(rng) for _ in range(words)) + ".</p>\n" for _ in range(paragraphs)) + "</body></html>"


def edited(html, rng, every=12):
    """One letter changed in about every `every`-th word of the text (never in markup)."""
    out = []
    for token in re.split(r"(<[^>]*>|\s+)", html):
        if token and token[0].isalpha() and rng.randrange(every) == 0:
            i = rng.randrange(len(token))
            token = token[:i] + ("q" if token[i] != "q" else "z") + token[i + 1:]
        out.append(token)
    return "".join(out)


def write(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(text)


class DetectsWinnow:
    """A test case's `crd detect --chunker winnow` over its tmp("corpus") against its labels (set up
    by the class: cls.tmp, cls.labels), at nranks, returning the opened result; the flagged pages of a
    host; the class's tmp removed at its end."""

    def detect(self, nranks, name, extra=()):
        out = self.tmp(name)
        ci.run_crd(ci.quiet(["detect", self.tmp("corpus"), "--labels", self.labels, "-o", out] + WINNOW + list(extra)),
                   nranks=nranks, timeout=300)
        return ci.open_results(out)

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def flagged(self, r, host):
        """(sorted flagged URLs, pages scored) of one host in a detection."""
        pages = r.pages
        mine = pages[pages["url"].str.startswith(host + "/")]
        return sorted(mine[mine["flagged"] == 1]["url"]), len(mine)


class WinnowEndToEnd(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = ci.TempDir("winnow")
        rng = random.Random(35)
        site = {"p%d.html" % i: page(rng) for i in range(8)}
        for name, html in site.items():
            write(cls.tmp("site", "site.example", name), html)
            write(cls.tmp("corpus", "copy.example", name), edited(html, rng))
        for h in range(4):
            for i in range(6):
                write(cls.tmp("corpus", "other%d.example" % h, "p%d.html" % i), page(rng))
        cls.labels = cls.tmp("L.h5")
        ci.run_crd(ci.quiet(["label", cls.tmp("site"), "-o", cls.labels] + WINNOW), timeout=120)
        cls.scan_labels = cls.tmp("L-scan.h5")
        ci.run_crd(ci.quiet(["label", cls.tmp("site"), "-o", cls.scan_labels]), timeout=120)

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def detect(self, labels, chunker, nranks, name):
        out = self.tmp(name)
        ci.run_crd(ci.quiet(["detect", self.tmp("corpus"), "--labels", labels, "-o", out, "--page-threshold", "0.3",
                             "--max-neighborhood-depth", "0"] + chunker), nranks=nranks, timeout=300)
        return out

    def test_edited_copy_is_flagged_by_winnow_not_by_exact_chunks(self):
        one = self.detect(self.labels, WINNOW, 1, "d1.h5")
        two = self.detect(self.labels, WINNOW, 2, "d2.h5")
        ci.assert_same_datasets(self, ci.comparable(one)[0], ci.comparable(two)[0], "at np=2")
        r = ci.open_results(one)
        pages = r.pages
        copy = pages[pages["url"].str.startswith("copy.example/")]
        others = pages[~pages["url"].str.startswith("copy.example/")]
        self.assertEqual(len(copy), 8)
        self.assertEqual(int(copy["flagged"].sum()), 8, copy[["url", "containment"]])
        self.assertGreater(float(copy["containment"].min()), 0.4)
        self.assertEqual(int(others["labeled"].sum()), 0, "unrelated pages share no 5-word gram with the site")
        flagged_hosts = set(r.neighborhoods[r.neighborhoods["flagged"] == 1]["prefix"])
        self.assertEqual(flagged_hosts, {"copy.example"})
        # Exact paragraphs: every paragraph of the copy holds an edit, so none is found.
        scan = ci.open_results(self.detect(self.scan_labels, [], 1, "d-scan.h5")).pages
        self.assertEqual(int(scan[scan["url"].str.startswith("copy.example/")]["flagged"].sum()), 0)

    def test_discover_and_run_accept_it(self):
        for command in ("discover", "run"):
            out = self.tmp(command + ".h5")
            ci.run_crd(ci.quiet([command, self.tmp("corpus"), "-o", out, "--chunk-threshold", "0"] + WINNOW),
                       nranks=2, timeout=300)
            counters = ci.open_results(out).counters.to_dict()
            self.assertGreater(counters["chunks"], 0)
            self.assertNotIn("skipped.winnow.few_words", counters)
        text = ci.run_crd(["inspect", self.tmp("run.h5"), "--top", "1"]).stdout
        self.assertIn("chunker: winnow (gram-words 5, window 12)", text)
        report = self.tmp("report.html")
        ci.run_crd(["report", self.tmp("run.h5"), "-o", report])
        with open(report) as f:
            self.assertIn("winnow (gram-words 5, window 12)", f.read())

    def test_check_and_compare_accept_it(self):
        copy_page = self.tmp("corpus", "copy.example", "p0.html")
        other_page = self.tmp("corpus", "other0.example", "p0.html")
        out = ci.run_crd(["check", copy_page, other_page, "--labels", self.labels, "--page-threshold", "0.3"] + WINNOW).stdout
        lines = out.splitlines()
        self.assertTrue(any(l.startswith(copy_page) and l.endswith("FLAGGED") for l in lines), out)
        self.assertTrue(any(l.startswith(other_page) and "containment 0.0000" in l for l in lines), out)
        compared = json.loads(ci.run_crd(["compare", self.tmp("site", "site.example", "p0.html"), copy_page, other_page,
                                          "--json"] + WINNOW).stdout)
        pairs = {(p["a"], p["b"]): p["similarity"] for p in compared["pairs"]}
        self.assertEqual(list(pairs), [(0, 1)], "only the site page and its edited copy share grams")
        self.assertGreater(min(pairs[0, 1]), 0.4)


if __name__ == "__main__":
    ci.main()
