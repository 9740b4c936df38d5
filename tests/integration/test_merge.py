# crd merge: the count tables of discover results made with --keep-counts, summed,
# relabeled and written, equal one discover over the union of their inputs, dataset by dataset,
# at 1-3 ranks; inputs that cannot be merged are refused in one line with no result left behind;
# a merged result is a labels file for crd detect like any other.
import os
import subprocess
import unittest

import numpy as np

import crd_integ as ci

R = ci.results
# The union's and the merge's labeling: thresholds, a stop rule and a top-N cut on both kinds.
LABELING = ["--chunk-threshold", "5", "--file-threshold", "1", "--min-chunk-length", "20",
            "--chunk-top", "60", "--file-top", "10"]
# Inputs that label every item know every label's sample and first page key: then the merge
# equals the union in every column (docs/merge.md, "Samples").
EVERY_ITEM = ["--chunk-threshold", "0", "--file-threshold", "0"]
# Batches that label only their 10 most frequent chunks: most of the union's 60 are none of them.
SOME_ITEMS = LABELING[:6] + ["--chunk-top", "10", "--file-top", "2"]
# What describes the job, not the data: the root attributes naming the command and its run, and
# /run/timings and /run/resources (ci.comparable drops those two tables).
PROVENANCE_ROOT = ("nranks", "created", "command_line", "config", "command")
SAMPLE_COLUMNS = (R.CHUNKS + "/sample", R.CHUNKS + "/sample_url", R.FILES + "/sample_url")


def link_tree(src, dst):
    os.makedirs(os.path.dirname(dst), exist_ok=True)
    subprocess.run(["cp", "-al", src, dst], check=True)


class Merge(unittest.TestCase):
    maxDiff = None

    @classmethod
    def setUpClass(cls):
        cls.tmp = t = ci.TempDir("merge")
        corpus = ci.corpus_dir()
        py = os.path.join(ci.corpus_package("python3.11-doc"), "usr", "share", "doc", "python3.11", "html", "c-api")
        # Batches as directories of hard links, so a page's key (its path below the directory
        # given) is the same in a batch and in the union: a/, b/, c/ disjoint; ab/ overlaps b/.
        link_tree(ci.corpus_package("debian-reference-en"), t("a", "debian-reference-en"))
        link_tree(os.path.join(corpus, "sphinx-doc"), t("b", "sphinx-doc"))
        link_tree(py, t("c", "c-api"))
        link_tree(ci.corpus_package("debian-reference-en"), t("ab", "debian-reference-en"))
        link_tree(os.path.join(corpus, "sphinx-doc"), t("ab", "sphinx-doc"))
        cls.batches = {}
        for name in ("a", "b", "c", "ab"):
            for every, extra in (("every", EVERY_ITEM), ("some", SOME_ITEMS)):
                out = t("%s-%s.h5" % (name, every))
                ci.run_crd(ci.quiet(["discover", t(name), "--keep-counts", "-o", out] + extra), nranks=2)
                cls.batches[name, every] = out
        cls.unions = {}
        for names in (("a", "b"), ("a", "b", "c"), ("ab", "b")):
            out = t("union-%s.h5" % "-".join(names))
            ci.run_crd(ci.quiet(["discover"] + [t(n) for n in names] + ["--keep-counts", "-o", out] + LABELING), nranks=2)
            cls.unions[names] = out

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def merge(self, names, every, nranks, extra=()):
        out = self.tmp("merged-%s-%s-np%d.h5" % ("-".join(names), every, nranks))
        ci.run_crd(ci.quiet(["merge"] + [self.batches[n, every] for n in names] + ["-o", out] + LABELING +
                            list(extra)), nranks=nranks)
        return out

    def assert_equal_results(self, merged, union, skip=()):
        m_d, m_a = ci.comparable(merged, PROVENANCE_ROOT)
        u_d, u_a = ci.comparable(union, PROVENANCE_ROOT)
        # /merge/inputs says what was merged (checked in test_merged_counts_are_the_sums): a
        # discover of the union has none.
        m_d = {k: v for k, v in m_d.items() if not k.lstrip("/").startswith("merge/")}
        m_a = {k: v for k, v in m_a.items() if not k.lstrip("/").startswith("merge")}
        self.assertGreater(len(u_d[R.CHUNKS + "/hash"]), 50)
        self.assertGreater(len(u_d[R.FILES + "/hash"]), 0)
        self.assertGreater(int(u_a[R.CHUNKS]["top_removed"]), 0)  # the top-N cuts are exercised
        self.assertGreater(int(u_a[R.FILES]["top_removed"]), 0)
        self.assertGreater(int(u_a[R.CHUNKS]["stop_removed"]), 0)
        ci.assert_same_datasets(self, {k: v for k, v in m_d.items() if k not in skip},
                                {k: v for k, v in u_d.items() if k not in skip}, msg=merged)
        self.assertEqual(m_a, u_a)

    def test_merges_equal_the_union_at_1_to_3_ranks(self):
        for names in (("a", "b"), ("a", "b", "c"), ("ab", "b")):
            for n in (1, 2, 3):
                with self.subTest(inputs=names, nranks=n):
                    self.assert_equal_results(self.merge(names, "every", n), self.unions[names])

    def test_merged_counts_are_the_sums(self):
        merged = self.merge(("ab", "b"), "every", 2)
        d = ci.read_all(merged)[0]
        hashes = ci.hexes(d[R.CHUNK_COUNTS + "/hash"])
        self.assertEqual(hashes, sorted(hashes))  # rows by hash, each once
        self.assertEqual(len(set(hashes)), len(hashes))
        expected = {}
        for name in ("ab", "b"):
            b = ci.read_all(self.batches[name, "every"])[0]
            for h, c in zip(ci.hexes(b[R.CHUNK_COUNTS + "/hash"]), b[R.CHUNK_COUNTS + "/count"].tolist()):
                expected[h] = expected.get(h, 0) + c
        self.assertEqual(dict(zip(hashes, d[R.CHUNK_COUNTS + "/count"].tolist())), expected)
        self.assertEqual(ci.open_results(merged).command, "merge")
        # /merge/inputs: each input in the order given, with its own counters and table sizes.
        with ci.h5py.File(merged, "r") as f:
            g = f["merge/inputs"]
            self.assertEqual([p.decode() for p in g["path"][:]], [self.batches["ab", "every"], self.batches["b", "every"]])
            for i, name in enumerate(("ab", "b")):
                with ci.h5py.File(self.batches[name, "every"], "r") as b:
                    counters = dict(zip([n.decode() for n in b["run/counters/name"][:]], b["run/counters/value"][:]))
                    self.assertEqual(g["command"][i].decode(), b.attrs["command"].decode()
                                     if isinstance(b.attrs["command"], bytes) else b.attrs["command"])
                    self.assertEqual(int(g["documents"][i]), int(counters["documents"]))
                    self.assertEqual(int(g["records"][i]), int(counters["records"]))
                    self.assertEqual(int(g["chunks"][i]), int(counters["chunks"]))
                    self.assertEqual(int(g["distinct_chunks"][i]), len(b["discovery/chunk_counts/hash"]))
                    self.assertEqual(int(g["distinct_files"][i]), len(b["discovery/file_counts/hash"]))
        shown = ci.run_crd(["inspect", merged]).stdout
        self.assertIn("merged inputs (2; the counters above are their sums):", shown)
        self.assertIn(self.batches["b", "every"], shown)

    def test_inputs_labeled_with_thresholds(self):
        # Each batch labeled only its own most frequent items: a label that made the top only in
        # the sum has no sample from any input. Everything else is equal; a sample present is
        # the union's.
        for n in (1, 3):
            with self.subTest(nranks=n):
                merged = self.merge(("a", "b", "c"), "some", n)
                union = self.unions["a", "b", "c"]
                self.assert_equal_results(merged, union, skip=SAMPLE_COLUMNS)
                m = ci.open_results(merged).table(R.CHUNKS)
                u = ci.open_results(union).table(R.CHUNKS)
                have = m["sample"] != ""
                self.assertGreater(int(have.sum()), 0)
                self.assertGreater(int((~have).sum()), 0)  # labels only the sum made: no sample
                self.assertTrue((m["sample_url"][~have] == "").all())
                self.assertEqual(m["sample"][have].tolist(), u["sample"][have].tolist())

    def test_tiny_shuffle_rounds(self):
        out = self.merge(("a", "b", "c"), "every", 3, extra=["--shuffle-buffer", "4K"])
        self.assert_equal_results(out, self.unions["a", "b", "c"])
        self.assertGreater(int(ci.open_results(out).resources["shuffle.rounds"]), 10)

    def test_a_merged_result_merges_again_and_labels_detect(self):
        ab = self.merge(("a", "b"), "every", 2)
        abc = self.tmp("merged-again.h5")
        ci.run_crd(ci.quiet(["merge", ab, self.batches["c", "every"], "-o", abc] + LABELING), nranks=2)
        self.assert_equal_results(abc, self.unions["a", "b", "c"])
        # crd detect reads the merged labels as it reads discover's.
        inputs = [self.tmp(n) for n in ("a", "b", "c")]
        dets = []
        for labels in (abc, self.unions["a", "b", "c"]):
            det = self.tmp("detect-%s" % os.path.basename(labels))
            ci.run_crd(ci.quiet(["detect"] + inputs + ["--labels", labels, "-o", det, "--min-chunk-length", "20"]),
                       nranks=2)
            dets.append(det)
        a_d, _ = ci.comparable(dets[0], PROVENANCE_ROOT)
        b_d, _ = ci.comparable(dets[1], PROVENANCE_ROOT)
        self.assertGreater(int(b_d[R.PAGES + "/flagged"].sum()), 0)
        ci.assert_same_datasets(self, {k: v for k, v in a_d.items() if k.startswith(R.DETECTION)},
                                {k: v for k, v in b_d.items() if k.startswith(R.DETECTION)})

    # Refusals: one line on stderr naming the file, exit status 2, no -o file and no temporary.
    def assert_refused(self, args, message, nranks=2):
        out = self.tmp("refused.h5")
        proc = ci.run_crd(ci.quiet(["merge"] + args + ["-o", out]), nranks=nranks, check=False, mpi_quiet=True)
        self.assertEqual(proc.returncode, 2, proc.stderr)
        lines = [l for l in proc.stderr.splitlines() if l.strip()]
        self.assertEqual(len(lines), 1, proc.stderr)
        self.assertIn(message, lines[0])
        self.assertFalse([f for f in os.listdir(self.tmp.path) if f.startswith("refused.h5")])

    def test_mismatched_chunking_is_refused(self):
        dom = self.tmp("a-dom.h5")
        ci.run_crd(ci.quiet(["discover", self.tmp("a"), "--keep-counts", "--chunker", "dom", "-o", dom]), nranks=1)
        a = self.batches["b", "every"]
        self.assert_refused([a, dom], "%s was chunked with 'chunker=dom tags=p,div boundary-match=tag "
                                      "normalization=1' but %s with 'chunker=scan tags=p,div "
                                      "boundary-match=tag normalization=1'" % (dom, a))
        tags = self.tmp("a-tags.h5")
        ci.run_crd(ci.quiet(["discover", self.tmp("a"), "--keep-counts", "--tags", "p", "-o", tags]), nranks=1)
        self.assert_refused([a, tags], "%s was chunked with 'chunker=scan tags=p boundary-match" % tags)
        # Winnowed grams of another window are other items.
        w8, w12 = self.tmp("a-w8.h5"), self.tmp("a-w12.h5")
        for out, w in ((w8, "8"), (w12, "12")):
            ci.run_crd(ci.quiet(["discover", self.tmp("a"), "--keep-counts", "--chunker", "winnow", "--window", w,
                                 "-o", out]), nranks=1)
        self.assert_refused([w12, w8], "%s was chunked with 'chunker=winnow tags=p,div boundary-match=tag "
                                       "normalization=1 gram-words=5 window=8' but %s with 'chunker=winnow tags=p,div "
                                       "boundary-match=tag normalization=1 gram-words=5 window=12'" % (w8, w12))

    def test_a_result_without_counts_is_refused(self):
        plain = self.tmp("a-plain.h5")
        ci.run_crd(ci.quiet(["discover", self.tmp("a"), "-o", plain]), nranks=1)
        self.assert_refused([self.batches["b", "every"], plain],
                            plain + " has no count tables (/discovery/chunk_counts): only results of crd discover "
                                    "--keep-counts (or crd merge) can be merged")

    def test_corrupt_and_truncated_inputs_are_refused(self):
        good = self.batches["a", "every"]
        with open(good, "rb") as f:
            data = f.read()
        truncated = self.tmp("truncated.h5")
        with open(truncated, "wb") as f:
            f.write(data[:len(data) // 2])
        garbage = self.tmp("garbage.h5")
        with open(garbage, "wb") as f:
            f.write(b"not hdf5 at all\n" * 100)
        for bad in (truncated, garbage):
            with self.subTest(bad=bad):
                self.assert_refused([good, bad], bad + " is not a crd result file (")

    def test_output_naming_an_input_is_refused(self):
        a = self.tmp("a-copy.h5")
        subprocess.run(["cp", self.batches["a", "every"], a], check=True)
        with open(a, "rb") as f:
            before = f.read()
        proc = ci.run_crd(ci.quiet(["merge", a, self.batches["b", "every"], "-o", a]), nranks=2, check=False,
                          mpi_quiet=True)
        self.assertEqual(proc.returncode, 2, proc.stderr)
        self.assertEqual(len([l for l in proc.stderr.splitlines() if l.strip()]), 1, proc.stderr)
        with open(a, "rb") as f:
            self.assertEqual(f.read(), before)


if __name__ == "__main__":
    ci.main()
