# --memory counts the tables a command keeps beside the scan's, at 1 and 2 ranks:
# - detect --pairs: the labeled set and the label → documents list, which every rank holds whole;
#   they stay beside the tables in every pass, so a budget that fits the tables alone counts out of
#   core, and one that cannot hold the list fails before anything is read, naming the memory;
# - compare-hashing: the chunks' Nilsimsa/TLSH/ssdeep sketches (kept during the scan), the labels'
#   texts and sketches (every rank's), and the comparisons' requests: a budget they do not fit fails
#   with one line before the comparisons; the requests travel in --shuffle-buffer rounds.
# Where the command completes, its datasets equal an unbudgeted run's and its peak RSS stays within
# the budget plus the shuffle round and the process's base (the same command over one page), as in
# test_out_of_core.py. Corpora are made here (seconds each).
import os
import random
import unittest

import crd_integ as ci

SHUFFLE = 16 * 1024
SLACK = 8 << 20  # I/O and allocator buffers outside the model, fixed (test_out_of_core.py's)
DROP = ("nranks", "created", "command_line", "config")


def options(extra=()):
    return ["--shuffle-buffer", str(SHUFFLE), "--reader-thread", "off", "--progress-interval", "0"] + list(extra)


def write(root, host, name, paragraphs):
    os.makedirs(os.path.join(root, host), exist_ok=True)
    with open(os.path.join(root, host, name), "w") as f:
        f.write("<html><body>%s</body></html>" % "".join("<p>%s</p>" % p for p in paragraphs))


def resources(path):
    return ci.open_results(path).resources.to_dict()


class MemoryTables(unittest.TestCase):
    maxDiff = None

    @classmethod
    def setUpClass(cls):
        cls.tmp = ci.TempDir("memory_tables")
        os.makedirs(cls.tmp("one"))
        write(cls.tmp("one"), "h", "p.html", ["one lonely page of text"])

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def run_at(self, n, command, inputs, out, extra=()):
        return ci.run_crd([command] + inputs + ["-o", out] + options(extra), nranks=n, check=False, mpi_quiet=True)

    def check_completes(self, n, command, inputs, side, budget, name):
        """Runs unbudgeted, over one page (the base) and under `budget`; the budgeted run equals the
        unbudgeted one and its peak RSS stays within base + budget + the shuffle round + SLACK."""
        runs = {}
        for what, inp, extra in (("ref", inputs, []), ("base", [self.tmp("one")], []),
                                 ("budget", inputs, ["--memory", str(budget)])):
            out = self.tmp("%s-np%d-%s.h5" % (name, n, what))
            r = self.run_at(n, command, inp, out, side + extra)
            self.assertEqual(r.returncode, 0, r.stderr)
            runs[what] = out
        ci.assert_same_datasets(self, ci.comparable(runs["budget"], drop_root=DROP)[0],
                                ci.comparable(runs["ref"], drop_root=DROP)[0], "%s at np=%d" % (name, n))
        used = resources(runs["budget"])
        if not ci.SANITIZED:
            base = resources(runs["base"])["memory.peak_rss_max"]
            self.assertLessEqual(used["memory.peak_rss_max"], base + budget + 2 * SHUFFLE + SLACK,
                                 "%s at np=%d (base %d)" % (name, n, base))
        return used

    def check_fails(self, n, command, inputs, side, budget, pattern, name):
        out = self.tmp("%s-np%d-tiny.h5" % (name, n))
        ci.assert_fails_with_one_line(self, [command] + inputs + ["-o", out] + options(side + ["--memory", budget]),
                                      n, pattern, 300)
        self.assertFalse(os.path.exists(out))

    def test_detect_pairs_counts_the_labeled_documents(self):
        """3,000 expert documents sharing most paragraphs (93,000 labeled positions, 9,000 labels)
        and a site of 2,000 pages. At 10 MiB (6 MiB at 2 ranks) the tables alone fit in memory (crd
        ran one pass before the budget counted them), but not beside the labeled set and the
        documents' list: it counts in passes."""
        root = self.tmp("pairs")
        shared = ["Shared paragraph number %d explains the same topic in the same words every time." % k
                  for k in range(30)]
        own = lambda i: ["Expert page %d has its own paragraph %d with words %d and %d that nobody copies." %  # noqa: E731
                         (i, k, i * 7 + k, i * 13 + k) for k in range(3)]
        for i in range(3000):
            write(os.path.join(root, "expert"), "e%d.example" % (i % 10), "doc%d.html" % i, shared[i % 7:] + own(i))
        for i in range(2000):
            mine = ["Site page %d writes paragraph %d about item %d in words of its own choosing." % (i, k, i * 31 + k)
                    for k in range(12)]
            write(os.path.join(root, "site"), "s%d.example" % (i % 4), "p%d.html" % i,
                  mine + (own(i) if i % 3 == 0 else []) + shared[:2])
        labels = self.tmp("pairs-L.h5")
        ci.run_crd(ci.quiet(["label", os.path.join(root, "expert"), "-o", labels]), nranks=1)
        side = ["--labels", labels, "--pairs", "2"]
        for n in (1, 2):
            with self.subTest(nranks=n):
                budget = (10 << 20) if n == 1 else (6 << 20)
                used = self.check_completes(n, "detect", [os.path.join(root, "site")], side, budget, "pairs")
                self.assertGreater(used["counting.passes"], 1, "the labeled set and documents must be counted")
                self.check_fails(n, "detect", [os.path.join(root, "site")], side, "4M",
                                 r"^crd detect: fatal: --memory 4 MiB per rank is too small: the labeled set and "
                                 r"loading the labeled documents of --pairs need about [\d.]+ MiB on every rank, "
                                 r"whatever the rank count; raise --memory above [\d.]+ MiB$", "pairs")
        pairs = ci.open_results(self.tmp("pairs-np1-budget.h5")).table("/detection/pairs")
        self.assertGreater(len(pairs), 600)  # every third page copies one expert document

    def test_compare_hashing_counts_the_sketches(self):
        """4,000 pages of 10 paragraphs (40,000 distinct chunks, each sketched three ways) against
        500 labels. Before the budget counted the sketches, crd completed at 24 MiB with ~40 MB over
        its base at 1 rank. Now 24 MiB fails with one line before the comparisons, and
        80 MiB completes within its budget."""
        root = self.tmp("compare")
        rnd = random.Random(7)
        vocab = ["w%x" % rnd.randrange(1 << 24) for _ in range(5000)]
        para = lambda: "%s." % " ".join(rnd.choice(vocab) for _ in range(45))  # noqa: E731  (≥ 256 bytes: TLSH)
        expert = [[para() for _ in range(10)] for _ in range(50)]
        for i, e in enumerate(expert):
            write(os.path.join(root, "expert"), "x.example", "e%d.html" % i, e)
        for i in range(4000):
            host = "copy.example" if i % 10 == 0 else "other%d.example" % (i % 7)
            body = expert[i % 50][:6] + [para() for _ in range(4)] if i % 10 == 0 else [para() for _ in range(10)]
            write(os.path.join(root, "corpus"), host, "p%d.html" % i, body)
        with open(os.path.join(root, "truth.txt"), "w") as f:
            f.write("copy.example/\n")
        labels = self.tmp("compare-L.h5")
        ci.run_crd(ci.quiet(["label", os.path.join(root, "expert"), "-o", labels]), nranks=1)
        side = ["--labels", labels, "--truth", os.path.join(root, "truth.txt")]
        for n in (1, 2):
            with self.subTest(nranks=n):
                used = self.check_completes(n, "compare-hashing", [os.path.join(root, "corpus")], side, 80 << 20,
                                            "compare")
                if n == 2:  # at one rank nothing travels
                    # The sketches travel to their owners in --shuffle-buffer rounds (they used 64
                    # MiB rounds, outside the model, and went unreported): ~5 MB in 16 KiB rounds.
                    self.assertGreater(used["shuffle.bytes_sent"], 4 << 20)
                    self.assertGreater(used["shuffle.rounds"], (4 << 20) // SHUFFLE // 2)
                self.check_fails(n, "compare-hashing", [os.path.join(root, "corpus")], side, "24M",
                                 r"^crd compare-hashing: fatal: --memory 24 MiB per rank is too small: .* run with at "
                                 r"least \d+ ranks or raise --memory$", "compare")
        attrs = ci.open_results(self.tmp("compare-np1-budget.h5")).group_attrs(ci.results.COMPARE_HASHING)
        self.assertGreaterEqual(attrs["labels_with_text"], 30)  # the six copied paragraphs of five experts
        self.assertEqual(attrs["positives"], 400)


if __name__ == "__main__":
    ci.main()
