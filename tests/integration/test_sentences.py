# Sentences (Campbell, Chen & Smith 2000): --chunker sentence in every corpus command, and crd compare on the
# paper's examples in kind — a document inside a 100x larger one gives <0.99, 0.01>, successive
# revisions of a real page give a falling overlap — with real documentation text, labels, and the
# pages the sentence chunker skips.
import html
import json
import os
import re
import shutil
import unittest

import crd_integ as ci
import archives  # noqa: E402  (tests/support, on the path crd_integ sets)

PAIR_LINE = re.compile(r"^\[(\d+)\] ~ \[(\d+)\]: (\d+) matching sentences, similarity <([0-9.]+), ([0-9.]+)>$")


def compare(args):
    return json.loads(ci.run_crd(["compare", "--json"] + args, timeout=300).stdout)


def page_of(sentences):
    return "<html><body>" + "".join("<p>%s</p>\n" % html.escape(s, quote=False) for s in sentences) + "</body></html>"


def write(path, text, mode="w"):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, mode) as f:
        f.write(text)


class Sentences(unittest.TestCase):
    maxDiff = None

    @classmethod
    def setUpClass(cls):
        root = ci.corpus_dir()
        cls.python = os.path.join(root, "python3.11-doc", "usr", "share", "doc", "python3.11", "html")
        if not os.path.isdir(cls.python):
            ci.skip("no Python documentation in the corpus under " + root)
        cls.tmp = ci.TempDir("sentences")

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def sentences_of(self, page_path):
        """A real page's distinct sentences in order, as crd sees them (the page against a copy)."""
        copy = self.tmp("copies", os.path.basename(page_path))
        os.makedirs(os.path.dirname(copy), exist_ok=True)
        shutil.copyfile(page_path, copy)
        out = compare([page_path, copy, "--max-bucket", "2"])
        self.assertEqual(len(out["pairs"]), 1)
        return out, [s["text"] for s in out["pairs"][0]["sentences"]]

    def test_a_document_inside_a_100_times_larger_one(self):
        # Real sentences: those of the "What's New" pages, each re-read standalone so that every one
        # splits as one sentence on its own.
        whatsnew = os.path.join(self.python, "whatsnew")
        pool = []
        for name in sorted(os.listdir(whatsnew)):
            if name.endswith(".html") and name != "changelog.html":
                pool += self.sentences_of(os.path.join(whatsnew, name))[1]
        pool = list(dict.fromkeys(pool))
        write(self.tmp("pool.html"), page_of(pool))
        pool = list(dict.fromkeys(self.sentences_of(self.tmp("pool.html"))[1]))
        self.assertGreaterEqual(len(pool), 10000, "too few distinct sentences in the What's New pages")
        large = pool[:9900]
        # The small document: 99 sentences of the large one (from its middle) and one of its own.
        small = large[5000:5099] + ["This sentence was written for the small document alone."]
        write(self.tmp("big", "large.html"), page_of(large))
        write(self.tmp("big", "small.html"), page_of(small))
        out = compare([self.tmp("big", "small.html"), self.tmp("big", "large.html"), "-k", "20"])
        self.assertEqual([d["sentences"] for d in out["documents"]], [100, 9900])
        (pair,) = out["pairs"]
        self.assertEqual(pair["matching"], 99)
        self.assertEqual(pair["similarity"], [0.99, 0.01])
        # Where: all of the small one but its last sentence; 99 sentences in the large one's middle.
        self.assertEqual(pair["distribution_a"], [20, 20, 20, 20, 19])
        expected = [0] * 495
        for i in range(5000, 5099):
            expected[i // 20] += 1
        self.assertEqual(pair["distribution_b"], expected)
        self.assertEqual(pair["sentences"][0], {"position_a": 0, "position_b": 5000, "text": large[5000]})
        text = ci.run_crd(["compare", self.tmp("big", "small.html"), self.tmp("big", "large.html")]).stdout
        pairs = [PAIR_LINE.match(l).groups() for l in text.splitlines() if PAIR_LINE.match(l)]
        self.assertEqual(pairs, [("0", "1", "99", "0.990", "0.010")])

    def test_successive_revisions_of_a_real_page_overlap_less_and_less(self):
        original_path = os.path.join(self.python, "tutorial", "controlflow.html")
        with open(original_path, encoding="utf-8") as f:
            original = f.read()
        out, sentences = self.sentences_of(original_path)
        total = out["documents"][0]["sentences"]
        # Sentences that occur once, verbatim, in the markup, and once among the page's sentences.
        editable = [s for s in sentences if len(s) > 30 and original.count(s) == 1 and sentences.count(s) == 1
                    and not set(s) & set("<>&\"'")]
        step = 8
        self.assertGreaterEqual(len(editable), 4 * step)
        revisions = []
        for r in range(5):  # revision r has the first r * step editable sentences reworded
            text = original
            for s in editable[:r * step]:
                words = s.split(" ", 1)
                text = text.replace(s, words[0] + " (revised) " + words[1])
            path = self.tmp("revisions", "rev%d.html" % r)
            write(path, text)
            revisions.append(path)
        out = compare(revisions + ["--max-bucket", "5"])
        self.assertEqual([d["sentences"] for d in out["documents"]], [total] * 5)
        pairs = {(p["a"], p["b"]): p for p in out["pairs"]}
        self.assertEqual(len(pairs), 10)
        first_terms = [pairs[(0, r)]["similarity"][0] for r in range(1, 5)]
        self.assertEqual(first_terms, sorted(first_terms, reverse=True))
        self.assertEqual(len(set(first_terms)), 4, first_terms)
        for r in range(1, 5):
            # Against the original: exactly the reworded sentences are gone, at their positions.
            self.assertEqual(pairs[(0, r)]["matching"], len(set(sentences)) - r * step)
            self.assertAlmostEqual(pairs[(0, r)]["similarity"][0], (total - r * step) / total, places=12)
            # Successive drafts differ by one step of edits.
            if r < 4:
                self.assertEqual(pairs[(r, r + 1)]["matching"], len(set(sentences)) - step)

    def test_compare_against_labels_names_the_labeled_document_and_positions(self):
        tutorial = os.path.join(self.python, "tutorial")
        expert = self.tmp("expert", "docs.python.org")
        os.makedirs(expert)
        for name in ("controlflow.html", "datastructures.html"):
            shutil.copyfile(os.path.join(tutorial, name), os.path.join(expert, name))
        labels = self.tmp("L.h5")
        ci.run_crd(ci.quiet(["label", self.tmp("expert"), "--chunker", "sentence", "-o", labels]), timeout=300)
        # A page that quotes three sentences of controlflow.html among its own.
        _, sentences = self.sentences_of(os.path.join(tutorial, "controlflow.html"))
        quoted = [s for s in sentences if len(s) > 40][5:8]
        own = ["A sentence nobody else wrote, number %d." % i for i in range(7)]
        write(self.tmp("quoting", "page.html"), page_of(own[:3] + quoted + own[3:]))
        out = compare([self.tmp("quoting", "page.html"), "--labels", labels])
        (entry,) = out["labels"]
        self.assertEqual(entry["labeled"], 3)
        self.assertAlmostEqual(entry["containment"], 0.3, places=12)
        self.assertEqual(entry["labeled_documents"][0]["url"], "docs.python.org/controlflow.html")
        self.assertEqual(entry["labeled_documents"][0]["positions"], [3, 4, 5])
        self.assertEqual([(m["position"], m["text"], m["group"]) for m in entry["matches"]],
                         [(3 + i, quoted[i], "/labels") for i in range(3)])
        text = ci.run_crd(["compare", self.tmp("quoting", "page.html"), "--labels", labels]).stdout
        self.assertIn("[0] against the labels: 3 of 10 sentences labeled (0.300)", text)
        self.assertIn("from docs.python.org/controlflow.html: 3 sentences, overlap (k=5): 2 1", text)

    def test_every_corpus_command_chunks_sentences_alike(self):
        site = self.tmp("site")
        tutorial = os.path.join(self.python, "tutorial")
        names = sorted(n for n in os.listdir(tutorial) if n.endswith(".html"))[:8]
        os.makedirs(os.path.join(site, "host"))
        for n in names:
            shutil.copyfile(os.path.join(tutorial, n), os.path.join(site, "host", n))
        # Bad pages: Latin-1 bytes without a charset (those sentences go, the page stays), no text at
        # all, and a page over the size cap.
        write(os.path.join(site, "host", "latin1.html"), b"<p>Caf\xe9 ouvert. Ferm\xe9 lundi. Open on Sundays.</p>", "wb")
        write(os.path.join(site, "host", "empty.html"), "<html><script>var a = 'No. Text.';</script></html>")
        write(os.path.join(site, "host", "huge.html"), "<p>" + "Big sentence here. " * 70000)  # 1.3 MB
        sentence = ["--chunker", "sentence", "--max-record-bytes", "1M"]
        labels = self.tmp("site_labels.h5")
        ci.run_crd(ci.quiet(["label", os.path.join(site), "-o", labels] + sentence), timeout=300)
        results = {}
        for command, nranks in (("discover", 1), ("discover", 2), ("run", 1), ("detect", 1), ("detect", 3)):
            out = self.tmp("%s%d.h5" % (command, nranks))
            extra = ["--labels", labels, "--page-threshold", "0.5"] if command == "detect" else []
            ci.run_crd(ci.quiet([command, site, "-o", out] + sentence + extra), nranks=nranks, timeout=300)
            results[(command, nranks)] = out
        discovered = ci.open_results(results[("discover", 1)])
        counters = discovered.counters.to_dict()
        samples = set(discovered.table(ci.results.CHUNKS)["sample"])
        self.assertEqual(counters["skipped.sentence.invalid_utf8"], 2)  # sentences, not pages
        self.assertEqual(counters["skipped.sentence.none"], 1)
        self.assertEqual(counters["skipped.record_too_large"], 1)
        # Labeled items are whole sentences of the pages: navigation and phrasing every page repeats.
        self.assertLessEqual({"Previous topic", "Next topic", "For example:", "This Page Report a Bug Show Source"}, samples)
        for (command, nranks), other in ((("discover", 1), ("discover", 2)), (("detect", 1), ("detect", 3))):
            with self.subTest(command=command):
                ci.assert_same_datasets(self, ci.comparable(results[(command, nranks)])[0], ci.comparable(results[other])[0],
                                        "at np=%d" % other[1])
        # detect's sentence counts per page are crd compare's, and check scores pages as detect does.
        pages_table = ci.open_results(results[("detect", 1)]).table(ci.results.PAGES)
        chunks = dict(zip(pages_table["url"], pages_table["chunks"].tolist()))
        labeled = dict(zip(pages_table["url"], pages_table["labeled"].tolist()))
        pages = [os.path.join(site, "host", n) for n in names]
        out = compare(pages + ["--max-bucket", "1"])
        docs = out["documents"]
        # Every sentence two pages share is over the cap of one document: no pairs, each counted.
        self.assertEqual(out["pairs"], [])
        self.assertGreater(out["counters"]["compare.capped_sentences"], 10)
        self.assertEqual({d["name"]: d["sentences"] for d in docs}, {p: chunks["host/" + os.path.basename(p)] for p in pages})
        self.assertGreater(sum(labeled.values()), 0)
        check = ci.run_crd(["check", "--labels", labels, "--chunker", "sentence", pages[0]]).stdout
        self.assertIn("%s: %d/%d labeled chunks" % (pages[0], labeled["host/" + names[0]], chunks["host/" + names[0]]), check)

    def test_detect_pairs_names_the_labeled_documents_a_page_overlaps_most(self):
        tutorial = os.path.join(self.python, "tutorial")
        expert = self.tmp("pairs_expert", "docs")
        os.makedirs(expert)
        names = ("controlflow.html", "datastructures.html", "classes.html")
        for name in names:
            shutil.copyfile(os.path.join(tutorial, name), os.path.join(expert, name))
        labels = self.tmp("pairs_L.h5")
        ci.run_crd(ci.quiet(["label", self.tmp("pairs_expert"), "--chunker", "sentence", "-o", labels]), timeout=300)
        # Sentences only one expert page holds.
        own = {n: self.sentences_of(os.path.join(tutorial, n))[1] for n in names}
        unique = {n: [s for s in own[n] if 30 < len(s) < 200 and all(s not in own[m] for m in names if m != n)]
                  for n in names}
        site = self.tmp("pairs_site", "copier")
        # p1: 30 sentences of controlflow, 10 of datastructures, 10 of its own; p2: 20 of classes and
        # 20 of its own; p3: nothing labeled.
        mine = ["Sentence %d was written by the copier alone." % i for i in range(40)]
        write(os.path.join(site, "p1.html"), page_of(unique["controlflow.html"][:30] + unique["datastructures.html"][:10] + mine[:10]))
        write(os.path.join(site, "p2.html"), page_of(unique["classes.html"][:20] + mine[10:30]))
        write(os.path.join(site, "p3.html"), page_of(mine[30:40]))
        docs = ci.open_results(labels).table("/labels_documents")
        doc_chunks = dict(zip(docs["url"], docs["chunks"].tolist()))
        # A quoted sentence may occur more than once in its page (a section title is also in the
        # page's table of contents): the document's side counts each of its positions, which is
        # the label's count in the expert corpus, as the sentence is in no other expert page.
        label_rows = ci.open_results(labels).table("/labels")
        occurrences = dict(zip(label_rows["sample"], label_rows["count"].tolist()))

        def held(name, quoted):
            return sum(occurrences[s] for s in quoted) / doc_chunks["docs/" + name]

        self.assertEqual(sorted(doc_chunks), ["docs/" + n for n in sorted(names)])
        tables = []
        for nranks in (1, 2, 3):
            out = self.tmp("pairs%d.h5" % nranks)
            ci.run_crd(ci.quiet(["detect", self.tmp("pairs_site"), "--chunker", "sentence", "--labels", labels,
                                 "--page-threshold", "0.3", "--pairs", "2", "-o", out]), nranks=nranks, timeout=300)
            import h5py
            with h5py.File(out, "r") as f:
                g = f["detection/pairs"]
                tables.append([(bytes(p).decode(), bytes(d).decode(), int(m), float(a), float(b)) for p, d, m, a, b in
                               zip(g["page"][()], g["document"][()], g["matching"][()], g["first"][()], g["second"][()])])
        self.assertEqual(tables[1], tables[0], "at np=2")
        self.assertEqual(tables[2], tables[0], "at np=3")
        self.assertEqual(tables[0], [
            ("copier/p1.html", "docs/controlflow.html", 30, 0.6, held("controlflow.html", unique["controlflow.html"][:30])),
            ("copier/p1.html", "docs/datastructures.html", 10, 0.2,
             held("datastructures.html", unique["datastructures.html"][:10])),
            ("copier/p2.html", "docs/classes.html", 20, 0.5, held("classes.html", unique["classes.html"][:20])),
        ])
        # crd inspect lists them, closest (first similarity) first.
        shown = ci.run_crd(["inspect", self.tmp("pairs1.h5"), "--top", "2"]).stdout
        self.assertIn("similarity pairs (flagged page, labeled document): 3\n", shown)
        rows = re.findall(r"^  ([0-9.]+) ([0-9.]+) +([0-9]+) shared  (\S+)  (\S+)$", shown, re.M)
        self.assertEqual(rows, [("0.600", "%.3f" % tables[0][0][4], "30", "copier/p1.html", "docs/controlflow.html"),
                                ("0.500", "%.3f" % tables[0][2][4], "20", "copier/p2.html", "docs/classes.html")])
        # A labels file without labeled documents (a discover result) cannot give pairs.
        disc = self.tmp("pairs_discovery.h5")
        ci.run_crd(ci.quiet(["discover", self.tmp("pairs_expert"), "--chunker", "sentence", "-o", disc]), timeout=300)
        proc = ci.run_crd(ci.quiet(["detect", self.tmp("pairs_site"), "--chunker", "sentence", "--labels", disc, "--pairs", "2",
                                    "-o", self.tmp("nopairs.h5")]), check=False, timeout=300)
        self.assertEqual(proc.returncode, 2, proc.stderr)
        self.assertIn("has no /labels_documents (labeled documents are written by crd label)", proc.stderr)
        self.assertFalse(os.path.exists(self.tmp("nopairs.h5")))

    def test_compare_reads_each_warc_record_as_a_document(self):
        latin1 = b"Content-Type: text/html; charset=iso-8859-1\r\n"
        records = [archives.warc_response(b"http://a.example/x", b"<p>Shared sentence here. Only in x.</p>"),
                   archives.warc_response(b"http://b.example/y", b"<p>Only in y. Shared sentence here.</p>"),
                   archives.warc_response(b"http://c.example/z", b"<p>Caf\xe9 only in z. Shared sentence here.</p>",
                                          headers=latin1)]
        path = self.tmp("records.warc")
        write(path, b"".join(records), "wb")
        out = compare([path])
        self.assertEqual([(d["name"], d["sentences"]) for d in out["documents"]],
                         [("http://a.example/x", 2), ("http://b.example/y", 2), ("http://c.example/z", 2)])
        self.assertEqual([(p["a"], p["b"], p["similarity"], p["sentences"][0]["position_a"], p["sentences"][0]["position_b"])
                          for p in out["pairs"]], [(0, 1, [0.5, 0.5], 0, 1), (0, 2, [0.5, 0.5], 0, 1), (1, 2, [0.5, 0.5], 1, 1)])

    def test_check_scores_a_page_without_its_undecodable_sentence(self):
        """One Latin-1 byte in an undeclared page costs its sentence only: crd check
        still scores the page, on the sentences left, and says how many it left out."""
        d = self.tmp("check")
        write(os.path.join(d, "site", "a.html"), "<p>First labeled sentence. Second labeled sentence. Third one.</p>")
        labels = self.tmp("check-labels.h5")
        ci.run_crd(ci.quiet(["label", os.path.join(d, "site"), "-o", labels, "--chunker", "sentence"]), timeout=120)
        page = os.path.join(d, "page.html")
        write(page, b"<p>First labeled sentence. Caf\xe9 ouvert. Third one.</p>", "wb")
        out = ci.run_crd(["check", page, "--labels", labels, "--chunker", "sentence", "--page-threshold", "0.5"]).stdout
        self.assertIn(page + ": 2/2 labeled chunks (1 left out: sentence.invalid_utf8), containment 1.0000  FLAGGED", out)

    def test_compare_skips_and_counts_bad_documents(self):
        d = self.tmp("bad")
        write(os.path.join(d, "a.html"), "<p>One real sentence. And another one.</p>")
        write(os.path.join(d, "b.html"), "<p>And another one. Something else.</p>")
        write(os.path.join(d, "latin1.html"), b"<p>Caf\xe9. Ferm\xe9.</p>", "wb")
        write(os.path.join(d, "none.html"), "<html><style>p { }</style></html>")
        write(os.path.join(d, "huge.html"), "<p>" + "x. " * 50000)
        out = compare([d, "--max-record-bytes", "64K"])
        self.assertEqual([doc["name"] for doc in out["documents"]], ["a.html", "b.html"])
        self.assertEqual({k: v for k, v in out["counters"].items() if k.startswith("skipped.")},
                         {"skipped.sentence.invalid_utf8": 2, "skipped.sentence.none": 2,
                          "skipped.record_too_large": 1})
        self.assertEqual([(p["a"], p["b"], p["matching"], p["similarity"]) for p in out["pairs"]], [(0, 1, 1, [0.5, 0.5])])
        text = ci.run_crd(["compare", d, "--max-record-bytes", "64K"]).stdout
        self.assertIn("2 documents, 1 of 1 pairs share a sentence, 5 skipped: record_too_large=1 sentence.invalid_utf8=2 "
                      "sentence.none=2", text)


if __name__ == "__main__":
    ci.main()
