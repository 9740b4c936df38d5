# crd discover's /discovery tables equal an independent Python count (reference_chunker.py)
# over a directory corpus: the sphinx-doc HTML and images plus hand-made pages that hit the
# contract's corner cases (comments, raw text, case, a final "<p", whitespace kinds, repeats).
import os
import unittest

import crd_integ as ci
import reference_chunker as ref

CHUNK_THRESHOLD = 3
FILE_THRESHOLD = 1
MIN_CHUNK_LENGTH = 12

# Hand-made pages; REPEATED is stored several times so its chunks pass the threshold and its
# file is counted more than once (and one copy is stop-listed by its file hash).
REPEATED = (b"<!DOCTYPE html><HTML><head><title>t</title></head>\n"
            b"<P class=x>Shared   paragraph\tnumber one</P>\r\n"
            b"<div>Shared division with <!-- <p> hidden --> a comment</div>"
            b"<script>var s = '<p>not a boundary</p>'; // </scripty> </script ><p>after script</p>"
            b"<style>p{}</style><p>short</p>"
            b"<pre>keeps\x0bvertical tab \xc2\xa0 nbsp</pre><p/>x<p")
EDGE_PAGES = {
    "edge/comments.html": b"a<!-- <p> --><p>b<!--><p>c<!---><p>d <!-- open <div> never closed",
    "edge/rawtext.html": b"<scripts>x<p>y</scripts><SCRIPT>z<p></SCRIPT\n><p>w<style><div></stylex>",
    "edge/tags.html": b"<pre><param><div2><p-x></p>< p><DIV\n>one<Div/>two<p\t>three" + b" " * 40 + b"<p",
    "edge/empty.html": b"",
    "edge/space.html": b" \t\r\n\f ",
    "edge/long.html": b"<p>" + b"0123456789 " * 60 + b"</p>",
}


def build_corpus(root, sphinx_html):
    os.makedirs(root)
    for dirpath, _, names in os.walk(sphinx_html):
        for name in names:
            if not name.endswith((".html", ".png")):
                continue
            src = os.path.join(dirpath, name)
            dst = os.path.join(root, "sphinx", os.path.relpath(src, sphinx_html))
            os.makedirs(os.path.dirname(dst), exist_ok=True)
            os.symlink(src, dst)
    for i in range(5):
        path = os.path.join(root, "hand.example", "copy%d" % i, "page.html")
        os.makedirs(os.path.dirname(path))
        with open(path, "wb") as f:
            f.write(REPEATED)
    # Edge pages under four hosts, so their chunks occur 4 times (> CHUNK_THRESHOLD).
    for host in ("hand.example", "other.example", "third.example", "fourth.example"):
        for rel, body in EDGE_PAGES.items():
            path = os.path.join(root, host, rel)
            os.makedirs(os.path.dirname(path), exist_ok=True)
            with open(path, "wb") as f:
                f.write(body)


class ReferenceCounts(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        sphinx = ci.sphinx_html()
        if not os.path.isdir(sphinx):
            ci.skip("sphinx-doc HTML absent at " + sphinx)
        cls.tmp = ci.TempDir("refcount")
        cls.corpus = cls.tmp("corpus")
        build_corpus(cls.corpus, sphinx)
        cls.chunks, cls.files = ref.tally_corpus(cls.corpus)

        # Stop list: one literal chunk (written with odd whitespace: crd must normalize it), one
        # file hash (a copy of REPEATED), and a comment line.
        literal = b"<p>after   script</p>"
        cls.stop_lines = [b"# stop list", literal, ref.sha1(REPEATED).hex().encode()]
        cls.stop = frozenset(ref.stop_digest(l) for l in cls.stop_lines[1:])
        with open(cls.tmp("stop.txt"), "wb") as f:
            f.write(b"\n".join(cls.stop_lines) + b"\n")

        cls.out = cls.tmp("discover.h5")
        ci.run_crd(ci.quiet(["discover", cls.corpus, "-o", cls.out,
                             "--chunk-threshold", str(CHUNK_THRESHOLD), "--file-threshold", str(FILE_THRESHOLD),
                             "--min-chunk-length", str(MIN_CHUNK_LENGTH), "--stop-chunks", cls.tmp("stop.txt")]),
                   nranks=2)
        cls.result = ci.open_results(cls.out)

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def test_reference_sanity(self):
        # The reference must itself see the contract's examples the documented way.
        self.assertEqual(ref.chunks(b"<html><p>Hello</p>\n<p>World</p>"), [b"<html>", b"<p>Hello</p>", b"<p>World</p>"])
        self.assertEqual(ref.chunks(b"a<!-- <p> --><p>b"), [b"a<!-- <p> -->", b"<p>b"])
        self.assertEqual(ref.chunks(b"<script>x='<p>'</script ><p>b"), [b"<script>x='<p>'</script >", b"<p>b"])
        self.assertEqual(ref.chunks(b"x<p"), [b"x", b"<p"])
        self.assertEqual(ref.chunks(b"<pre>a\t\t b</pre>"), [b"<pre>a b</pre>"])
        self.assertEqual(ref.chunks(b"a<!-->b<p>c"), [b"a<!-->b", b"<p>c"])
        self.assertEqual(ref.chunks(b"a<!--->b<p>c"), [b"a<!--->b", b"<p>c"])
        self.assertEqual(ref.chunks(b"<script>'</scripty><p>'</script><p>c"), [b"<script>'</scripty><p>'</script>", b"<p>c"])
        # The test corpus has enough in it to be meaningful.
        self.assertGreater(self.chunks.total, 5000)
        self.assertGreater(len([c for c in self.chunks.count.values() if c > CHUNK_THRESHOLD]), 50)

    def check_table(self, group, tally, threshold, min_length, with_sample):
        rows, stop_removed = tally.labeled(threshold, min_length, self.stop)
        t = self.result.table(group, decode=False)
        self.assertEqual(t["hash"].tolist(), [d.hex() for d in rows], group + "/hash (order: count desc, hash)")
        self.assertEqual(t["count"].tolist(), [tally.count[d] for d in rows], group + "/count")
        self.assertEqual(t["length"].tolist(), [tally.length[d] for d in rows], group + "/length")
        self.assertEqual(t["sample_url"].tolist(), [tally.first_key[d] for d in rows], group + "/sample_url")
        if with_sample:
            self.assertEqual(t["sample"].tolist(), [tally.sample[d] for d in rows], group + "/sample")
        a = self.result.group_attrs(group)
        self.assertEqual(a["threshold"], threshold)
        self.assertEqual(a["total"], tally.total, group + " total")
        self.assertEqual(a["distinct"], len(tally.count), group + " distinct")
        self.assertEqual(a["labeled"], len(rows), group + " labeled")
        self.assertEqual(a["stop_removed"], stop_removed, group + " stop_removed")
        return rows, stop_removed

    def test_chunks(self):
        rows, stop_removed = self.check_table(ci.results.CHUNKS, self.chunks, CHUNK_THRESHOLD, MIN_CHUNK_LENGTH, True)
        self.assertEqual(self.result.chunks_attrs["min_chunk_length"], MIN_CHUNK_LENGTH)
        self.assertGreater(stop_removed, 0, "short chunks and the literal stop chunk must be removed")
        self.assertNotIn(ref.stop_digest(b"<p>after script</p>").hex(), self.result.chunks["hash"].tolist())

    def test_files(self):
        rows, stop_removed = self.check_table(ci.results.FILES, self.files, FILE_THRESHOLD, 0, False)
        self.assertEqual(stop_removed, 1, "the stop-listed copy of REPEATED is the only stop file")
        self.assertGreater(len(rows), 0)

    def test_histograms(self):
        for group, tally in ((ci.results.CHUNK_HISTOGRAM, self.chunks), (ci.results.FILE_HISTOGRAM, self.files)):
            t = self.result.table(group)
            got = list(zip(t["occurrences"].tolist(), t["distinct"].tolist()))
            self.assertEqual(got, tally.histogram(), group)

    def test_counters(self):
        counters = self.result.counters.to_dict()
        n_html = sum(1 for k, _ in ref.walk_corpus(self.corpus) if k.endswith(b".html"))
        self.assertEqual(counters.get("documents"), len(ref.walk_corpus(self.corpus)))
        self.assertEqual(counters.get("documents.chunked"), n_html)
        self.assertEqual(counters.get("chunks"), self.chunks.total)


if __name__ == "__main__":
    ci.main()
