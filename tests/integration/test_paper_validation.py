# The paper's validation (§6.2–6.4) on real pages. A real site (50 sphinx-doc pages) is
# copied under D = 8 fake hosts, each copy of each page with its own leading and trailing paragraph
# (the "unique advertisements" of §6.2), next to unrelated real sites (debian-reference and the
# Python documentation, one host per top directory) that share no pages with it.
#
# Choices, and why:
# - --chunk-threshold D - 1 = 7: every chunk of the site occurs at least D times (once per clone),
#   so any threshold below D labels the whole site; D - 1 is the largest such value, and so labels
#   as little as possible of the unrelated sites' own template repetition.
# - --max-neighborhood-depth 0 (hosts): the automatic threshold mean + σ assumes bad neighborhoods
#   are a minority, as in Common Crawl. With unlimited depth the clones' sub-directories (8 copies
#   of every directory of the site) are most of the neighborhoods, mean + σ rises above all of them
#   and nothing is flagged (test_unlimited_depth_reports_the_majority_effect shows it). Hosts are
#   the unit of copying here, so scoring hosts is what a user would do.
# - Unrelated sites do repeat their own templates (navigation, footer) more than 7 times, so blind
#   discovery labels those chunks too and their pages get a partial containment (≈ 0.2–0.6); the
#   test requires that no unrelated host and no unrelated page is flagged, not that they score 0.
import os
import re
import unittest

import crd_integ as ci
import reference_chunker as ref
import site_copies

D = 8
SITE_PAGES = 50
MARK = re.compile(rb"unique (lead|tail) of clone\d+ for ")


def html_files(root):
    found = []
    for dirpath, dirnames, names in os.walk(root):
        dirnames.sort()
        found += [os.path.join(dirpath, n) for n in names if n.endswith(".html")]
    return sorted(found)


def clone_page(body, i, rel):
    return site_copies.advertised_copy(body, "clone%d" % i, rel)


class PaperValidation(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        site = ci.sphinx_html()
        python = os.path.join(ci.corpus_package("python3.11-doc"), "usr", "share", "doc", "python3.11", "html")
        debref = ci.corpus_package("debian-reference-en")
        if not os.path.isdir(site) or not os.path.isdir(python):
            ci.skip("sphinx-doc or python3.11-doc HTML absent")
        cls.tmp = ci.TempDir("paper")
        corpus, original = cls.tmp("corpus"), cls.tmp("original")
        cls.site_pages = [os.path.relpath(p, site) for p in html_files(site)[:SITE_PAGES]]
        cls.original_chunks = set()
        cls.clone_chunks = {}  # key: the clone page's chunks (reference chunker)
        for rel in cls.site_pages:
            with open(os.path.join(site, rel), "rb") as f:
                body = f.read()
            cls.write(os.path.join(original, "original.example", rel), body)
            cls.original_chunks.update(ref.sha1(c) for c in ref.chunks(body))
            for i in range(D):
                key = "clone%d.example/%s" % (i, rel)
                page = clone_page(body, i, rel)
                cls.write(os.path.join(corpus, key), page)
                cls.clone_chunks[key] = ref.chunks(page)
        cls.unrelated_hosts = {"debref.example"}
        cls.link_tree(debref, os.path.join(corpus, "debref.example"))
        for d in sorted(os.listdir(python)):
            if os.path.isdir(os.path.join(python, d)) and not d.startswith("_"):
                host = "py-%s.example" % d
                if cls.link_tree(os.path.join(python, d), os.path.join(corpus, host)):
                    cls.unrelated_hosts.add(host)
        cls.clone_hosts = {"clone%d.example" % i for i in range(D)}

        cls.blind = cls.tmp("blind.h5")
        ci.run_crd(ci.quiet(["run", corpus, "-o", cls.blind, "--chunk-threshold", str(D - 1),
                             "--file-threshold", str(D - 1), "--max-neighborhood-depth", "0"]), nranks=2)
        cls.labels = cls.tmp("L.h5")
        ci.run_crd(ci.quiet(["label", original, "-o", cls.labels]), nranks=2)
        cls.expert = cls.tmp("expert.h5")
        ci.run_crd(ci.quiet(["detect", corpus, "--labels", cls.labels, "-o", cls.expert,
                             "--max-neighborhood-depth", "0"]), nranks=2)
        cls.blind_deep = cls.tmp("blind-deep.h5")
        ci.run_crd(ci.quiet(["run", corpus, "-o", cls.blind_deep, "--chunk-threshold", str(D - 1),
                             "--file-threshold", str(D - 1)]), nranks=2)

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    @staticmethod
    def write(path, body):
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "wb") as f:
            f.write(body)

    @staticmethod
    def link_tree(src, dst):
        n = 0
        for p in html_files(src):
            target = os.path.join(dst, os.path.relpath(p, src))
            os.makedirs(os.path.dirname(target), exist_ok=True)
            os.symlink(p, target)
            n += 1
        return n

    def results(self, path):
        r = ci.open_results(path)
        n, p = r.neighborhoods, r.pages
        hoods = {h: (float(b), bool(fl)) for h, b, fl in zip(n["prefix"], n["badness"], n["flagged"])}
        pages = {u: (int(l), int(c), bool(fl)) for u, l, c, fl in zip(p["url"], p["labeled"], p["chunks"], p["flagged"])}
        return hoods, pages, r.detection_attrs

    def check_hosts(self, path):
        hoods, pages, attrs = self.results(path)
        self.assertEqual(set(hoods), self.clone_hosts | self.unrelated_hosts, "depth 0: hosts only")
        flagged = {h for h, (_, fl) in hoods.items() if fl}
        report = {h: round(b, 3) for h, (b, _) in sorted(hoods.items())}
        self.assertEqual(flagged, self.clone_hosts, "flagged hosts; badness %s, threshold %.3f" %
                         (report, attrs["neighborhood_threshold"]))
        flagged_pages = {u for u, (_, _, fl) in pages.items() if fl}
        self.assertTrue(flagged_pages, "some clone pages must be flagged")
        self.assertEqual({u.split("/")[0] for u in flagged_pages} - self.clone_hosts, set(), "no unrelated page")
        # Every clone is treated alike: the same pages of the site are flagged in each.
        per_clone = {frozenset(u.split("/", 1)[1] for u in flagged_pages if u.startswith(h + "/"))
                     for h in self.clone_hosts}
        self.assertEqual(len(per_clone), 1)
        # Pages with few chunks have containment n/(n+2) below mean + σ; most pages are longer.
        self.assertGreaterEqual(len(next(iter(per_clone))), SITE_PAGES // 2, "most clone pages flagged")
        print("%s: threshold %.3f, %d/%d pages of each clone flagged; host badness %s" %
              (os.path.basename(path), attrs["neighborhood_threshold"], len(next(iter(per_clone))), SITE_PAGES, report))
        return pages

    def test_blind_flags_every_clone_host_and_no_unrelated_host(self):
        pages = self.check_hosts(self.blind)
        # Page by page: every chunk of a clone page except those holding its unique paragraphs
        # occurs once per clone (≥ D times) and so is labeled; the unique ones occur once.
        for key, chunks in self.clone_chunks.items():
            unique = sum(1 for c in chunks if MARK.search(c))
            self.assertIn(unique, (1, 2), key)
            self.assertEqual(pages[key][:2], (len(chunks) - unique, len(chunks)), key)

    def test_blind_labels_the_site_not_the_unique_paragraphs(self):
        chunks = ci.open_results(self.blind).table(ci.results.CHUNKS, decode=False)
        samples = chunks["sample"].tolist()
        labeled = set(bytes.fromhex(h) for h in chunks["hash"])
        self.assertFalse([s for s in samples if b"unique lead" in s or b"unique tail" in s])
        site = set(ref.sha1(c) for chunks in self.clone_chunks.values() for c in chunks if not MARK.search(c))
        self.assertEqual(site - labeled, set(), "every repeated chunk of the site is discovered")

    def test_expert_flags_every_clone_host_and_no_unrelated_host(self):
        pages = self.check_hosts(self.expert)
        for key, chunks in self.clone_chunks.items():
            expected = sum(1 for c in chunks if ref.sha1(c) in self.original_chunks)
            self.assertEqual(pages[key][:2], (expected, len(chunks)), key)
            self.assertGreaterEqual(expected, len(chunks) - 4, key)  # at most the chunks cut by the inserts

    def test_unlimited_depth_reports_the_majority_effect(self):
        # Documents the choice of depth 0 above: with every prefix scored, the clone prefixes are
        # the majority and mean + σ exceeds the clone hosts' badness, so nothing is flagged at the
        # host level — a property of the automatic threshold, not a crd bug. A fixed threshold
        # between the unrelated hosts' badness and the clones' (as the paper's §6.4 uses) works.
        hoods, _, attrs = self.results(self.blind_deep)
        clone_badness = [hoods[h][0] for h in self.clone_hosts]
        unrelated = [hoods[h][0] for h in self.unrelated_hosts]
        print("unlimited depth: %d neighborhoods, threshold %.3f, clone hosts %.3f, unrelated hosts max %.3f" %
              (len(hoods), attrs["neighborhood_threshold"], min(clone_badness), max(unrelated)))
        self.assertGreater(min(clone_badness), max(unrelated))
        if attrs["neighborhood_threshold"] >= min(clone_badness):
            self.assertFalse(any(hoods[h][1] for h in self.clone_hosts))
        fixed = (min(clone_badness) + max(unrelated)) / 2
        out = self.tmp("blind-fixed.h5")
        ci.run_crd(ci.quiet(["run", self.tmp("corpus"), "-o", out, "--chunk-threshold", str(D - 1),
                             "--file-threshold", str(D - 1), "--neighborhood-threshold", "%.6f" % fixed]), nranks=2)
        hoods, _, _ = self.results(out)
        flagged_hosts = {h for h, (_, fl) in hoods.items() if fl and "/" not in h}
        self.assertEqual(flagged_hosts, self.clone_hosts)


if __name__ == "__main__":
    ci.main()
