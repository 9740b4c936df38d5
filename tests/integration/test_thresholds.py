# Detection arithmetic (paper §4.3) on a hand-made corpus whose chunk counts are worked out by hand
# below: page containment, mean + population σ thresholds, neighborhood badness in both modes,
# --min-labeled, a fixed --page-threshold, --max-neighborhood-depth 0, and provenance.
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
        """The result of the job called name (crd_results); the job runs the first time name is asked for."""
        if name not in self.outputs:
            out = self.tmp(name + ".h5")
            ci.run_crd(ci.quiet(["run", self.corpus, "-o", out] + BASE + list(extra)), nranks=nranks)
            self.outputs[name] = (extra, nranks, out)
        args, ran_with, out = self.outputs[name]
        self.assertEqual((args, ran_with), (extra, nranks), "job %s reused with other options" % name)
        return ci.open_results(out)

    def test_discovery_by_hand(self):
        r = self.run_crd("default")
        self.assertEqual(dict(zip(r.chunks["hash"], r.chunks["count"].tolist())),
                         {ref.sha1(S1).hex(): 5, ref.sha1(S2).hex(): 3, ref.sha1(S3).hex(): 3})
        self.assertEqual(r.chunks_attrs["stop_removed"], 1)  # X

    def test_pages_and_auto_threshold(self):
        r = self.run_crd("default")
        self.assertEqual(r.pages["url"].tolist(), sorted(EXPECTED_PAGES), "pages with ≥ 1 chunk, by url")
        pages = r.pages.set_index("url")
        containment = {}
        for url, (chunks, labeled, positions, labels) in EXPECTED_PAGES.items():
            row = pages.loc[url]
            self.assertEqual(row["chunks"], chunks, url)
            self.assertEqual(row["labeled"], labeled, url)
            containment[url] = labeled / chunks
            self.assertAlmostEqual(row["containment"], containment[url], places=12, msg=url)
            self.assertEqual(row["positions"], positions, url)
            self.assertEqual(row["label_ids"], [self.label_id[c] for c in labels], url)
        mean, _ = mean_sigma(list(containment.values()))
        # By hand: (0.75 + 1 + 0.5 + 0 + 0.2 + 0.5 + 0) / 7 = 2.95 / 7.
        self.assertAlmostEqual(mean, 2.95 / 7, places=12)
        flagged = self.check_auto_threshold(r, "page", pages, containment)
        self.assertEqual(flagged, {"a.example/docs/p2.html"})  # threshold ≈ 0.772

    def check_auto_threshold(self, r, kind, rows, scores):
        """/detection's KIND_mean, KIND_sigma, KIND_threshold (mean + population σ of scores) and
        the flagged rows (indexed by key) are those over the threshold; returns them."""
        mean, sigma = mean_sigma(list(scores.values()))
        a = r.detection_attrs
        self.assertAlmostEqual(a[kind + "_mean"], mean, places=9)
        self.assertAlmostEqual(a[kind + "_sigma"], sigma, places=9)
        self.assertAlmostEqual(a[kind + "_threshold"], mean + sigma, places=9)
        flagged = flagged_keys(rows)
        self.assertEqual(flagged, {k for k, v in scores.items() if v > mean + sigma})
        return flagged

    def check_neighborhoods(self, r, badness_of, max_depth=None):
        expected = {p: v for p, v in EXPECTED_HOODS.items() if max_depth is None or v[0] <= max_depth}
        self.assertEqual(r.neighborhoods["prefix"].tolist(), sorted(expected), "one row per prefix, by prefix")
        hoods = r.neighborhoods.set_index("prefix")
        badness = {}
        for prefix, (depth, members) in expected.items():
            row = hoods.loc[prefix]
            rows = [EXPECTED_PAGES[m] for m in members]
            self.assertEqual(row["depth"], depth, prefix)
            self.assertEqual(row["pages"], len(members), prefix)
            self.assertEqual(row["chunks"], sum(r[0] for r in rows), prefix)
            self.assertEqual(row["labeled"], sum(r[1] for r in rows), prefix)
            badness[prefix] = badness_of(rows)
            self.assertAlmostEqual(row["badness"], badness[prefix], places=12, msg=prefix)
        return self.check_auto_threshold(r, "neighborhood", hoods, badness)

    def test_badness_pages(self):
        r = self.run_crd("default")
        self.assertEqual(r.detection_attrs["badness_mode"], "pages")
        flagged = self.check_neighborhoods(r, lambda rows: statistics.fmean(r[1] / r[0] for r in rows))
        # By hand: a 0.75, a/docs 0.875, b 0.1, b/x 0.2, b/x/y 0.2, c 0.25 → threshold ≈ 0.696.
        self.assertEqual(flagged, {"a.example", "a.example/docs"})

    def test_badness_chunks(self):
        r = self.run_crd("chunks", "--badness", "chunks")
        flagged = self.check_neighborhoods(r, lambda rows: sum(r[1] for r in rows) / sum(r[0] for r in rows))
        self.assertEqual(flagged, {"a.example", "a.example/docs"})

    def test_hosts_only(self):
        r = self.run_crd("depth0", "--max-neighborhood-depth", "0")
        flagged = self.check_neighborhoods(r, lambda rows: statistics.fmean(r[1] / r[0] for r in rows), max_depth=0)
        # Hosts: a 0.75, b 0.1, c 0.25: mean 0.3667, σ ≈ 0.2718, threshold ≈ 0.638.
        self.assertEqual(flagged, {"a.example"})

    def test_fixed_page_threshold_and_min_labeled(self):
        r = self.run_crd("fixed", "--page-threshold", "0.5")
        self.assertEqual(r.detection_attrs["page_threshold"], 0.5)
        self.assertEqual(flagged_keys(r.pages.set_index("url")),
                         {"a.example/docs/p1.html", "a.example/docs/p2.html"})  # 0.5 is not > 0.5
        r = self.run_crd("fixed04", "--page-threshold", "0.4")
        self.assertEqual(flagged_keys(r.pages.set_index("url")),
                         {"a.example/docs/p1.html", "a.example/docs/p2.html", "a.example/index.html",
                          "c.example/p5.html"})
        r = self.run_crd("minlab", "--page-threshold", "0.4", "--min-labeled", "2")
        self.assertEqual(r.detection_attrs["min_labeled"], 2)
        # p5 has containment 0.5 but a single labeled chunk.
        self.assertEqual(flagged_keys(r.pages.set_index("url")),
                         {"a.example/docs/p1.html", "a.example/docs/p2.html", "a.example/index.html"})

    def test_label_provenance(self):
        r = self.run_crd("prov", "--provenance-samples", "2", nranks=3)
        t = r.table(ci.results.DETECTION_LABELS, decode=False)
        hashes = t["hash"].tolist()
        self.assertEqual(hashes, sorted(hashes), "labels by hash")
        self.assertEqual(r.detection_attrs["labels"], 3)
        expected = {  # chunk: (pages, neighborhoods, occurrences, two smallest page keys)
            S1: (4, 5, 5, ["a.example/docs/p1.html", "a.example/docs/p2.html"]),
            S2: (3, 2, 3, ["a.example/docs/p1.html", "a.example/docs/p2.html"]),
            S3: (3, 3, 3, ["a.example/docs/p1.html", "a.example/docs/p2.html"]),
        }
        rows = list(zip(r.provenance["label"].tolist(), r.provenance["url"]))
        self.assertEqual(rows, sorted(rows), "provenance by label, then url")
        prov = {}
        for label, url in rows:
            prov.setdefault(label, []).append(url)
        for chunk, (pages, hoods, occ, urls) in expected.items():
            i = self.label_id[chunk]
            self.assertEqual(hashes[i], ref.sha1(chunk).hex())
            self.assertEqual(t["length"][i], len(chunk))
            self.assertEqual(t["sample"][i], chunk)
            self.assertEqual(t["pages"][i], pages, chunk)
            self.assertEqual(t["neighborhoods"][i], hoods, chunk)
            self.assertEqual(t["occurrences"][i], occ, chunk)
            self.assertEqual(prov.get(i), urls, chunk)
        p = self.run_crd("prov5", nranks=1).provenance
        s1 = p[p["label"] == self.label_id[S1]]["url"].tolist()
        self.assertEqual(s1, sorted(["a.example/docs/p1.html", "a.example/docs/p2.html", "a.example/index.html",
                                     "b.example/x/y/p3.html"]))


def flagged_keys(rows):
    """The index keys of the flagged rows of a table indexed by url or prefix."""
    return set(rows.index[rows["flagged"] != 0])


if __name__ == "__main__":
    ci.main()
