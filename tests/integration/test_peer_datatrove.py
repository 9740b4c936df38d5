# perf/peer_datatrove.py's reading of datatrove's MinHash output: the clusters rebuilt from stage 2's
# .dups by datatrove's union-find rule (root of b set to root of a, files in sorted order), the page
# each cluster keeps (the root, not the smallest key), the check against the .remove file and stage
# 4's removed documents, and the (kept, removed) pairs that both systems are scored by. On constructed
# files (< 1 s). With CRD_DATATROVE_DIR set to a datatrove source tree (and its Debian Python packages
# installed; docs/neardup.md, "Side by side with datatrove"), also datatrove's 4 stages on five
# documents (~5 s); skipped otherwise, as in CI, which has no datatrove.
import gzip
import json
import os
import random
import struct
import sys
import unittest

import crd_integ as ci

sys.path.insert(0, os.path.join(ci.source_dir(), "perf"))
import peer_datatrove as p  # noqa: E402

WORDS = ["alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf", "hotel", "india", "juliet", "kilo",
         "lima", "mike", "november", "oscar", "papa", "quebec", "romeo", "sierra", "tango", "uniform"]
KEYS = ["h.example/p%d.html" % i for i in range(7)]


def write_datatrove(work, dups, removed):
    """Stage 2's .dups (one list of (doc a, doc b) per bucket, file 0), stage 3's .remove and stage 4's
    removed documents, as datatrove v0.3.0 writes them."""
    os.makedirs(os.path.join(work, "minhash", "buckets"))
    os.makedirs(os.path.join(work, "minhash", "remove_ids"))
    os.makedirs(os.path.join(work, "minhash", "removed"))
    for bucket, pairs in enumerate(dups):
        with open(os.path.join(work, "minhash", "buckets", "%05d_00.dups" % bucket), "wb") as f:
            for a, b in pairs:
                f.write(struct.pack("<4I", 0, a, 0, b))
    with open(os.path.join(work, "minhash", "remove_ids", "000000.remove"), "wb") as f:
        for d in sorted(removed):
            f.write(struct.pack("<I", d))
    with gzip.open(os.path.join(work, "minhash", "removed", "00000.jsonl.gz"), "wt", encoding="utf-8") as f:
        for d in sorted(removed):
            f.write(json.dumps({"id": KEYS[d], "text": "x"}) + "\n")


class ReadDatatrove(unittest.TestCase):
    def setUp(self):
        self.tmp = ci.TempDir("peer-datatrove")

    def tearDown(self):
        self.tmp.cleanup()

    def test_clusters_keep_the_union_find_root(self):
        # Bucket 0: 1-2, 4-5; bucket 1: 2-3 (joins 3 under 1's root), 1-2 again; bucket 2: 6-4, which
        # makes 6 the root of {4, 5, 6}: datatrove keeps 6, not the smallest key 4.
        work = self.tmp("a")
        write_datatrove(work, [[(1, 2), (4, 5)], [(2, 3), (1, 2)], [(6, 4)]], removed={2, 3, 4, 5})
        cluster_of, pairs = p.read_datatrove(work, KEYS)
        self.assertEqual(cluster_of, {KEYS[1]: KEYS[1], KEYS[2]: KEYS[1], KEYS[3]: KEYS[1],
                                      KEYS[4]: KEYS[6], KEYS[5]: KEYS[6], KEYS[6]: KEYS[6]})
        self.assertEqual(pairs, [(KEYS[1], KEYS[2]), (KEYS[1], KEYS[3]), (KEYS[4], KEYS[6]), (KEYS[5], KEYS[6])])

    def test_disagreeing_remove_file_is_an_error(self):
        work = self.tmp("b")
        write_datatrove(work, [[(1, 2)]], removed={1})  # datatrove would remove 2, keeping the root 1
        with self.assertRaises(SystemExit):
            p.read_datatrove(work, KEYS)

    def test_crd_clusters_pair_each_page_with_its_representative(self):
        clusters = {"a/1": "a/1", "b/2": "a/1", "c/3": "a/1", "d/4": "d/4", "e/5": "d/4"}
        self.assertEqual(p.kept_pairs(clusters, lambda ms: [m for m in ms if clusters[m] == m]),
                         [("a/1", "b/2"), ("a/1", "c/3"), ("d/4", "e/5")])


class RealDatatrove(unittest.TestCase):
    def test_near_copies_form_one_cluster(self):
        tree = os.environ.get("CRD_DATATROVE_DIR")
        if not tree or not os.path.isdir(os.path.join(tree, "src", "datatrove")):
            ci.skip("CRD_DATATROVE_DIR names no datatrove source tree")
        try:
            import nltk  # noqa: F401
            import xxhash  # noqa: F401
        except ImportError as err:
            ci.skip("datatrove's Debian Python packages are missing (%s)" % err)
        def words(seed, n):
            rng = random.Random(seed)
            return [rng.choice(WORDS) for _ in range(n)]

        a = words(1, 300)
        docs = [("x/a", " ".join(a)), ("x/b", " ".join(words(2, 300))), ("y/a", " ".join(a)),
                ("z/a", " ".join(a[:-1] + ["zzzzz"])), ("x/c", " ".join(words(3, 300)))]
        tmp = ci.TempDir("peer-datatrove-real")
        try:
            keys, size = p.write_input(docs, tmp("work"))
            self.assertEqual(keys, [k for k, _ in docs])
            stages = p.run_datatrove(tree, tmp("work"))
            self.assertEqual([s[0] for s in stages], [1, 2, 3, 4])
            cluster_of, pairs = p.read_datatrove(tmp("work"), keys)
        finally:
            tmp.cleanup()
        # x/a, y/a (identical) and z/a (one word changed) are one cluster; x/b and x/c are in none.
        self.assertEqual(sorted(cluster_of), ["x/a", "y/a", "z/a"])
        kept = cluster_of["x/a"]
        self.assertIn(kept, ["x/a", "y/a", "z/a"])
        self.assertEqual(pairs, sorted((min(kept, k), max(kept, k)) for k in ["x/a", "y/a", "z/a"] if k != kept))


if __name__ == "__main__":
    ci.main()
