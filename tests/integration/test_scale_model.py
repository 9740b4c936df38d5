# The scale model: perf/synth_corpus.py writes the same bytes for the same seed, and crd
# discover measures on its corpus the shape that was asked for (chunks per page, the fraction of
# chunk occurrences seen once, the Zipf head, realistic URLs); perf/scale_model.py runs end to end
# on a tiny sweep, its fit is sane, and its projection table is produced (and reproduced by --refit).
import glob
import gzip
import hashlib
import json
import math
import os
import re
import subprocess
import sys
import unittest

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import crd_integ as ci  # noqa: E402  (exits 77 without h5py)

PERF = os.path.join(ci.source_dir(), "perf")
SYNTH = os.path.join(PERF, "synth_corpus.py")
SCALE = os.path.join(PERF, "scale_model.py")


def synth(out, *args):
    return subprocess.run([sys.executable, SYNTH, out, "-q"] + list(args), stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE, text=True, timeout=600)


def digests(directory):
    out = {}
    for p in sorted(glob.glob(os.path.join(directory, "warc", "*"))):
        with open(p, "rb") as f:
            out[os.path.basename(p)] = hashlib.sha256(f.read()).hexdigest()
    return out


def target_uris(directory):
    uris = []
    for p in sorted(glob.glob(os.path.join(directory, "warc", "*.warc.gz"))):
        with gzip.open(p, "rb") as f:  # concatenated members read as one stream
            uris += [m.decode() for m in re.findall(rb"\r\nWARC-Target-URI: (\S+)\r\n", f.read())]
    return uris


class SynthCorpus(unittest.TestCase):
    PAGES, SHARDS, SEED = 1500, 4, 3

    @classmethod
    def setUpClass(cls):
        cls.tmp = ci.TempDir("synth")
        proc = synth(cls.tmp("a"), "--pages", str(cls.PAGES), "--shards", str(cls.SHARDS), "--seed", str(cls.SEED))
        if proc.returncode != 0:
            raise AssertionError(proc.stderr)
        with open(cls.tmp("a", "manifest.json")) as f:
            cls.manifest = json.load(f)
        out = cls.tmp("a.h5")
        ci.run_crd(ci.quiet(["discover", cls.tmp("a", "warc"), "-o", out]), nranks=2)
        cls.result = ci.open_results(out)

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def test_same_seed_same_bytes_other_seed_other_bytes(self):
        small = ["--pages", "200", "--shards", "3"]
        for name, seed in (("b", "3"), ("c", "3"), ("d", "4")):
            self.assertEqual(synth(self.tmp(name), *small, "--seed", seed).returncode, 0)
        b, c, d = digests(self.tmp("b")), digests(self.tmp("c")), digests(self.tmp("d"))
        self.assertEqual(sorted(b), ["shard-00000.warc.gz", "shard-00001.warc.gz", "shard-00002.warc.gz"])
        self.assertEqual(b, c)
        for name in b:
            self.assertNotEqual(b[name], d[name], name)

    def test_counts_are_the_plan(self):
        c, m = self.result.counters, self.manifest
        self.assertEqual(c["documents.chunked"], self.PAGES)
        self.assertEqual(c["records"], self.PAGES + self.SHARDS)
        self.assertEqual(c["skipped.warc.warcinfo"], self.SHARDS)
        self.assertEqual(c["bytes.chunked"], m["html_bytes"])
        self.assertEqual(c["chunks"], m["chunks"])
        self.assertEqual(self.result.chunks_attrs["distinct"], m["distinct_chunks"])
        for name, value in c.items():
            if name.startswith("cleaning.dropped") or (name.startswith("skipped.") and name != "skipped.warc.warcinfo"):
                self.assertEqual(value, 0, name)

    def test_shape_within_tolerance(self):
        c = self.result.counters
        cpp = c["chunks"] / c["documents.chunked"]
        self.assertLess(abs(cpp - 43.0) / 43.0, 0.02, cpp)
        h = self.result.chunk_histogram
        once = int(h.loc[h["occurrences"] == 1, "distinct"].iloc[0])
        self.assertLess(abs(once / c["chunks"] - 0.40), 0.005, once / c["chunks"])
        # Fig. 2: a frequency-occurrence power law; Zipf s = 1 gives slope -2 (log-binned, counts ≥ 2).
        occ, dist = h["occurrences"].to_numpy(), h["distinct"].to_numpy()
        edges = 2 ** np.arange(1, int(math.log2(occ.max())) + 1)
        x, y = [], []
        for lo, hi in zip(edges[:-1], edges[1:]):
            n = dist[(occ >= lo) & (occ < hi)].sum()
            if n:
                x.append(math.log(math.sqrt(lo * hi)))
                y.append(math.log(n / (hi - lo)))
        slope = np.polyfit(x, y, 1)[0]
        self.assertTrue(-2.4 < slope < -1.6, slope)
        # The most frequent chunk is the empty paragraph.
        top = self.result.chunks.iloc[0]
        self.assertEqual(top["sample"], "<p></p>")
        # Every page is a distinct file.
        fh = self.result.file_histogram
        self.assertEqual(fh["occurrences"].tolist(), [1])
        self.assertEqual(fh["distinct"].tolist(), [self.PAGES])

    def test_urls_have_hosts_and_depth(self):
        uris = target_uris(self.tmp("a"))
        self.assertEqual(len(uris), self.PAGES)
        self.assertEqual(len(set(uris)), self.PAGES)
        hosts = {u.split("/")[2] for u in uris}
        depths = [u.count("/") - 3 for u in uris]  # directories below the host
        self.assertGreaterEqual(len(hosts), self.PAGES // 80)
        self.assertLessEqual(max(depths), 7)
        self.assertTrue(1.0 < sum(depths) / len(depths) < 3.0, sum(depths) / len(depths))
        per_host = sorted((sum(1 for u in uris if u.split("/")[2] == h) for h in hosts), reverse=True)
        self.assertGreater(per_host[0], 5 * per_host[len(per_host) // 2])  # heavy-tailed

    def test_bad_shape_is_refused(self):
        proc = synth(self.tmp("bad"), "--pages", "10", "--unique", "1.5")
        self.assertNotEqual(proc.returncode, 0)
        self.assertIn("synth_corpus.py: need pages ≥ 1, shards ≥ 1, 0 < unique < 1", proc.stderr)
        proc = synth(self.tmp("bad"), "--pages", "0")
        self.assertNotEqual(proc.returncode, 0)
        self.assertIn("synth_corpus.py: need pages ≥ 1", proc.stderr)
        self.assertNotIn("Traceback", proc.stderr)
        proc = synth(self.tmp("bad"), "--size", "12X")
        self.assertNotEqual(proc.returncode, 0)
        self.assertIn("synth_corpus.py: --size 12X: not a size", proc.stderr)


class ScaleModel(unittest.TestCase):
    """A 6-job sweep (24-page unit, 1×/2×/4×, 1 and 2 ranks, discover); holds out 2 ranks at 4×."""

    def setUp(self):
        self.tmp = ci.TempDir("scale")
        self.out = self.tmp("out")

    def tearDown(self):
        self.tmp.cleanup()

    def scale(self, *args):
        proc = subprocess.run([sys.executable, SCALE, "--out", self.out, "-q"] + list(args),
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, timeout=600)
        self.assertEqual(proc.returncode, 0, proc.stderr[-3000:])
        return proc.stdout

    def test_end_to_end(self):
        text = self.scale("--crd", ci.crd_binary(), "--cache", self.tmp("cache"), "--unit-pages", "24",
                          "--sizes", "1,2,4", "--ranks", "1,2", "--commands", "discover", "--holdout", "2:4",
                          "--reps", "1")
        with open(os.path.join(self.out, "measurements.csv")) as f:
            rows = f.read().splitlines()
        self.assertEqual(len(rows), 1 + 6)
        with open(os.path.join(self.out, "fit.json")) as f:
            fit = json.load(f)
        m = fit["models"]["discover"]
        self.assertEqual(m["cores"], os.cpu_count())
        # Time per byte: on 0.7-3 MB inputs start-up noise can hide it, so only its bounds: the fit
        # clamps costs at 0, and one core is faster than 1 MB/s.
        for name in ("c0", "kappa", "w0", "w1", "tau"):
            self.assertGreaterEqual(m[name], 0, name)
        self.assertLess(m["kappa"], 1e-6)
        self.assertGreater(m["m0"], 1e6)           # a process is megabytes before its tables
        self.assertGreater(m["mu"], 0)             # bytes per chunk occurrence on a rank
        self.assertGreater(m["beta"], 0)           # shuffle bytes per chunk occurrence sent away
        # Memory and shuffle volume do not depend on the machine's load: the held-out point agrees.
        check = fit["check"]["discover"]
        for quantity in ("peak_rss_max", "shuffle_bytes"):
            self.assertLess(abs(check[quantity]["error"]), 0.25, (quantity, check[quantity]))
        self.assertGreater(check["wall_s"]["measured"], 0)
        # The projection: 2 crawls × 3 node counts × (in memory, out of core), for discover.
        proj = fit["projection"]
        self.assertEqual(len(proj), 12)
        self.assertEqual(sorted({r["nodes"] for r in proj}), [16, 64, 256])
        for r in proj:
            if r["out_of_core"] and r["fits"]:
                self.assertGreaterEqual(r["passes"], 1)
                self.assertTrue(0 < r["hours"] < 1e4, r)
                self.assertLessEqual(r["memory_per_node"], 256e9 * 0.9 * 1.0001, r)
        for crawl in {r["crawl"] for r in proj}:
            hours = [r["hours"] for r in proj if r["crawl"] == crawl and r["out_of_core"]]
            self.assertEqual(hours, sorted(hours, reverse=True), crawl)  # more nodes, fewer hours
        self.assertIn("| crawl | command | nodes | in memory | passes | hours |", text)
        self.assertIn("| Common Crawl 2009/10 | discover | 256 |", text)
        with open(os.path.join(self.out, "projection.md")) as f:
            self.assertEqual(f.read().strip(), text.strip())
        # --refit reproduces the fit and the table from the CSV alone, without running a job.
        again = self.tmp("again")
        proc = subprocess.run([sys.executable, SCALE, "--refit", os.path.join(self.out, "measurements.csv"),
                               "--holdout", "2:4", "--out", again, "--crd", "/nonexistent"],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, timeout=120)
        self.assertEqual(proc.returncode, 0, proc.stderr)
        with open(os.path.join(again, "fit.json")) as f:
            refit = json.load(f)
        self.assertEqual(refit["models"], fit["models"])
        self.assertEqual(refit["projection"], fit["projection"])


if __name__ == "__main__":
    ci.main()
