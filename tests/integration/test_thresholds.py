# Detection arithmetic (paper §4.3) on a hand-made corpus whose chunk counts are worked out by hand
# below: page containment, mean + population σ thresholds, neighborhood badness in both modes,
# --min-labeled, a fixed --page-threshold, --max-neighborhood-depth 0, and provenance.
import math
import os
import statistics
import unittest

import crd_integ as ci
import reference_chunker as ref

# Chunks (every page is a concatenation of these, each one "<p>…</p>", so no prefix chunk).
S1 = b"<p>shared sentence one, on many pages</p>"
S2 = b"<p>shared sentence two, on host a</p>"
S3 = b"<p>shared sentence three, hosts a and c</p>"
X = b"<p>x</p>"  # 8 bytes: a stop chunk under --min-chunk-length 10 although it occurs 3 times


def u(i):
    return b"<p>unique paragraph number %d of its page</p>" % i


PAGES = {
    "a.example/index.html": [S1, S2, u(1), u(2)],
    "a.example/docs/p1.html": [S1, S2, S3, u(3)],
    "a.example/docs/p2.html": [S1, S2, S3, S1],
    "b.example/x/y/p3.html": [S1, u(4), u(5), u(6), u(7)],
    "b.example/p4.html": [u(8), X, u(9)],
    "c.example/p5.html": [S3, u(10)],
    "c.example/p6.html": [X, u(11)],
    "c.example/short.html": [X],
}
# Counted by hand: S1 5× (twice in p2), S2 3×, S3 3×, X 3×, every u once. With --chunk-threshold 2
# the labels are S1, S2, S3; X is over the threshold but shorter than 10 bytes (stop_removed = 1).
# After stop removal: (chunks, labeled, positions of labeled chunks) per page; short.html has no
# chunk left, so it is not a page of /detection at all.
EXPECTED_PAGES = {
    "a.example/docs/p1.html": (4, 3, [0, 1, 2], [S1, S2, S3]),
    "a.example/docs/p2.html": (4, 4, [0, 1, 2, 3], [S1, S2, S3, S1]),
    "a.example/index.html": (4, 2, [0, 1], [S1, S2]),
    "b.example/p4.html": (2, 0, [], []),
    "b.example/x/y/p3.html": (5, 1, [0], [S1]),
    "c.example/p5.html": (2, 1, [0], [S3]),
    "c.example/p6.html": (1, 0, [], []),
}
# Neighborhoods: every prefix of the key down to (not including) the page itself; host = depth 0.
EXPECTED_HOODS = {  # prefix: (depth, member pages)
    "a.example": (0, ["a.example/index.html", "a.example/docs/p1.html", "a.example/docs/p2.html"]),
    "a.example/docs": (1, ["a.example/docs/p1.html", "a.example/docs/p2.html"]),
    "b.example": (0, ["b.example/x/y/p3.html", "b.example/p4.html"]),
    "b.example/x": (1, ["b.example/x/y/p3.html"]),
    "b.example/x/y": (2, ["b.example/x/y/p3.html"]),
    "c.example": (0, ["c.example/p5.html", "c.example/p6.html"]),
}
BASE = ["--chunk-threshold", "2", "--file-threshold", "100", "--min-chunk-length", "10"]


def mean_sigma(values):
    return statistics.fmean(values), statistics.pstdev(values)


class Thresholds(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = ci.TempDir("thresholds")
        cls.corpus = cls.tmp("corpus")
        for key, chunks in PAGES.items():
            path = os.path.join(cls.corpus, key)
            os.makedirs(os.path.dirname(path), exist_ok=True)
            with open(path, "wb") as f:
                f.write(b"\n".join(chunks) + b"\n")
        # Label ids are row indexes of /detection/labels, which is ordered by hash.
        cls.label_id = {c: i for i, c in enumerate(sorted([S1, S2, S3], key=ref.sha1))}
        cls.outputs = {}  # name: (arguments, nranks, result file), each job run once

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def run_crd(self, name, *extra, nranks=2):
        """The result of the job called name, opened; the job runs the first time name is asked for."""
        if name not in self.outputs:
            out = self.tmp(name + ".h5")
            ci.run_crd(ci.quiet(["run", self.corpus, "-o", out] + BASE + list(extra)), nranks=nranks)
            self.outputs[name] = (extra, nranks, out)
        args, ran_with, out = self.outputs[name]
        self.assertEqual((args, ran_with), (extra, nranks), "job %s reused with other options" % name)
        return ci.h5py.File(out, "r")

    def pages(self, f):
        t = ci.table(f, "/detection/pages")
        return {url.decode(): i for i, url in enumerate(ci.strings(t["url"]))}, t

    def hoods(self, f):
        t = ci.table(f, "/detection/neighborhoods")
        return {p.decode(): i for i, p in enumerate(ci.strings(t["prefix"]))}, t

    def test_discovery_by_hand(self):
        with self.run_crd("default") as f:
            t = ci.table(f, "/discovery/chunks")
            got = dict(zip(ci.hexes(t["hash"]), t["count"].tolist()))
            self.assertEqual(got, {ref.sha1(S1).hex(): 5, ref.sha1(S2).hex(): 3, ref.sha1(S3).hex(): 3})
            self.assertEqual(int(f["/discovery/chunks"].attrs["stop_removed"]), 1)  # X

    def test_pages_and_auto_threshold(self):
        with self.run_crd("default") as f:
            index, t = self.pages(f)
            self.assertEqual(sorted(index), sorted(EXPECTED_PAGES), "pages with ≥ 1 chunk, by url")
            self.assertEqual(list(index), sorted(index), "rows by url")
            containment = {}
            for url, (chunks, labeled, positions, labels) in EXPECTED_PAGES.items():
                i = index[url]
                self.assertEqual(int(t["chunks"][i]), chunks, url)
                self.assertEqual(int(t["labeled"][i]), labeled, url)
                containment[url] = labeled / chunks
                self.assertAlmostEqual(float(t["containment"][i]), containment[url], places=12, msg=url)
                self.assertEqual(ci.csr(t["positions"], t["positions_offsets"], i), positions, url)
                self.assertEqual(ci.csr(t["label_ids"], t["label_ids_offsets"], i),
                                 [self.label_id[c] for c in labels], url)
            mean, _ = mean_sigma(list(containment.values()))
            # By hand: (0.75 + 1 + 0.5 + 0 + 0.2 + 0.5 + 0) / 7 = 2.95 / 7.
            self.assertAlmostEqual(mean, 2.95 / 7, places=12)
            flagged = self.check_auto_threshold(f, "page", index, t, containment)
            self.assertEqual(flagged, {"a.example/docs/p2.html"})  # threshold ≈ 0.772

    def check_auto_threshold(self, f, kind, index, t, scores):
        """/detection's KIND_mean, KIND_sigma, KIND_threshold (mean + population σ of scores) and
        the flagged rows of t (row index by key in index) are those over the threshold; returns them."""
        mean, sigma = mean_sigma(list(scores.values()))
        a = f["/detection"].attrs
        self.assertAlmostEqual(float(a[kind + "_mean"]), mean, places=9)
        self.assertAlmostEqual(float(a[kind + "_sigma"]), sigma, places=9)
        self.assertAlmostEqual(float(a[kind + "_threshold"]), mean + sigma, places=9)
        flagged = {k for k, i in index.items() if t["flagged"][i]}
        self.assertEqual(flagged, {k for k, v in scores.items() if v > mean + sigma})
        return flagged

    def check_neighborhoods(self, f, badness_of, max_depth=None):
        index, t = self.hoods(f)
        expected = {p: v for p, v in EXPECTED_HOODS.items() if max_depth is None or v[0] <= max_depth}
        self.assertEqual(list(index), sorted(expected), "one row per prefix, by prefix")
        badness = {}
        for prefix, (depth, members) in expected.items():
            i = index[prefix]
            rows = [EXPECTED_PAGES[m] for m in members]
            self.assertEqual(int(t["depth"][i]), depth, prefix)
            self.assertEqual(int(t["pages"][i]), len(members), prefix)
            self.assertEqual(int(t["chunks"][i]), sum(r[0] for r in rows), prefix)
            self.assertEqual(int(t["labeled"][i]), sum(r[1] for r in rows), prefix)
            badness[prefix] = badness_of(rows)
            self.assertAlmostEqual(float(t["badness"][i]), badness[prefix], places=12, msg=prefix)
        return self.check_auto_threshold(f, "neighborhood", index, t, badness)

    def test_badness_pages(self):
        with self.run_crd("default") as f:
            self.assertEqual(ci._plain(f["/detection"].attrs["badness_mode"]), "pages")
            flagged = self.check_neighborhoods(f, lambda rows: statistics.fmean(r[1] / r[0] for r in rows))
            # By hand: a 0.75, a/docs 0.875, b 0.1, b/x 0.2, b/x/y 0.2, c 0.25 → threshold ≈ 0.696.
            self.assertEqual(flagged, {"a.example", "a.example/docs"})

    def test_badness_chunks(self):
        with self.run_crd("chunks", "--badness", "chunks") as f:
            flagged = self.check_neighborhoods(f, lambda rows: sum(r[1] for r in rows) / sum(r[0] for r in rows))
            self.assertEqual(flagged, {"a.example", "a.example/docs"})

    def test_hosts_only(self):
        with self.run_crd("depth0", "--max-neighborhood-depth", "0") as f:
            flagged = self.check_neighborhoods(f, lambda rows: statistics.fmean(r[1] / r[0] for r in rows), max_depth=0)
            # Hosts: a 0.75, b 0.1, c 0.25: mean 0.3667, σ ≈ 0.2718, threshold ≈ 0.638.
            self.assertEqual(flagged, {"a.example"})

    def test_fixed_page_threshold_and_min_labeled(self):
        with self.run_crd("fixed", "--page-threshold", "0.5") as f:
            index, t = self.pages(f)
            self.assertEqual(float(f["/detection"].attrs["page_threshold"]), 0.5)
            flagged = {u for u, i in index.items() if t["flagged"][i]}
            self.assertEqual(flagged, {"a.example/docs/p1.html", "a.example/docs/p2.html"})  # 0.5 is not > 0.5
        with self.run_crd("fixed04", "--page-threshold", "0.4") as f:
            index, t = self.pages(f)
            flagged = {u for u, i in index.items() if t["flagged"][i]}
            self.assertEqual(flagged, {"a.example/docs/p1.html", "a.example/docs/p2.html", "a.example/index.html",
                                       "c.example/p5.html"})
        with self.run_crd("minlab", "--page-threshold", "0.4", "--min-labeled", "2") as f:
            index, t = self.pages(f)
            flagged = {u for u, i in index.items() if t["flagged"][i]}
            self.assertEqual(int(f["/detection"].attrs["min_labeled"]), 2)
            # p5 has containment 0.5 but a single labeled chunk.
            self.assertEqual(flagged, {"a.example/docs/p1.html", "a.example/docs/p2.html", "a.example/index.html"})

    def test_label_provenance(self):
        with self.run_crd("prov", "--provenance-samples", "2", nranks=3) as f:
            t = ci.table(f, "/detection/labels")
            hashes = ci.hexes(t["hash"])
            self.assertEqual(hashes, sorted(hashes), "labels by hash")
            self.assertEqual(int(f["/detection"].attrs["labels"]), 3)
            expected = {  # chunk: (pages, neighborhoods, occurrences, two smallest page keys)
                S1: (4, 5, 5, ["a.example/docs/p1.html", "a.example/docs/p2.html"]),
                S2: (3, 2, 3, ["a.example/docs/p1.html", "a.example/docs/p2.html"]),
                S3: (3, 3, 3, ["a.example/docs/p1.html", "a.example/docs/p2.html"]),
            }
            p = ci.table(f, "/detection/provenance")
            prov = {}
            for label, url in zip(p["label"].tolist(), ci.strings(p["url"])):
                prov.setdefault(label, []).append(url.decode())
            rows = list(zip(p["label"].tolist(), ci.strings(p["url"])))
            self.assertEqual(rows, sorted(rows), "provenance by label, then url")
            for chunk, (pages, hoods, occ, urls) in expected.items():
                i = self.label_id[chunk]
                self.assertEqual(hashes[i], ref.sha1(chunk).hex())
                self.assertEqual(int(t["length"][i]), len(chunk))
                self.assertEqual(bytes(t["sample"][i]), chunk)
                self.assertEqual(int(t["pages"][i]), pages, chunk)
                self.assertEqual(int(t["neighborhoods"][i]), hoods, chunk)
                self.assertEqual(int(t["occurrences"][i]), occ, chunk)
                self.assertEqual(prov.get(i), urls, chunk)
        with self.run_crd("prov5", nranks=1) as f:
            p = ci.table(f, "/detection/provenance")
            s1 = [u.decode() for lab, u in zip(p["label"].tolist(), ci.strings(p["url"])) if lab == self.label_id[S1]]
            self.assertEqual(s1, sorted(["a.example/docs/p1.html", "a.example/docs/p2.html", "a.example/index.html",
                                         "b.example/x/y/p3.html"]))


if __name__ == "__main__":
    ci.main()
