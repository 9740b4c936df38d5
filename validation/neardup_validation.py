#!/usr/bin/python3
"""crd neardup's recall, precision, speed and memory on real hosts with injected near-copies.

    scripts/fetch_corpus.sh .cache/corpus          (Debian documentation HTML: one host per package)
    /usr/bin/python3 validation/neardup_validation.py --crd build/crd --corpus .cache/corpus \\
        [--config configs/neardup-high-recall.ini] [--copies 400] [--ranks 1 2] [--memory 1G]

Hosts: each package directory under --corpus is a host (crd reads a directory's first component as
the host). Copies: --copies pages drawn at random (seeded) from the hosts, each copied under
copies.example with words of its text replaced by new words until the 5-word Jaccard similarity of
its text with the original's reaches a target drawn uniformly from [0.5, 0.99]; the Jaccard is then
measured exactly and recorded (the known Jaccard). Text: the page's visible text (html.parser; no
script or style), one line per block-level element, words = maximal alphanumeric runs,
lower-cased, digits as 0.

Recall: of the copies at known Jaccard ≥ 0.8, those found with their original — in one pair of
/neardup/pairs, or in one cluster of /neardup/clusters. The measured curve: the share found per
Jaccard band. Precision (the main-content rule): lines found on ≥ 50 pages of the same host are
boilerplate; a reported pair outside the injected copies is a true near-duplicate if what remains of
the two pages has 5-word Jaccard ≥ 0.8. Speed: MB of HTML (originals and copies) per CPU second
(user + sys of every rank, crd's own parsing included). Memory: the busiest rank's peak RSS
(/run/resources memory.peak_rss_max) against --memory. Prints Markdown tables.
"""
from __future__ import annotations

import argparse
import html.parser
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
import time
from collections import Counter, defaultdict

import h5py

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.join(HERE, "..")
BLOCK = {"address", "article", "aside", "blockquote", "body", "br", "caption", "dd", "div", "dl", "dt",
         "fieldset", "figure", "footer", "form", "h1", "h2", "h3", "h4", "h5", "h6", "header", "hr", "li",
         "main", "nav", "ol", "p", "pre", "section", "table", "td", "th", "title", "tr", "ul"}
WORD = re.compile(r"[A-Za-z0-9\x80-\uffff]+")
COPY_HOST = "copies.example"


class Text(html.parser.HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.lines, self.cur, self.skip = [], [], 0

    def handle_starttag(self, tag, attrs):
        if tag in ("script", "style"):
            self.skip += 1
        elif tag in BLOCK:
            self.flush()

    def handle_endtag(self, tag):
        if tag in ("script", "style"):
            self.skip = max(0, self.skip - 1)
        elif tag in BLOCK:
            self.flush()

    def handle_data(self, data):
        if not self.skip:
            self.cur.append(data)

    def flush(self):
        words = normalized_words(" ".join(self.cur))
        if words:
            self.lines.append(" ".join(words))
        self.cur = []


def normalized_words(text):
    return [re.sub(r"[0-9]+", "0", w.lower()) for w in WORD.findall(text)]


def page_lines(html_text):
    p = Text()
    p.feed(html_text)
    p.close()
    p.flush()
    return p.lines


def shingles(words, k=5):
    if len(words) < k:
        return {tuple(words)} if words else set()
    return {tuple(words[i:i + k]) for i in range(len(words) - k + 1)}


def jaccard(a, b):
    if not a and not b:
        return 0.0
    return len(a & b) / len(a | b)


def read_pages(corpus):
    """{key: text} for every HTML and plain-text file, keyed as crd keys a directory's files."""
    pages = {}
    for host in sorted(os.listdir(corpus)):
        top = os.path.join(corpus, host)
        if not os.path.isdir(top) or host.startswith("."):
            continue
        for d, _, names in os.walk(top):
            for n in sorted(names):
                if n.endswith((".html", ".htm", ".xhtml", ".txt")):  # the text pages crd sketches
                    p = os.path.join(d, n)
                    with open(p, encoding="utf-8", errors="replace") as f:
                        pages[os.path.relpath(p, corpus)] = f.read()
    return pages


def mutate(html_text, target, rng):
    """Replaces words of the page's text (never markup) with new words until the 5-word Jaccard of
    the texts reaches about `target`; returns (html, measured Jaccard)."""
    spans = []  # (start, end) of words in text segments outside script/style
    for m in re.finditer(r">([^<>]+)<", html_text):
        before = html_text[max(0, m.start() - 8):m.start()].lower()
        if "script" in before or "style" in before:
            continue
        for w in WORD.finditer(m.group(1)):
            spans.append((m.start(1) + w.start(), m.start(1) + w.end()))
    orig = shingles(" ".join(page_lines(html_text)).split())
    n = max(1, len(orig))
    k = max(1, min(len(spans), round(n * (1 - target) / (5 * (1 + target)))))
    chosen = sorted(rng.sample(range(len(spans)), k)) if spans else []
    out, at = [], 0
    for i in chosen:
        s, e = spans[i]
        out.append(html_text[at:s] + "zq%dx%d" % (rng.randrange(10 ** 9), i))
        at = e
    new = "".join(out) + html_text[at:]
    return new, jaccard(orig, shingles(" ".join(page_lines(new)).split()))


def run_crd(crd, inputs, out, nranks, config, memory):
    cmd = [os.path.join(ROOT, "scripts", "mpirun.sh"), "-np", str(nranks), crd, "neardup"] + inputs + [
        "--config", config, "--progress-interval", "0", "-o", out]
    if memory:
        cmd += ["--memory", memory]
    for path in inputs:  # warm: the kernel evicts pages idle for ~30 s
        subprocess.run(["tar", "cf", "/dev/null", path], check=False, stderr=subprocess.DEVNULL)
    before = os.times()
    start = time.time()
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
    after = os.times()
    cpu = (after.children_user - before.children_user) + (after.children_system - before.children_system)
    return cpu, time.time() - start


def read_result(out):
    text = lambda col: [bytes(x).decode("utf-8", "replace") for x in col]
    with h5py.File(out, "r") as f:
        nd = f["neardup"]
        pairs = list(zip(text(nd["pairs/page_a"]), text(nd["pairs/page_b"])))
        clusters = dict(zip(text(nd["clusters/page"]), text(nd["clusters/cluster"])))
        res = f["run/resources"]
        names = text(res["name"])
        rss = int(res["value"][names.index("memory.peak_rss_max")])
    return pairs, clusters, rss


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--crd", required=True)
    ap.add_argument("--corpus", required=True)
    ap.add_argument("--config", default=os.path.join(ROOT, "configs", "neardup-high-recall.ini"))
    ap.add_argument("--copies", type=int, default=400)
    ap.add_argument("--ranks", type=int, nargs="+", default=[1, 2])
    ap.add_argument("--memory", default="1G")
    ap.add_argument("--seed", type=int, default=45)
    ap.add_argument("--keep", help="write the copies here (default: a temporary directory)")
    args = ap.parse_args()
    crd = os.path.abspath(args.crd)
    rng = random.Random(args.seed)

    pages = read_pages(args.corpus)
    keys = sorted(pages)
    work = args.keep or tempfile.mkdtemp(prefix="crd-neardup-validation.")
    copies_dir = os.path.join(work, "copies")
    shutil.rmtree(copies_dir, ignore_errors=True)
    injected = {}  # copy key → (original key, measured Jaccard)
    html_keys = [k for k in keys if k.endswith(".html")]
    for n, orig in enumerate(rng.sample(html_keys, min(args.copies, len(html_keys)))):
        new, j = mutate(pages[orig], rng.uniform(0.5, 0.99), rng)
        key = "%s/%d/%s" % (COPY_HOST, n, orig)
        path = os.path.join(copies_dir, key)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w", encoding="utf-8") as f:
            f.write(new)
        injected[key] = (orig, j)
    html_bytes = sum(len(p.encode("utf-8")) for p in pages.values())
    html_bytes += sum(os.path.getsize(os.path.join(copies_dir, k)) for k in injected)

    # Main content: each host's lines on ≥ 50 of its pages are boilerplate.
    lines = {k: page_lines(v) for k, v in pages.items()}
    per_host = defaultdict(Counter)
    for k, ls in lines.items():
        per_host[k.split("/", 1)[0]].update(set(ls))
    main_shingles = {}
    for k, ls in lines.items():
        common = per_host[k.split("/", 1)[0]]
        main_shingles[k] = shingles(" ".join(l for l in ls if common[l] < 50).split())

    print("corpus: %d pages on %d hosts + %d copies, %.1f MB of HTML; config %s\n" % (
        len(pages), len(per_host), len(injected), html_bytes / 1e6, os.path.relpath(args.config, ROOT)))
    print("| ranks | copies at J ≥ 0.8 | found in a pair | found in a cluster | other pairs | true by the "
          "main-content rule | MB of HTML per CPU s | CPU s | peak RSS MB (busiest rank) | --memory |")
    print("|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|")
    bands = [(0.5, 0.6), (0.6, 0.7), (0.7, 0.75), (0.75, 0.8), (0.8, 0.85), (0.85, 0.9), (0.9, 0.95), (0.95, 1.0)]
    curve = None
    for nranks in args.ranks:
        out = os.path.join(work, "np%d.h5" % nranks)
        cpu, wall = run_crd(crd, [args.corpus, copies_dir], out, nranks, args.config, args.memory)
        pairs, clusters, rss = read_result(out)
        pair_set = set(pairs)
        found_pair = lambda c, o: (min(c, o), max(c, o)) in pair_set
        found_cluster = lambda c, o: c in clusters and clusters.get(o) == clusters[c]
        high = [(c, o) for c, (o, j) in injected.items() if j >= 0.8]
        fp = sum(1 for c, o in high if found_pair(c, o))
        fc = sum(1 for c, o in high if found_pair(c, o) or found_cluster(c, o))
        other = [(a, b) for a, b in pairs if not a.startswith(COPY_HOST) and not b.startswith(COPY_HOST)]
        true = sum(1 for a, b in other if jaccard(main_shingles.get(a, set()), main_shingles.get(b, set())) >= 0.8)
        print("| %d | %d | %d (%.1f%%) | %d (%.1f%%) | %d | %d (%.1f%%) | %.1f | %.1f | %d | %s |" % (
            nranks, len(high), fp, 100.0 * fp / max(1, len(high)), fc, 100.0 * fc / max(1, len(high)), len(other),
            true, 100.0 * true / max(1, len(other)), html_bytes / 1e6 / cpu, cpu, rss // 1000000, args.memory))
        if curve is None:
            curve = []
            for lo, hi in bands:
                inside = [(c, o) for c, (o, j) in injected.items() if lo <= j < hi]
                hit = sum(1 for c, o in inside if found_pair(c, o) or found_cluster(c, o))
                curve.append((lo, hi, len(inside), hit))
    print("\nMeasured: copies found with their original (pair or cluster), by known 5-word Jaccard:\n")
    print("| Jaccard | copies | found | share |")
    print("|---|---:|---:|---:|")
    for lo, hi, n, hit in curve:
        print("| [%.2f, %.2f) | %d | %d | %s |" % (lo, hi, n, hit, "%.3f" % (hit / n) if n else "—"))
    if not args.keep:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
