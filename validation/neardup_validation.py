#!/usr/bin/python3
"""crd neardup's recall, precision, speed and memory on real hosts with injected near-copies.

    /usr/bin/python3 validation/neardup_validation.py --crd build/crd \\
        --corpus /work/valdata/background /work/valdata/background2 --held-out /work/valdata/background \\
        --mirror-host postgresql-doc-15 --mirrors 20 --keep /tmp/ndv \\
        [--config configs/neardup-high-recall.ini …] [--ranks 1 2] [--memory 2G]

Hosts: each directory under a --corpus directory is a host (crd reads a directory's first component
as the host). Copies (near-copies with injected sentences at a known 5-word Jaccard):
- --mirror-host H --mirrors N: every HTML page of host H is copied to each of N mirror hosts
  (mirror01.example … mirrorNN.example, same paths), as a site mirrored N times with edits;
- --copies N: N pages drawn at random from all hosts, each under copies.example/N/.
Each copy gets new sentences (paragraphs of new words) after randomly chosen paragraphs until the
5-word Jaccard of its text with the original's text is about a target drawn uniformly from
[0.5, 0.99] (seeded); the Jaccard is then measured exactly and recorded (the known Jaccard). A page
without paragraphs has words of its text replaced instead.

Text, as the judge reads it: an HTML page's visible text (html.parser; no script or style), one line
per block-level element; any other text page crd sketches (a `.txt` file such as Sphinx's
`_sources/*.rst.txt`, a file whose first bytes are text) is read as text, one line per line of the
file — its markup is its text. Words = maximal alphanumeric runs, lower-cased, digits as 0.

Recall: of the copies at known Jaccard ≥ 0.8, those found with their original — in one pair of
/neardup/pairs, or in one cluster of /neardup/clusters. The measured curve: the share found per
Jaccard band. The known Jaccard is over the pages' whole text; recall is also reported for the
copies whose *main content* has Jaccard ≥ 0.8 with the original's, by the precision rule below (a
copy's boilerplate lines are its original host's: the copies repeat that host's template), which
is the issue's definition of a near-duplicate. Precision (the main-content rule): lines found on ≥ 50 pages of the same host are
boilerplate; a reported pair outside the injected copies is a true near-duplicate if what remains of
the two pages has 5-word Jaccard ≥ 0.8. It is reported for all hosts and, with --held-out, apart for
the hosts of the held-out corpus directories (options are fitted on the others). Speed: MB of input
(originals and copies) per CPU second (user + sys of every rank, crd's own parsing included). Memory:
the busiest rank's peak RSS (/run/resources memory.peak_rss_max) against --memory. The results
(pairs, clusters, representatives) of every rank count are asserted identical. Prints Markdown
tables; --keep DIR keeps the copies and the judge's line counts for the next run (reused when the
corpus and copy options are the same) and writes each run's false pairs to DIR/false-*.tsv.
"""
from __future__ import annotations

import argparse
import hashlib
import html.parser
import json
import os
import pickle
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
MIRROR_HOST = "mirror%02d.example"
BOILERPLATE_PAGES = 50  # the main-content rule: lines on this many pages of a host are boilerplate
TRUE_JACCARD = 0.8


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


def text_lines(text):
    return [" ".join(w) for w in (normalized_words(line) for line in text.splitlines()) if w]


def crd_kind(path):
    """'html', 'text' or None: which files crd sketches and how (src/io/document.cpp: the extension,
    else the first 1,024 bytes: markup → HTML, mostly printable UTF-8 → text)."""
    low = path.lower()
    if low.endswith((".html", ".htm", ".xhtml")):
        return "html"
    if low.endswith(".txt"):
        return "text"
    try:
        with open(path, "rb") as f:
            head = f.read(1024)
    except OSError:
        return None
    if head.startswith(b"\xef\xbb\xbf"):
        head = head[3:]
    t = head.lstrip(b" \t\r\n\f").lower()
    for o in (b"<!doctype html", b"<html", b"<head", b"<body", b"<p", b"<div", b"<!--"):
        if t.startswith(o) and (o == b"<!--" or len(t) == len(o) or t[len(o):len(o) + 1] in b"> \t\n\r/"):
            return "html"
    if not head or b"\0" in head:
        return None
    s = head.decode("utf-8", "replace")
    bad = sum(1 for c in s if c == "\ufffd" or (ord(c) < 0x20 and c not in "\t\n\r\f") or c == "\x7f")
    return "text" if bad * 20 <= len(head) else None


def read_lines(path, kind):
    with open(path, encoding="utf-8", errors="replace") as f:
        data = f.read()
    return page_lines(data) if kind == "html" else text_lines(data)


def shingles(words, k=5):
    if len(words) < k:
        return {tuple(words)} if words else set()
    return {tuple(words[i:i + k]) for i in range(len(words) - k + 1)}


def jaccard(a, b):
    if not a and not b:
        return 0.0
    return len(a & b) / len(a | b)


def line_hash(line):
    return hashlib.blake2b(line.encode("utf-8"), digest_size=8).digest()


def list_pages(corpora):
    """{key: (path, kind, corpus)} for every file crd sketches, keyed as crd keys a directory's files."""
    pages = {}
    for corpus in corpora:
        for host in sorted(os.listdir(corpus)):
            top = os.path.join(corpus, host)
            if not os.path.isdir(top) or host.startswith("."):
                continue
            for d, _, names in os.walk(top):
                for n in sorted(names):
                    p = os.path.join(d, n)
                    kind = crd_kind(p)
                    if kind:
                        pages[host + "/" + os.path.relpath(p, top)] = (p, kind, corpus)
    return pages


def host_line_counts(pages, cache):
    """{host: Counter(line hash → pages holding the line)}, the main-content rule's boilerplate."""
    if cache and os.path.exists(cache):
        with open(cache, "rb") as f:
            return pickle.load(f)
    per_host = defaultdict(Counter)
    for key, (path, kind, _) in pages.items():
        per_host[key.split("/", 1)[0]].update({line_hash(l) for l in read_lines(path, kind)})
    per_host = {h: Counter({k: v for k, v in c.items() if v >= BOILERPLATE_PAGES}) for h, c in per_host.items()}
    if cache:
        with open(cache, "wb") as f:
            pickle.dump(per_host, f)
    return per_host


def main_content(key, pages, per_host, cache={}):
    """The page's main-content shingles (hashed), the last few thousand pages cached: pairs come
    sorted by their first page."""
    if key in cache:
        return cache[key]
    if len(cache) > 5000:
        cache.clear()
    cache[key] = main_shingles(key, pages, per_host)
    return cache[key]


def main_shingles(key, pages, per_host):
    path, kind, _ = pages[key]
    common = per_host.get(key.split("/", 1)[0], {})
    lines = [l for l in read_lines(path, kind) if common.get(line_hash(l), 0) < BOILERPLATE_PAGES]
    return {hash(s) for s in shingles(" ".join(lines).split())}


def copy_main_jaccards(injected, copies_dir, pages, per_host, cache):
    """{copy key: 5-word Jaccard of the main content of the copy and of its original}, the copy's
    boilerplate lines being its original host's (cached in `cache` when given)."""
    if cache and os.path.exists(cache):
        with open(cache, "rb") as f:
            return pickle.load(f)
    out, originals = {}, {}
    for copy, (orig, _) in sorted(injected.items(), key=lambda x: x[1][0]):
        if orig not in originals:
            originals = {orig: main_shingles(orig, pages, per_host)}
        common = per_host.get(orig.split("/", 1)[0], {})
        lines = [l for l in read_lines(os.path.join(copies_dir, copy), "html")
                 if common.get(line_hash(l), 0) < BOILERPLATE_PAGES]
        out[copy] = jaccard({hash(s) for s in shingles(" ".join(lines).split())}, originals[orig])
    if cache:
        with open(cache, "wb") as f:
            pickle.dump(out, f)
    return out


def new_word(rng):
    """A word no page has: letters only, so that normalization (digits as 0) cannot make two alike."""
    return "zq" + "".join(rng.choice("abcdefghijklmnopqrstuvwxyz") for _ in range(8))


def inject(html_text, orig_words, target, rng):
    """New paragraphs of new words after randomly chosen `</p>` until the 5-word Jaccard of the texts
    is about `target`; (html, measured Jaccard). Without paragraphs, words of the text are replaced."""
    orig = shingles(orig_words)
    n = max(1, len(orig))
    ends = [m.end() for m in re.finditer(r"</p\s*>", html_text, re.I)]
    if ends:
        # s sentences of w new words add s(w + 4) shingles and break about 4s of the original's.
        w = 12
        s = max(1, round(n * (1 - target) / (4 + target * (w + 4))))
        out, at = [], 0
        for e in sorted(rng.choice(ends) for _ in range(s)):
            words = " ".join(new_word(rng) for _ in range(w))
            out.append(html_text[at:e] + "\n<p>%s.</p>" % words)
            at = e
        new = "".join(out) + html_text[at:]
    else:
        spans = []  # (start, end) of words in text segments outside script/style
        for m in re.finditer(r">([^<>]+)<", html_text):
            before = html_text[max(0, m.start() - 8):m.start()].lower()
            if "script" in before or "style" in before:
                continue
            for wm in WORD.finditer(m.group(1)):
                spans.append((m.start(1) + wm.start(), m.start(1) + wm.end()))
        k = max(1, min(len(spans), round(n * (1 - target) / (5 * (1 + target)))))
        out, at = [], 0
        for i in (sorted(rng.sample(range(len(spans)), k)) if spans else []):
            s0, e0 = spans[i]
            out.append(html_text[at:s0] + new_word(rng))
            at = e0
        new = "".join(out) + html_text[at:]
    return new, jaccard(orig, shingles(" ".join(page_lines(new)).split()))


def make_copies(pages, args, copies_dir):
    """{copy key: (original key, known Jaccard)}, written under copies_dir (reused if already there)."""
    manifest = os.path.join(copies_dir, "manifest.json")
    spec = {"corpus": args.corpus, "mirror_host": args.mirror_host, "mirrors": args.mirrors,
            "copies": args.copies, "seed": args.seed, "version": 3}
    if os.path.exists(manifest):
        with open(manifest, encoding="utf-8") as f:
            saved = json.load(f)
        if saved["spec"] == spec:
            return {k: tuple(v) for k, v in saved["injected"].items()}
    shutil.rmtree(copies_dir, ignore_errors=True)
    rng = random.Random(args.seed)
    html_keys = sorted(k for k, (_, kind, _) in pages.items() if kind == "html")
    plan = []  # (copy key, original key)
    if args.mirror_host:
        for k in html_keys:
            if k.split("/", 1)[0] == args.mirror_host:
                plan += [(MIRROR_HOST % (i + 1) + "/" + k.split("/", 1)[1], k) for i in range(args.mirrors)]
    for n, k in enumerate(rng.sample(html_keys, min(args.copies, len(html_keys)))):
        plan.append(("%s/%d/%s" % (COPY_HOST, n, k), k))
    injected, cache = {}, {}
    for copy, orig in plan:
        if orig not in cache:
            with open(pages[orig][0], encoding="utf-8", errors="replace") as f:
                text = f.read()
            cache = {orig: (text, " ".join(page_lines(text)).split())}
        text, words = cache[orig]
        new, j = inject(text, words, rng.uniform(0.5, 0.99), rng)
        path = os.path.join(copies_dir, copy)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w", encoding="utf-8") as f:
            f.write(new)
        injected[copy] = (orig, j)
    with open(manifest + ".tmp", "w", encoding="utf-8") as f:
        json.dump({"spec": spec, "injected": injected}, f)
    os.replace(manifest + ".tmp", manifest)
    return injected


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
        same = {name: nd[name][()].tobytes() for name in ("pairs/page_a", "pairs/page_b", "pairs/b_sim",
                                                         "pairs/c_sim", "clusters/page", "clusters/cluster",
                                                         "representatives/representative")}
        res = f["run/resources"]
        names = text(res["name"])
        rss = int(res["value"][names.index("memory.peak_rss_max")])
    return pairs, clusters, rss, same


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--crd", required=True)
    ap.add_argument("--corpus", required=True, nargs="+", help="directories whose subdirectories are hosts")
    ap.add_argument("--held-out", nargs="*", default=[], help="corpus directories not used to fit options")
    ap.add_argument("--config", nargs="+", default=[os.path.join(ROOT, "configs", "neardup-high-recall.ini")])
    ap.add_argument("--mirror-host", help="copy every HTML page of this host to --mirrors mirror hosts")
    ap.add_argument("--mirrors", type=int, default=20)
    ap.add_argument("--copies", type=int, default=0, help="pages drawn at random, copied under copies.example")
    ap.add_argument("--ranks", type=int, nargs="+", default=[1, 2])
    ap.add_argument("--memory", default="2G")
    ap.add_argument("--seed", type=int, default=45)
    ap.add_argument("--keep", help="keep the copies and the judge's counts here (default: a temporary directory)")
    args = ap.parse_args()
    crd = os.path.abspath(args.crd)
    args.corpus = [os.path.abspath(c) for c in args.corpus]
    held_out = {os.path.abspath(c) for c in args.held_out}

    pages = list_pages(args.corpus)
    work = args.keep or tempfile.mkdtemp(prefix="crd-neardup-validation.")
    os.makedirs(work, exist_ok=True)
    copies_dir = os.path.join(work, "copies")
    injected = make_copies(pages, args, copies_dir)
    in_bytes = sum(os.path.getsize(p) for p, _, _ in pages.values())
    in_bytes += sum(os.path.getsize(os.path.join(copies_dir, k)) for k in injected)
    cache = os.path.join(work, "judge-%s.pickle" % hashlib.sha1(json.dumps(args.corpus).encode()).hexdigest()[:12])
    per_host = host_line_counts(pages, cache if args.keep else None)
    with open(os.path.join(copies_dir, "manifest.json"), "rb") as f:  # the copies and the judge's counts
        copies_id = hashlib.sha1(f.read() + cache.encode()).hexdigest()[:12]
    main_j = copy_main_jaccards(injected, copies_dir, pages, per_host,
                                os.path.join(work, "copies-main-%s.pickle" % copies_id) if args.keep else None)
    part_of = lambda key: "held-out" if pages[key][2] in held_out else "fit"
    hosts = defaultdict(set)
    for k, (_, _, c) in pages.items():
        hosts[part_of(k)].add(k.split("/", 1)[0])

    print("corpus: %d pages on %d hosts (fit: %s; held out: %s) + %d copies, %.1f MB\n" % (
        len(pages), len(per_host), " ".join(sorted(hosts["fit"])), " ".join(sorted(hosts["held-out"])) or "none",
        len(injected), in_bytes / 1e6))
    bands = [(0.5, 0.6), (0.6, 0.7), (0.7, 0.75), (0.75, 0.8), (0.8, 0.85), (0.85, 0.9), (0.9, 0.95), (0.95, 1.0)]
    judged = {}  # (a, b) → main-content Jaccard
    failed = False
    for config in args.config:
        print("`%s`:\n" % os.path.relpath(config, ROOT))
        print("| ranks | copies at J ≥ 0.8 | found in a pair | found in a cluster | copies at main-content J ≥ 0.8 "
              "| found (pair or cluster) | other pairs | true by the "
              "main-content rule | fit hosts: true | held-out hosts: true | MB per CPU s | CPU s | "
              "peak RSS MB (busiest rank) | --memory |")
        print("|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|")
        curve, first = None, None
        for nranks in args.ranks:
            out = os.path.join(work, "np%d.h5" % nranks)
            cpu, wall = run_crd(crd, args.corpus + [copies_dir], out, nranks, config, args.memory)
            pairs, clusters, rss, same = read_result(out)
            if first is None:
                first = same
            elif same != first:
                print("ERROR: %d ranks' pairs or clusters differ from %d rank's" % (nranks, args.ranks[0]))
                failed = True
            pair_set = set(pairs)
            found_pair = lambda c, o: (min(c, o), max(c, o)) in pair_set
            found_cluster = lambda c, o: c in clusters and clusters.get(o) == clusters[c]
            high = [(c, o) for c, (o, j) in injected.items() if j >= TRUE_JACCARD]
            fp = sum(1 for c, o in high if found_pair(c, o))
            fc = sum(1 for c, o in high if found_pair(c, o) or found_cluster(c, o))
            high_main = [(c, o) for c, (o, _) in injected.items() if main_j[c] >= TRUE_JACCARD]
            fm = sum(1 for c, o in high_main if found_pair(c, o) or found_cluster(c, o))
            other = [(a, b) for a, b in pairs if a in pages and b in pages]
            unknown = sum(1 for p in pairs for k in p if k not in pages and k not in injected)
            if unknown:
                print("WARNING: %d page keys of the pairs are neither a page nor a copy" % unknown)
            for p in other:
                if p not in judged:
                    judged[p] = jaccard(main_content(p[0], pages, per_host), main_content(p[1], pages, per_host))
            by_part = defaultdict(lambda: [0, 0])
            for a, b in other:
                part = part_of(a) if part_of(a) == part_of(b) else "across"
                by_part[part][0] += 1
                by_part[part][1] += judged[(a, b)] >= TRUE_JACCARD
            true = sum(judged[p] >= TRUE_JACCARD for p in other)
            share = lambda t, n: "%d of %d (%.1f%%)" % (t, n, 100.0 * t / n) if n else "0 of 0"
            print("| %d | %d | %d (%.2f%%) | %d (%.2f%%) | %d | %d (%.2f%%) | %d | %s | %s | %s | %.1f | %.1f | %d | %s |" % (
                nranks, len(high), fp, 100.0 * fp / max(1, len(high)), fc, 100.0 * fc / max(1, len(high)),
                len(high_main), fm, 100.0 * fm / max(1, len(high_main)), len(other), share(true, len(other)), share(by_part["fit"][1], by_part["fit"][0]),
                share(by_part["held-out"][1], by_part["held-out"][0]), in_bytes / 1e6 / cpu, cpu, rss // 1000000,
                args.memory))
            if curve is None:
                name = os.path.splitext(os.path.basename(config))[0]
                curve = []
                for lo, hi in bands:
                    inside = [(c, o) for c, (o, j) in injected.items() if lo <= j < hi]
                    hit = sum(1 for c, o in inside if found_pair(c, o) or found_cluster(c, o))
                    curve.append((lo, hi, len(inside), hit))
                curve_main = []
                for lo, hi in bands:
                    inside = [(c, o) for c, (o, _) in injected.items() if lo <= main_j[c] < hi]
                    hit = sum(1 for c, o in inside if found_pair(c, o) or found_cluster(c, o))
                    curve_main.append((lo, hi, len(inside), hit))
                with open(os.path.join(work, "measured-main-%s.tsv" % name), "w", encoding="utf-8") as f:
                    for lo, hi, n, hit in curve_main:
                        f.write("%.2f %.2f %d %d\n" % (lo, hi, n, hit))
                with open(os.path.join(work, "false-%s.tsv" % name), "w", encoding="utf-8") as f:
                    for a, b in other:
                        if judged[(a, b)] < TRUE_JACCARD:
                            f.write("%.3f\t%s\t%s\n" % (judged[(a, b)], a, b))
                with open(os.path.join(work, "measured-%s.tsv" % name), "w", encoding="utf-8") as f:
                    for lo, hi, n, hit in curve:
                        f.write("%.2f %.2f %d %d\n" % (lo, hi, n, hit))
                with open(os.path.join(work, "missed-%s.tsv" % name), "w", encoding="utf-8") as f:
                    for c, o in sorted(set(high) | set(high_main)):
                        if not (found_pair(c, o) or found_cluster(c, o)):
                            f.write("%.3f\t%.3f\t%s\t%s\n" % (injected[c][1], main_j[c], c, o))
        print("\nMeasured: copies found with their original (pair or cluster), by known 5-word Jaccard "
              "(whole text) and by the main content's:\n")
        print("| Jaccard | copies | found | share | copies by main content | found | share |")
        print("|---|---:|---:|---:|---:|---:|---:|")
        for (lo, hi, n, hit), (_, _, nm, hitm) in zip(curve, curve_main):
            print("| [%.2f, %.2f) | %d | %d | %s | %d | %d | %s |" % (
                lo, hi, n, hit, "%.4f" % (hit / n) if n else "—", nm, hitm, "%.4f" % (hitm / nm) if nm else "—"))
        print()
        sys.stdout.flush()
    if not args.keep:
        shutil.rmtree(work, ignore_errors=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
