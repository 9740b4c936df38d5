# crd run (one pass) must equal crd discover followed by crd detect --labels discover.h5 (two
# passes), for 1 and 3 ranks; and detect's two joins (replicated L, partitioned L) must agree.
import unittest

import crd_integ as ci

DISCOVERY = ["--chunk-threshold", "5", "--file-threshold", "2", "--min-chunk-length", "20"]
# Detection options, and the stop rule detect must apply the same way run does.
DETECTION = ["--min-chunk-length", "20", "--provenance-samples", "3"]


def group(path, name):
    datasets, attrs = ci.read_all(path)
    return ({k: v for k, v in datasets.items() if k.startswith(name + "/")},
            {k: v for k, v in attrs.items() if k == name or k.startswith(name + "/")})


class RunEqualsDiscoverDetect(unittest.TestCase):
    maxDiff = None

    @classmethod
    def setUpClass(cls):
        cls.inputs = [ci.corpus_package("debian-reference-en"), ci.sphinx_html()]
        cls.tmp = ci.TempDir("run-vs-detect")
        cls.out = {}
        for n in (1, 3):
            run = cls.tmp("run-np%d.h5" % n)
            disc = cls.tmp("discover-np%d.h5" % n)
            ci.run_crd(ci.quiet(["run"] + cls.inputs + ["-o", run] + DISCOVERY + DETECTION[2:]), nranks=n)
            ci.run_crd(ci.quiet(["discover"] + cls.inputs + ["-o", disc] + DISCOVERY), nranks=n)
            cls.out["run", n] = run
            cls.out["discover", n] = disc
            for join in ("replicated", "partitioned"):
                det = cls.tmp("detect-%s-np%d.h5" % (join, n))
                ci.run_crd(ci.quiet(["detect"] + cls.inputs + ["--labels", disc, "--join", join, "-o", det] +
                                    DETECTION), nranks=n)
                cls.out["detect", join, n] = det

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def assert_same_detection(self, a_path, b_path, ignore_attrs=("join_mode",)):
        a_d, a_a = group(a_path, ci.results.DETECTION)
        b_d, b_a = group(b_path, ci.results.DETECTION)
        self.assertGreater(len(a_d[ci.results.PAGES + "/url"]), 100)
        self.assertGreater(int(a_d[ci.results.PAGES + "/flagged"].sum()), 0)
        self.assertGreater(int(a_d[ci.results.NEIGHBORHOODS + "/flagged"].sum()), 0)
        ci.assert_same_datasets(self, a_d, b_d, msg="%s vs %s" % (a_path, b_path))
        for g in a_a:
            x = {k: v for k, v in a_a[g].items() if k not in ignore_attrs}
            y = {k: v for k, v in b_a[g].items() if k not in ignore_attrs}
            self.assertEqual(x, y, g)

    def test_run_equals_discover_then_detect(self):
        for n in (1, 3):
            for join in ("replicated", "partitioned"):
                with self.subTest(nranks=n, join=join):
                    self.assert_same_detection(self.out["run", n], self.out["detect", join, n])

    def test_run_discovery_equals_discover(self):
        for n in (1, 3):
            with self.subTest(nranks=n):
                a_d, a_a = group(self.out["run", n], ci.results.DISCOVERY)
                b_d, b_a = group(self.out["discover", n], ci.results.DISCOVERY)
                ci.assert_same_datasets(self, a_d, b_d)
                self.assertEqual(a_a, b_a)

    def test_joins_agree_and_are_recorded(self):
        for n in (1, 3):
            with self.subTest(nranks=n):
                self.assert_same_detection(self.out["detect", "replicated", n], self.out["detect", "partitioned", n])
                for join in ("replicated", "partitioned"):
                    self.assertEqual(ci.open_results(self.out["detect", join, n]).detection_attrs["join_mode"], join)

    def test_labels_are_the_discovered_chunks(self):
        r = ci.open_results(self.out["run", 3])
        discovered = sorted(r.chunks["hash"])
        self.assertEqual(r.detection_labels["hash"].tolist(), discovered)
        self.assertEqual(r.detection_attrs["labels"], len(discovered))


if __name__ == "__main__":
    ci.main()
