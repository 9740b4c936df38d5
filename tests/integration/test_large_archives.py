# Archive records that cross ByteStream's 4 MiB read buffer got garbage URLs, or crashed
# crd (a header view kept over a fill that moved or reallocated the buffer). No small test file
# crossed the buffer. Here ~3,000 real pages and big records (5-20 MB, larger than the buffer) are
# written as a .warc.gz, an .arc.gz (gzip per record) and a directory tree with the same URL keys
# (large_corpus.py); `crd run` over each at 1 and 3 ranks must find every archive URL exactly once
# and give the directory run's results.
import collections
import hashlib
import os
import sys
import time
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import crd_integ as ci  # noqa: E402  (exits 77 without h5py)
from crd_integ import results as R  # noqa: E402
import large_corpus  # noqa: E402

RANKS = (1, 3)
MIN_PAGES = 3000
# Pages of at most 24 KiB whole, every other section page: ~3,000 pages of ~20 KB.
MAX_PAGE_BYTES = 24 << 10
SECTION_EVERY = 2
# Larger than the 4 MiB buffer, under the default --max-record-bytes (64M).
BIG_SIZES = (5 << 20, 9 << 20, 17 << 20)
# The level only changes the bytes on disk, not what crd decodes; 1 writes ~2.5x faster than 6.
GZIP_LEVEL = 1
# Chunks on more than 10 pages (the default) are labeled: the sites' shared navigation. Every file
# is labeled (threshold 0), so /discovery/files lists the SHA-1 of every payload crd read.
THRESHOLDS = ["--chunk-threshold", "10", "--file-threshold", "0"]
# Counters that describe the input files rather than the pages: the archive records crd skips
# (warcinfo, request, metadata, filedesc), records per file, file count and bytes read. Each is
# checked against what was written; every other counter must equal the directory run's.
INPUT_COUNTERS = ("input.files", "input.bytes", "records")
INPUT_COUNTER_PREFIXES = ("skipped.warc.", "skipped.arc.")
# Root attributes that describe the job (docs/schema.md), not the data.
JOB_ATTRS = ("nranks", "created", "command_line", "config")
RUN_TIMEOUT = 600  # seconds per crd run; each takes 1-15 s here, in the normal and the ASan build


def first(items, n=8):
    items = sorted(items)
    return "%d: %r%s" % (len(items), items[:n], " …" if len(items) > n else "")


class LargeArchives(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        for package, _, _ in large_corpus.SITES:
            ci.corpus_package(package)  # skips (77) without the corpus
        cls.tmp = ci.TempDir("large-archives")
        try:
            cls.generate_and_run()
        except BaseException:
            cls.tmp.cleanup()
            raise

    @classmethod
    def generate_and_run(cls):
        t0 = time.time()
        pages = large_corpus.build_pages(ci.corpus_dir(), MIN_PAGES, MAX_PAGE_BYTES, SECTION_EVERY, BIG_SIZES)
        cls.pages = pages
        cls.keys = set(pages.order)
        cls.inputs = {"warc": cls.tmp("crawl.warc.gz"), "arc": cls.tmp("crawl.arc.gz"), "tree": cls.tmp("tree")}
        cls.written = {
            "warc": large_corpus.write_warc(pages, cls.inputs["warc"], GZIP_LEVEL),
            "arc": large_corpus.write_arc(pages, cls.inputs["arc"], GZIP_LEVEL),
            "tree": large_corpus.write_tree(pages, cls.inputs["tree"]),
        }
        sizes = sorted(len(pages.body[k]) for k in pages.big)
        print("%d pages (%d big: %s bytes), %.1f MB of HTML; generated in %.1f s" %
              (len(pages.order), len(pages.big), sizes, sum(map(len, pages.body.values())) / 1e6,
               time.time() - t0), flush=True)
        cls.runs = {}
        for name in ("warc", "arc", "tree"):
            for nranks in RANKS:
                out = cls.tmp("%s-np%d.h5" % (name, nranks))
                t = time.time()
                p = ci.run_crd(ci.quiet(["run", cls.inputs[name], "-o", out] + THRESHOLDS),
                               nranks=nranks, check=False, timeout=RUN_TIMEOUT)
                print("crd run over %s at %d rank(s): exit %d, %.1f s" % (name, nranks, p.returncode, time.time() - t),
                      flush=True)
                cls.runs[(name, nranks)] = (p, out)

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def test_corpus_crosses_the_read_buffer(self):
        """What the read-buffer tests need of the corpus: ≥ 3,000 pages, records larger than the 4 MiB read
        buffer (5-20 MB, under --max-record-bytes 64M), and small records crossing the buffer's end
        many times (a 4 MiB stretch of the decoded WARC holds one such crossing)."""
        self.assertGreaterEqual(len(self.pages.order), MIN_PAGES)
        big = sorted(len(self.pages.body[k]) for k in self.pages.big)
        self.assertEqual(len(big), len(BIG_SIZES))
        self.assertTrue(all(5 << 20 <= n <= 20 << 20 for n in big), big)
        small = sum(len(self.pages.body[k]) for k in self.pages.order if k not in self.pages.big)
        self.assertGreater(small // (4 << 20), 10, "too few crossings of the buffer by small records")

    def result(self, name, nranks):
        """(datasets, attrs) of a run (ci.comparable), after checking it succeeded."""
        p, out = self.runs[(name, nranks)]
        self.assertEqual(p.returncode, 0, "crd run over the %s at %d rank(s) failed (exit %d):\n%s" %
                         (name, nranks, p.returncode, ci.stderr_excerpt(p.stderr)))
        return ci.comparable(out, drop_root=JOB_ATTRS)

    def assert_every_page_once(self, name):
        for nranks in RANKS:
            datasets, _ = self.result(name, nranks)
            urls = [u.decode("utf-8", "backslashreplace") for u in ci.strings(datasets[R.PAGES + "/url"])]
            counts = collections.Counter(urls)
            where = " in the %s run at %d rank(s)" % (name, nranks)
            self.assertEqual(set(counts) - self.keys, set(), "URLs that are no page (garbage)" + where + ", " +
                             first(set(counts) - self.keys))
            self.assertEqual(self.keys - set(counts), set(), "pages missing" + where + ", " +
                             first(self.keys - set(counts)))
            self.assertEqual([u for u, c in counts.items() if c > 1], [], "pages found more than once" + where)

    def test_warc_every_target_uri_once(self):
        self.assert_every_page_once("warc")

    def test_arc_every_url_once(self):
        self.assert_every_page_once("arc")

    def test_tree_every_path_once(self):
        """The reference: the directory run sees every page under the archives' URL keys."""
        self.assert_every_page_once("tree")

    def test_every_payload_intact(self):
        """/discovery/files holds the SHA-1, length and count of exactly the page bodies written."""
        expected = collections.Counter()
        length = {}
        for body in self.pages.body.values():
            digest = hashlib.sha1(body).hexdigest()
            expected[digest] += 1
            length[digest] = len(body)
        for name in ("warc", "arc", "tree"):
            for nranks in RANKS:
                datasets, _ = self.result(name, nranks)
                hashes = ci.hexes(datasets[R.FILES + "/hash"])
                got = dict(zip(hashes, (int(c) for c in datasets[R.FILES + "/count"])))
                where = " in the %s run at %d rank(s)" % (name, nranks)
                self.assertEqual(set(got) - set(expected), set(), "payloads never written" + where)
                self.assertEqual(set(expected) - set(got), set(), "payloads missing" + where)
                self.assertEqual(got, dict(expected), "payload counts" + where)
                self.assertEqual(dict(zip(hashes, (int(v) for v in datasets[R.FILES + "/length"]))), length,
                                 "payload lengths" + where)

    def counters(self, datasets):
        names = [n.decode() for n in ci.strings(datasets[R.COUNTERS + "/name"])]
        return dict(zip(names, (int(v) for v in datasets[R.COUNTERS + "/value"])))

    def split_counters(self, counters):
        """(input-describing counters, the rest)."""
        own = {k: v for k, v in counters.items() if k in INPUT_COUNTERS or k.startswith(INPUT_COUNTER_PREFIXES)}
        return own, {k: v for k, v in counters.items() if k not in own}

    def test_counters(self):
        """Counters of the pages (documents, chunks, bytes chunked, …) equal the directory run's;
        those of the files are what was written; no run met an error."""
        ref_datasets, _ = self.result("tree", 1)
        _, ref_pages = self.split_counters(self.counters(ref_datasets))
        self.assertEqual(ref_pages["documents"], len(self.pages.order))
        self.assertEqual(ref_pages["documents.chunked"], len(self.pages.order))
        self.assertEqual(ref_pages["bytes.chunked"], sum(map(len, self.pages.body.values())))
        for name in ("warc", "arc", "tree"):
            expected_input = dict(self.written[name], **{"input.files": 1 if name != "tree" else len(self.pages.order),
                                                         "input.bytes": self.input_bytes(name)})
            for nranks in RANKS:
                datasets, _ = self.result(name, nranks)
                where = "%s run at %d rank(s)" % (name, nranks)
                own, pages = self.split_counters(self.counters(datasets))
                self.assertEqual(own, expected_input, "input counters of the " + where)
                self.assertEqual(pages, ref_pages, "page counters of the " + where)
                self.assertEqual(len(datasets[R.ERRORS + "/file"]), 0, "/run/errors of the " + where)

    def input_bytes(self, name):
        path = self.inputs[name]
        if os.path.isfile(path):
            return os.path.getsize(path)
        return sum(len(b) for b in self.pages.body.values())

    def test_results_equal_directory_run(self):
        """Every dataset and attribute outside /run equals the directory run's, at every rank count:
        the archive readers hand over exactly the pages the directory holds. /run is left out here:
        /run/counters partly describe the input files (test_counters checks them), /run/errors is
        empty everywhere (test_counters), /run/timings and /run/resources describe the job."""
        ref_datasets, ref_attrs = self.result("tree", 1)
        ref = {k: v for k, v in ref_datasets.items() if not k.startswith("/run/")}
        self.assertGreater(len(ref[R.CHUNKS + "/hash"]), 0, "nothing labeled: the comparison would be weak")
        self.assertGreater(int(ref_attrs["/detection"]["pages_flagged"]), 0, "nothing flagged")
        for name in ("warc", "arc", "tree"):
            for nranks in RANKS:
                if (name, nranks) == ("tree", 1):
                    continue
                datasets, attrs = self.result(name, nranks)
                where = "for the %s run at %d rank(s)" % (name, nranks)
                ci.assert_same_datasets(self, {k: v for k, v in datasets.items() if not k.startswith("/run/")},
                                        ref, msg=where)
                self.assertEqual({k: v for k, v in attrs.items() if not k.startswith("/run")},
                                 {k: v for k, v in ref_attrs.items() if not k.startswith("/run")}, where)


if __name__ == "__main__":
    ci.main()
