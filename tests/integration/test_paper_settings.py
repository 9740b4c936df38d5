# The paper's own settings, run as users run them (under mpirun, results read back through
# analysis/crd_results.py): --chunk-top/--file-top at 1-4 ranks, the released code's chunking
# (configs/released-code.ini), the clamp of automatic thresholds when most pages are copies,
# --page-threshold robust, --min-neighborhood-labeled and crd inspect --rank.
import os
import unittest

import crd_integ as ci
import reference_chunker as ref


def p(text):
    return b"<p>" + text + b"</p>"


A, B, C, D = (p(b"shared paragraph %s, long enough to be a real sentence" % x) for x in (b"A", b"B", b"C", b"D"))
LONG = p(b"a paragraph over the 100 bytes of the paper's stop rule " * 2)  # 118 bytes


def u(i):
    return p(b"unique paragraph %d of its own page" % i)


def write_tree(root, pages):
    for key, chunks in pages.items():
        path = os.path.join(root, key)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "wb") as f:
            f.write(b"\n".join(chunks) + b"\n")


class PaperSettings(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = ci.TempDir("paper-settings")

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def config(self, name):
        return os.path.join(ci.source_dir(), "configs", name)

    def test_chunk_top_and_file_top_are_the_same_at_1_to_4_ranks(self):
        # Counts: A 5, B 3, C 3, D 3 (ties), unique chunks once; the page s.example/same.html is
        # stored 3 times, r.example/twice.html twice (files).
        same = [A, u(100)]
        pages = {
            "a.example/1.html": [A, B, u(1)], "a.example/2.html": [A, C, u(2)],
            "b.example/3.html": [A, D, B, u(3)], "b.example/4.html": [C, D, u(4)],
            "c.example/5.html": [B, C, D, u(5)],
            "s.example/same.html": same, "s2.example/same.html": same, "s3.example/same.html": same,
            "r.example/twice.html": [u(200)], "r2.example/twice.html": [u(200)],
        }
        corpus = self.tmp("top-corpus")
        write_tree(corpus, pages)
        # Over the threshold 1: A 6, B C D u(100) 3 each, u(200) 2.
        ties = sorted([B, C, D, u(100)], key=ref.sha1)
        want_chunks = [ref.sha1(A).hex(), ref.sha1(ties[0]).hex()]
        want_file = ref.sha1(b"\n".join(same) + b"\n").hex()
        base = None
        for nranks in (1, 2, 3, 4):
            out = self.tmp("top-%d.h5" % nranks)
            ci.run_crd(ci.quiet(["discover", corpus, "-o", out, "--chunk-threshold", "1", "--chunk-top", "2",
                                 "--file-threshold", "1", "--file-top", "1"]), nranks=nranks)
            r = ci.open_results(out)
            self.assertEqual(r.chunks["hash"].tolist(), want_chunks, "A, then the smallest hash of the 3× ties")
            self.assertEqual(r.chunks["count"].tolist(), [6, 3])
            self.assertEqual((r.chunks_attrs["top"], r.chunks_attrs["top_removed"]), (2, 4), "B C D u100 u200 cut")
            self.assertEqual(r.files["hash"].tolist(), [want_file])
            self.assertEqual((r.files_attrs["top"], r.files_attrs["top_removed"]), (1, 1))
            snap = ci.comparable(out, ("nranks", "created", "command_line"))[0]
            if base is None:
                base = snap
            else:
                ci.assert_same_datasets(self, snap, base, "at np=%d" % nranks)

    def test_released_code_chunking_splits_at_pre_and_param(self):
        page = (b"<html><p>Intro text of the page</p>\n<pre>code  block</pre><object><param name=a>"
                b"</object><p>Last paragraph</p></html>")
        corpus = self.tmp("released-corpus")
        write_tree(corpus, {"x.example/a.html": [page], "y.example/b.html": [page]})
        tag_chunks = [b"<html>", b"<p>Intro text of the page</p> <pre>code block</pre><object><param name=a></object>",
                      b"<p>Last paragraph</p></html>"]
        prefix_chunks = [b"<html>", b"<p>Intro text of the page</p>", b"<pre>code block</pre><object>",
                         b"<param name=a></object>", b"<p>Last paragraph</p></html>"]
        self.assertEqual(ref.chunks(page + b"\n"), tag_chunks, "the reference chunker: tag mode")
        for name, extra, want in (("tag", [], tag_chunks),
                                  ("prefix", ["--config", self.config("released-code.ini")], prefix_chunks)):
            out = self.tmp("released-%s.h5" % name)
            ci.run_crd(ci.quiet(["run", corpus, "-o", out, "--chunk-threshold", "1"] + extra), nranks=2)
            r = ci.open_results(out)
            self.assertEqual(sorted(r.chunks["hash"]), sorted(ref.sha1(c).hex() for c in want), name)
            self.assertEqual(sorted(r.table(ci.results.CHUNKS, decode=False)["sample"]), sorted(want), name)
            self.assertEqual(r.pages["chunks"].tolist(), [len(want)] * 2, name)
        self.assertEqual(r.detection_attrs["badness_mode"], "chunks", "released-code.ini: the Hadoop badness")

    def informed_mirrors(self):
        """label one site; detect over 3 mirrors of it (more than half the pages) and 2 unrelated
        hosts, and z with one labeled chunk of two. Returns (expert dir, crawl dir, labels file)."""
        if hasattr(self, "_informed"):
            return self._informed
        site = {"site/p%d.html" % i: [A, LONG, u(i), u(i + 50)] for i in range(4)}
        expert = self.tmp("expert")
        write_tree(expert, site)
        crawl = self.tmp("crawl")
        pages = {}
        for m in ("m1.example", "m2.example", "m3.example"):
            for key, chunks in site.items():
                pages[m + "/" + key] = chunks
        for h in ("x.example", "y.example"):
            for i in range(3):
                pages["%s/doc/q%d.html" % (h, i)] = [u(1000 + i), u(2000 + i), B]
        pages["z.example/one.html"] = [A, u(3000)]  # containment 0.5, one labeled chunk
        write_tree(crawl, pages)
        labels = self.tmp("labels.h5")
        ci.run_crd(ci.quiet(["label", expert, "-o", labels]), nranks=2)
        type(self)._informed = (expert, crawl, labels)
        return self._informed

    def test_auto_threshold_above_one_is_clamped_and_recorded(self):
        _, crawl, labels = self.informed_mirrors()
        for rule in ("auto", "robust"):
            out = self.tmp("clamp-%s.h5" % rule)
            ci.run_crd(ci.quiet(["detect", crawl, "--labels", labels, "-o", out, "--page-threshold", rule,
                                 "--neighborhood-threshold", rule, "--max-neighborhood-depth", "0"]), nranks=3)
            r = ci.open_results(out)
            a = r.detection_attrs
            self.assertEqual(a["page_threshold_rule"], {"auto": "auto", "robust": "robust:3"}[rule])
            self.assertEqual(a["page_median"], 1.0)
            self.assertEqual(a["page_mad"], 0.0)
            if rule == "auto":
                self.assertGreater(a["page_mean"] + a["page_sigma"], 1.0, "the mirror-heavy case (mean + sigma > 1)")
            self.assertEqual(a["page_threshold_clamped"], 1)
            self.assertEqual(a["page_threshold"], 0.9999999999999999)
            self.assertEqual(a["neighborhood_threshold_clamped"], 1)
            flagged = sorted(r.pages[r.pages["flagged"] == 1]["url"])
            self.assertEqual(flagged, sorted(url for url in r.pages["url"] if url.startswith("m")), rule)
            self.assertEqual(len(flagged), 12, "every mirror page, not z (0.5)")
            self.assertEqual(sorted(r.neighborhoods[r.neighborhoods["flagged"] == 1]["prefix"]),
                             ["m1.example", "m2.example", "m3.example"], rule)

    def test_min_neighborhood_labeled_and_inspect_rank(self):
        _, crawl, labels = self.informed_mirrors()
        out = self.tmp("rank.h5")
        ci.run_crd(ci.quiet(["detect", crawl, "--labels", labels, "-o", out, "--neighborhood-threshold", "0.1",
                             "--min-neighborhood-labeled", "5"]), nranks=2)
        r = ci.open_results(out)
        self.assertEqual(r.detection_attrs["min_neighborhood_labeled"], 5)
        hoods = r.neighborhoods.set_index("prefix")
        # Each mirror host and its /site directory: 4 pages, 16 chunks, 16 labeled.
        for m in ("m1.example", "m2.example", "m3.example"):
            self.assertEqual(hoods.loc[m, "labeled"], 16)
            self.assertEqual(hoods.loc[m, "flagged"], 1)
            self.assertEqual(hoods.loc[m + "/site", "flagged"], 1)
        self.assertEqual((hoods.loc["z.example", "badness"], hoods.loc["z.example", "labeled"]), (0.5, 1))
        self.assertEqual(hoods.loc["z.example", "flagged"], 0, "over 0.1 but 1 labeled chunk < 5")
        self.assertEqual(int(hoods["flagged"].sum()), 6, "x, y: badness 0 (B is no label)")

        ranked = r.rank_neighborhoods("labeled", depth=1, top=2)
        self.assertEqual(ranked["prefix"].tolist(), ["m1.example/site", "m2.example/site"],
                         "16 labeled each, ties by prefix")
        proc = ci.run_crd(["inspect", out, "--rank", "labeled", "--depth", "1", "--top", "2"])
        listed = [line.split()[-1] for line in proc.stdout.split("neighborhoods by labeled at depth 1:\n")[1]
                  .split("\n\n")[0].splitlines()]
        self.assertEqual(listed, ["m1.example/site", "m2.example/site"])
        by_pages = r.rank_neighborhoods("pages")["prefix"].tolist()
        self.assertEqual(by_pages[:3], ["m1.example", "m1.example/site", "m2.example"], "4 pages; ties by prefix")
        bad = ci.run_crd(["inspect", out, "--rank", "size"], check=False)
        self.assertEqual(bad.returncode, 2)
        self.assertIn("option --rank: expected 'badness', 'labeled' or 'pages', got 'size'", bad.stderr)

    def test_wikipedia_expert_preset_serves_label_and_detect(self):
        expert, crawl, _ = self.informed_mirrors()
        labels = self.tmp("wiki-labels.h5")
        cfg = self.config("wikipedia-expert.ini")
        ci.run_crd(ci.quiet(["label", expert, "--config", cfg, "-o", labels]), nranks=2)
        r = ci.open_results(labels)
        self.assertEqual(r.labels_attrs["min_chunk_length"], 100)
        self.assertEqual(r.labels["hash"].tolist(), [ref.sha1(LONG).hex()], "only the chunk of ≥ 100 bytes")
        out = self.tmp("wiki.h5")
        ci.run_crd(ci.quiet(["detect", crawl, "--labels", labels, "--config", cfg, "-o", out]), nranks=2)
        d = ci.open_results(out)
        self.assertEqual(d.detection_attrs["min_neighborhood_labeled"], 1001)
        # Short chunks are stop chunks in detection too: only mirror pages keep a chunk (LONG).
        self.assertEqual(sorted(set(url.split("/")[0] for url in d.pages["url"])),
                         ["m1.example", "m2.example", "m3.example"])
        self.assertTrue((d.pages["containment"] == 1.0).all())
        self.assertEqual(sorted(d.neighborhoods["depth"].unique().tolist()), [0, 1], "path length ≤ 1")
        self.assertEqual(int(d.neighborhoods["flagged"].sum()), 0, "no neighborhood here duplicates > 1,000 chunks")


if __name__ == "__main__":
    ci.main()
