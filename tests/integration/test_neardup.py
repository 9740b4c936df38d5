# crd neardup under mpirun at 1–4 ranks on real pages of the documentation corpus, with
# near-duplicates made here (a few words changed, on another host and on the same host), an exact
# copy (one identity set) and unrelated pages. Asserts the exact pairs each method finds among
# them, that unrelated pages pair with nothing, and that every result file is identical for any
# rank count. The whole debian-reference package rides along, so the shuffle has real volume.
import os
import re
import sys
import unittest

import crd_integ as ci

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "analysis"))
import plot_results  # noqa: E402

RANKS = (1, 2, 3, 4)
METHODS = ("minhash", "simhash", "combined")
PY = ("usr", "share", "doc", "python3.11", "html", "library")


def change_words(html, count, marker):
    """Replaces one word in each of `count` text segments in the middle of the page (never inside
    markup, so the token sequence really changes)."""
    segments = [m for m in re.finditer(r">([^<>]*[A-Za-z]{4,}[^<>]*)<", html)]
    middle = len(segments) // 2
    out, at = [], 0
    for i, m in enumerate(segments[middle:middle + count]):
        word = re.search(r"[A-Za-z]{4,}", m.group(1))
        start = m.start(1) + word.start()
        out.append(html[at:start] + "%s%d" % (marker, i))
        at = m.start(1) + word.end()
    return "".join(out) + html[at:]


class Neardup(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        python = ci.corpus_package("python3.11-doc")
        cls.debref = ci.corpus_package("debian-reference-en")
        cls.tmp = ci.TempDir("neardup")
        read = lambda name: open(os.path.join(python, *PY, name), encoding="utf-8").read()
        tree = cls.tmp("pages")
        files = {
            "a.example/inspect.html": read("inspect.html"),
            "a.example/zz-copy-of-inspect.html": read("inspect.html"),  # identical: one identity set
            "b.example/inspect.html": change_words(read("inspect.html"), 3, "changedword"),
            "a.example/traceback.html": read("traceback.html"),
            "a.example/traceback-edited.html": change_words(read("traceback.html"), 2, "edit"),
            "c.example/gc.html": read("gc.html"),
            "c.example/mimetypes.html": read("mimetypes.html"),
            "c.example/profile.html": read("profile.html"),
        }
        for name, text in files.items():
            os.makedirs(os.path.dirname(os.path.join(tree, name)), exist_ok=True)
            with open(os.path.join(tree, name), "w", encoding="utf-8") as f:
                f.write(text)
        cls.results = {}
        for method in METHODS:
            for n in RANKS:
                cwd = cls.tmp("%s-np%d" % (method, n))
                os.makedirs(cwd)
                ci.run_crd(ci.quiet(["neardup", tree, cls.debref, "--method", method, "-o", "out.h5"]),
                           nranks=n, cwd=cwd)
                cls.results[method, n] = os.path.join(cwd, "out.h5")

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def ours(self, method):
        """The pairs among the constructed pages (hosts *.example)."""
        pairs = ci.open_results(self.results[method, 1]).neardup_pairs
        mine = pairs[pairs["page_a"].str.contains(r"\.example/") | pairs["page_b"].str.contains(r"\.example/")]
        return {(a, b): (int(bs), int(cs), int(s)) for a, b, bs, cs, s in
                zip(mine["page_a"], mine["page_b"], mine["b_sim"], mine["c_sim"], mine["same_site"])}

    def test_each_method_finds_exactly_the_near_copies(self):
        for method in METHODS:
            with self.subTest(method=method):
                found = self.ours(method)
                self.assertEqual(sorted(found), [("a.example/inspect.html", "b.example/inspect.html"),
                                                 ("a.example/traceback-edited.html", "a.example/traceback.html")])
                b_sim, c_sim, same = found["a.example/inspect.html", "b.example/inspect.html"]
                self.assertEqual(same, 0)
                self.assertGreaterEqual(b_sim, 2)
                self.assertGreaterEqual(c_sim, 372 if method == "simhash" else 355)
                self.assertLessEqual(c_sim, 384)  # three words in thousands can leave every bit as it was
                self.assertEqual(found["a.example/traceback-edited.html", "a.example/traceback.html"][2], 1)

    def test_identical_pages_are_one_set(self):
        r = ci.open_results(self.results["minhash", 1])
        ident = r.neardup_identical
        mine = ident[ident["page"].str.contains(r"\.example/")]
        self.assertEqual(list(zip(mine["page"], mine["representative"])),
                         [("a.example/zz-copy-of-inspect.html", "a.example/inspect.html")])

    def test_attributes_count_what_the_tables_hold(self):
        for method in METHODS:
            r = ci.open_results(self.results[method, 1])
            attrs, pairs = r.neardup_attrs, r.neardup_pairs
            self.assertEqual(attrs["method"], method)
            self.assertEqual(attrs["pairs"], len(pairs))
            self.assertEqual(attrs["same_site_pairs"], int(pairs["same_site"].sum()))
            self.assertEqual(attrs["different_site_pairs"], len(pairs) - int(pairs["same_site"].sum()))
            self.assertEqual(attrs["pages"], attrs["identity_sets"] + len(r.neardup_identical))
            degree = r.neardup_degree
            pages_in_pairs = set(pairs["page_a"]) | set(pairs["page_b"])
            self.assertEqual(int(degree["distinct"].sum()), len(pages_in_pairs))
            self.assertEqual(int((degree["occurrences"] * degree["distinct"]).sum()), 2 * len(pairs))
            self.assertEqual(r.counters["neardup.pages.sketched"], attrs["pages"])
            rows = list(zip(pairs["page_a"], pairs["page_b"]))
            self.assertEqual(rows, sorted(rows))
            self.assertTrue(all(a < b for a, b in rows))

    def test_results_are_identical_for_any_rank_count(self):
        for method in METHODS:
            base_d, base_a = ci.comparable(self.results[method, 1], drop_root=("nranks", "created", "command_line"))
            for n in RANKS[1:]:
                d, a = ci.comparable(self.results[method, n], drop_root=("nranks", "created", "command_line"))
                ci.assert_same_datasets(self, d, base_d, "%s at np=%d" % (method, n))
                self.assertEqual(a, base_a, "%s at np=%d" % (method, n))

    def test_the_preset_is_the_defaults_with_the_combined_method(self):
        cwd = self.tmp("preset")
        os.makedirs(cwd)
        preset = os.path.join(ci.source_dir(), "configs", "neardup-henzinger.ini")
        ci.run_crd(ci.quiet(["neardup", self.tmp("pages"), self.debref, "--config", preset, "-o", "out.h5"]),
                   nranks=2, cwd=cwd)
        d, a = ci.comparable(os.path.join(cwd, "out.h5"), drop_root=("nranks", "created", "command_line", "config"))
        base_d, base_a = ci.comparable(self.results["combined", 1],
                                       drop_root=("nranks", "created", "command_line", "config"))
        ci.assert_same_datasets(self, d, base_d, "with the preset")

    def test_inspect_and_plots(self):
        path = self.results["minhash", 1]
        out = ci.run_crd(["inspect", path]).stdout
        self.assertIn("near-duplicates (minhash)", out)
        self.assertIn("a.example/inspect.html  b.example/inspect.html", out)
        self.assertIn("buckets over --max-bucket: 0", out)
        figures = self.tmp("figures")
        self.assertEqual(plot_results.main([path, "--out", figures]), 0)
        for name in ("out_neardup_degree.png", "out_neardup_b_vs_c.png"):
            self.assertGreater(os.path.getsize(os.path.join(figures, name)), 10000, name)

    def test_a_small_bucket_cap_is_counted(self):
        cwd = self.tmp("capped")
        os.makedirs(cwd)
        ci.run_crd(ci.quiet(["neardup", self.tmp("pages"), self.debref, "--max-bucket", "1", "-o", "out.h5"]),
                   nranks=3, cwd=cwd)
        r = ci.open_results(os.path.join(cwd, "out.h5"))
        self.assertEqual(r.neardup_attrs["pairs"], 0)
        self.assertGreaterEqual(r.neardup_attrs["capped_buckets"], 2)  # at least the two near-copies' buckets
        a = r.neardup_attrs
        self.assertGreaterEqual(a["capped_pages"], 2 * a["capped_buckets"])  # every bucket of two or more
        self.assertGreaterEqual(a["capped_pairs"], a["capped_buckets"])

    def test_memory_counts_what_neardup_holds(self):
        """--memory counts neardup's sketches, bucket entries and pairs (docs/memory.md). On 2,000
        small pages, measured at 2 ranks: 0.35 MiB of tables per rank, and grouping identical pages
        (the sketches, three times) about 0.86 MiB. The bucket entries, six per page, used to carry
        their page's whole sketch (4.96 MiB for finding candidate pairs, so 2M failed there); they
        are 24 bytes now, and the sketches are fetched once per rank that compares them. So 700K
        fails before any pair is looked for, on every rank with one line and no file; 64K fails
        while reading; 2M and 1G complete with the unbudgeted run's datasets."""
        tree = self.tmp("many-pages")
        for i in range(2000):
            os.makedirs(os.path.join(tree, "h%d.example" % (i % 7)), exist_ok=True)
            with open(os.path.join(tree, "h%d.example" % (i % 7), "p%d.html" % i), "w") as f:
                f.write("<p>page %d %s</p>" % (i, " ".join("w%d" % (i * 13 + k * k) for k in range(24))))
        # Sizes in the unit that fits (they read "0.00 GiB" before).
        line = (r"^crd neardup: fatal: --memory %s per rank is too small: %s; run with at least \d+ ranks "
                r"or raise --memory$")
        size = r"\d+(\.\d\d)? (KiB|MiB)"
        for budget, shown, step in (
                ("700K", "700 KiB", r"grouping identical pages needs about %s on the busiest rank" % size),
                ("64K", "64 KiB", r"the busiest rank's tables would need about %s" % size)):
            with self.subTest(memory=budget):
                cwd = self.tmp("memory-" + budget)
                os.makedirs(cwd)
                r = ci.run_crd(ci.quiet(["neardup", tree, "--shuffle-buffer", "4K", "--memory", budget,
                                         "-o", "out.h5"]), nranks=2, cwd=cwd, check=False)
                self.assertEqual(r.returncode, 1, r.stderr)
                errors = [e for e in r.stderr.splitlines() if e.startswith("crd neardup:")]
                self.assertEqual(len(errors), 1, r.stderr)
                self.assertRegex(errors[0], line % (shown, step))
                self.assertEqual(os.listdir(cwd), [])
        results = []
        for memory in ([], ["--memory", "1G"], ["--memory", "2M"]):
            cwd = self.tmp("memory-%d" % len(results))
            os.makedirs(cwd)
            ci.run_crd(ci.quiet(["neardup", tree, "--shuffle-buffer", "4K", "-o", "out.h5"] + memory), nranks=2,
                       cwd=cwd)
            results.append(ci.comparable(os.path.join(cwd, "out.h5"),
                                         drop_root=("nranks", "created", "command_line", "config")))
        ci.assert_same_datasets(self, results[1][0], results[0][0], "under --memory 1G")
        ci.assert_same_datasets(self, results[2][0], results[0][0], "under --memory 2M")
        self.assertGreater(ci.open_results(os.path.join(self.tmp("memory-1"), "out.h5")).neardup_attrs["pages"], 1999)

    def test_memory_counts_the_pairs_before_they_are_made(self):
        """A cluster of 400 near-identical pages (~78,000 pairs) beside 1,500 identical
        pages. Every pair used to be made once per bucket it shares (up to six times) before a
        reduce kept one, and --memory counted the pairs only after: a 40 MiB budget completed at
        ~61 MB over the process's base, a 16 MiB one failed only after the pairs existed. Now
        each pair is made once and counted before the comparisons: 40 MiB completes within the
        budget (plus the shuffle round and 8 MiB of slack, as test_quilts_memory) with the same
        datasets as an unbudgeted run, at 1 and 2 ranks; 16 MiB fails with one line naming the step."""
        tree = self.tmp("cluster")
        words = ["w%d" % (i * 7919 % 100003) for i in range(80)]
        for i in range(2400):
            host, name, text = ("c%d.example" % (i % 5), "near%d.html" % i, " ".join(words[:-1] + ["changed%d" % i]))
            if i >= 400:
                host, name, text = "i%d.example" % (i % 5), "same%d.html" % i, "the same " + " ".join(words[:40])
            if i >= 1900:
                host, name, text = "o.example", "p%d.html" % i, " ".join("x%d" % (i * 61 + k) for k in range(60))
            os.makedirs(os.path.join(tree, host), exist_ok=True)
            with open(os.path.join(tree, host, name), "w") as f:
                f.write("<p>%s</p>" % text)
        one = self.tmp("cluster-one")
        os.makedirs(os.path.join(one, "h"))
        with open(os.path.join(one, "h", "p.html"), "w") as f:
            f.write("<p>%s</p>" % " ".join(words))
        shuffle = 16 * 1024
        opts = ["--shuffle-buffer", str(shuffle), "--reader-thread", "off", "--progress-interval", "0"]
        for n in (1, 2):
            with self.subTest(nranks=n):
                cwd = self.tmp("cluster-np%d" % n)
                os.makedirs(cwd)
                run = lambda inp, out, extra=(): ci.run_crd(["neardup", inp, "-o", out] + opts + list(extra),  # noqa: E731
                                                            nranks=n, cwd=cwd, check=False)
                run(one, "base.h5")
                base = ci.open_results(os.path.join(cwd, "base.h5")).resources.to_dict()["memory.peak_rss_max"]
                run(tree, "ref.h5")
                r = run(tree, "budget.h5", ["--memory", "40M"])
                self.assertEqual(r.returncode, 0, r.stderr)
                out = ci.open_results(os.path.join(cwd, "budget.h5"))
                self.assertGreater(out.neardup_attrs["pairs"], 70000)  # most of the 79,800 the cluster could give
                self.assertEqual(out.neardup_attrs["identity_sets"], 901)
                drop = ("nranks", "created", "command_line", "config")
                ci.assert_same_datasets(self, ci.comparable(os.path.join(cwd, "budget.h5"), drop_root=drop)[0],
                                        ci.comparable(os.path.join(cwd, "ref.h5"), drop_root=drop)[0], "np=%d" % n)
                if not ci.SANITIZED:
                    self.assertLessEqual(out.resources.to_dict()["memory.peak_rss_max"],
                                         base + (40 << 20) + 2 * shuffle + (8 << 20))
                r = run(tree, "tiny.h5", ["--memory", "16M"])
                self.assertEqual(r.returncode, 1, r.stderr)
                errors = [e for e in r.stderr.splitlines() if e.startswith("crd neardup:")]
                self.assertEqual(len(errors), 1, r.stderr)
                self.assertRegex(errors[0], r"--memory 16 MiB per rank is too small: (comparing|sorting) the candidate "
                                            r"pairs needs about [\d.]+ MiB on the busiest rank; run with at least \d+ "
                                            r"ranks or raise --memory$")
                self.assertFalse(os.path.exists(os.path.join(cwd, "tiny.h5")))

    def test_memory_counts_a_large_identity_set_on_its_owner(self):
        """20,000 identical pages with 230-byte keys at 4 ranks. The set and its
        /neardup/identical rows all land on one rank, whatever the rank count; --memory counted
        grouping as three times each rank's own sketches and the rows not at all, so 8 MiB completed
        29 MB over the process's base (58 MB peak). Now each owner's share is counted before
        grouping (8 MiB fails there, one line, no file) and the rows before the first pair; 64 MiB
        completes within the budget with the unbudgeted run's datasets."""
        tree = self.tmp("identical")
        words = " ".join("w%d" % (i * 7919 % 100003) for i in range(60))
        segment = "a-rather-long-path-segment-" * 8
        for i in range(20000):
            os.makedirs(os.path.join(tree, "h%d.example" % (i % 8)), exist_ok=True)
            with open(os.path.join(tree, "h%d.example" % (i % 8), segment + "%d.html" % i), "w") as f:
                f.write("<p>%s</p>" % words)
        one = self.tmp("identical-one")
        os.makedirs(os.path.join(one, "h"))
        with open(os.path.join(one, "h", "p.html"), "w") as f:
            f.write("<p>%s</p>" % words)
        shuffle = 16 * 1024
        opts = ["--shuffle-buffer", str(shuffle), "--reader-thread", "off", "--progress-interval", "0"]
        cwd = self.tmp("identical-np4")
        os.makedirs(cwd)
        run = lambda inp, out, extra=(): ci.run_crd(["neardup", inp, "-o", out] + opts + list(extra),  # noqa: E731
                                                    nranks=4, cwd=cwd, check=False)
        r = run(tree, "tiny.h5", ["--memory", "8M"])
        self.assertEqual(r.returncode, 1, r.stderr)
        errors = [e for e in r.stderr.splitlines() if e.startswith("crd neardup:")]
        self.assertEqual(len(errors), 1, r.stderr)
        self.assertRegex(errors[0], r"--memory 8 MiB per rank is too small: grouping identical pages needs about "
                                    r"[\d.]+ MiB on the busiest rank; run with at least \d+ ranks or raise --memory$")
        self.assertFalse(os.path.exists(os.path.join(cwd, "tiny.h5")))
        run(one, "base.h5")
        base = ci.open_results(os.path.join(cwd, "base.h5")).resources.to_dict()["memory.peak_rss_max"]
        run(tree, "ref.h5")
        r = run(tree, "budget.h5", ["--memory", "64M"])
        self.assertEqual(r.returncode, 0, r.stderr)
        drop = ("nranks", "created", "command_line", "config")
        ci.assert_same_datasets(self, ci.comparable(os.path.join(cwd, "budget.h5"), drop_root=drop)[0],
                                ci.comparable(os.path.join(cwd, "ref.h5"), drop_root=drop)[0], "np=4")
        out = ci.open_results(os.path.join(cwd, "budget.h5"))
        self.assertEqual(out.neardup_attrs["identity_sets"], 1)
        self.assertEqual(len(out.table("/neardup/identical")), 19999)
        if not ci.SANITIZED:
            self.assertLessEqual(out.resources.to_dict()["memory.peak_rss_max"],
                                 base + (64 << 20) + 2 * shuffle + (8 << 20))

    def test_unrelated_pages_pair_with_nothing(self):
        for method in METHODS:
            for (a, b) in self.ours(method):
                self.assertNotIn("c.example", a + b)


if __name__ == "__main__":
    ci.main()
