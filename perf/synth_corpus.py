#!/usr/bin/env python3
"""Writes a synthetic crawl with Common Crawl's shape as gzipped WARC shards, deterministic from a seed.

    /usr/bin/python3 perf/synth_corpus.py OUT_DIR --pages N [--shards 12] [--seed 1]
    /usr/bin/python3 perf/synth_corpus.py OUT_DIR --size 256M …      (pages from the expected page size)

OUT_DIR/warc/shard-00000.warc.gz … (one warcinfo record, then one response record per page, one
gzip member per record, as crawlers write them; give crd OUT_DIR/warc) and OUT_DIR/manifest.json
(the parameters and what was written: pages, chunks, the planned unique fraction, bytes).
Same arguments → same bytes.

The shape (docs/scale.md has the sources and what is not modelled):
- chunks per page (crd's scan chunker, tags p,div): a heavy-tailed (log-normal) count with mean
  --cpp (43) and median ≈ half of it, capped at 428 — the paper's pages (§5.2: mean 48, median 23,
  max 428). The page prefix (<head>…<body>) is one of them, unique to its page.
- chunk lengths log-normal (median 450 normalized bytes), so a page averages ≈ 33 KB, near Common
  Crawl 2009/10's 99 TB / 2.86 × 10⁹ items.
- chunk frequencies (paper Fig. 2): a fraction --unique (0.40) of all chunk occurrences are
  chunks seen exactly once; the rest are drawn from a Zipf rank–frequency law, count(r) =
  ⌊C₁ r^-s⌋ ≥ 2, with C₁ set so the counts add up exactly. s = 1 (Zipf's law; a frequency–
  occurrence slope of −2 on Fig. 2's log–log axes) puts 47 % of all occurrences in the 226 most
  frequent chunks at 3.4 × 10⁴ chunks, 38 % at 2.8 × 10⁵, 27 % at 10⁷ (the paper: 35 % in its 226
  stop chunks, §5.2).
  Rank 1 is the empty paragraph <p></p>, the most common chunk in the paper. The plan is exact:
  crd discover on the corpus finds exactly these counts (the test checks it).
- URLs: hosts with a heavy-tailed number of pages, path depth 0–7 (mostly 1–3) from a per-host
  directory tree, so neighborhoods (host, host/a, host/a/b) hold several pages.
"""

import argparse
import hashlib
import json
import math
import os
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "support"))
import archives  # noqa: E402  (the one archive writer of the tests and benchmarks)

VERSION = 1  # bump when the bytes a given set of arguments produces change
MAX_CHUNKS_PER_PAGE = 428       # the paper's largest page (§5.2)
CHUNK_MEDIAN, CHUNK_SIGMA = 450.0, 1.0   # normalized bytes of a body chunk
CHUNK_MIN, CHUNK_MAX = 24, 16384
PAGES_PER_HOST = 40.0           # mean; the count per host is Zipf-like
WORDS = ("the of and to in is for on that with as by this be are from at or it an was which "
         "you all more about our new page home search information contact site news help free "
         "service use time data world people business online price store design music video "
         "school research software system health travel report family market water local policy "
         "city community book review photo study public order course member account energy "
         "history program support product group project access game index item image").split()
TLDS = ("com", "com", "com", "org", "net", "de", "uk", "edu", "info", "jp", "fr", "ru")


def parse_size(text):
    units = {"K": 1 << 10, "M": 1 << 20, "G": 1 << 30, "T": 1 << 40}
    try:
        if text and text[-1].upper() in units:
            return int(float(text[:-1]) * units[text[-1].upper()])
        return int(text)
    except ValueError:
        raise ValueError("--size %s: not a size (bytes, or a number ending in K, M, G or T)" % text) from None


class Shape:
    """The requested shape; everything the generator draws from follows from it and the seed."""

    def __init__(self, pages, cpp=43.0, unique=0.40, zipf_s=1.0, seed=1, shards=12):
        if pages < 1 or shards < 1 or not (0.0 < unique < 1.0) or cpp < 2 or zipf_s <= 0:
            raise ValueError("need pages ≥ 1, shards ≥ 1, 0 < unique < 1, cpp ≥ 2, zipf_s > 0")
        self.pages, self.cpp, self.unique, self.zipf_s = pages, cpp, unique, zipf_s
        self.seed, self.shards = seed, shards


def expected_page_bytes(cpp):
    """Mean response-record bytes of a page (log-normal chunk length mean + head + record framing)."""
    return (cpp - 1) * CHUNK_MEDIAN * math.exp(CHUNK_SIGMA ** 2 / 2) + 700


def chunks_per_page(shape):
    """Chunks of each page, prefix included. Log-normal with median cpp/2, whose mean is then
    cpp; drawn by a golden-ratio (low-discrepancy) sequence so the sample mean is within a few
    percent of cpp already at a few hundred pages, then shuffled by the seed."""
    from statistics import NormalDist
    sigma = math.sqrt(2 * math.log(2.0))  # mean/median = exp(σ²/2) = 2
    mu = math.log(shape.cpp / 2.0)
    phase = (shape.seed * 0.7548776662466927) % 1.0
    u = (phase + np.arange(shape.pages) * 0.6180339887498949) % 1.0
    u = np.clip(u, 1e-9, 1 - 1e-9)
    z = np.array([NormalDist().inv_cdf(x) for x in u])
    k = np.clip(np.rint(np.exp(mu + sigma * z)), 1, MAX_CHUNKS_PER_PAGE).astype(np.int64)
    # The cap cuts the mean a little; give the lost chunks back to the smallest pages.
    deficit = int(round(shape.cpp * shape.pages)) - int(k.sum())
    order = np.argsort(k, kind="stable")
    i = 0
    while deficit > 0:
        k[order[i % shape.pages]] += 1
        deficit -= 1
        i += 1
    np.random.default_rng([shape.seed, 1]).shuffle(k)
    return k


def zipf_counts(repeated, s):
    """Counts ⌊C₁ r^-s⌋ (all ≥ 2) of the repeated chunks, ranks 1…R, summing to `repeated` exactly."""
    if repeated < 2:
        return np.zeros(0, dtype=np.int64)

    def counts(c1):
        r_max = int((c1 / 2.0) ** (1.0 / s))  # last rank with count ≥ 2
        r = np.arange(1, max(r_max, 1) + 1, dtype=np.float64)
        c = np.floor(c1 * r ** -s).astype(np.int64)
        return c[c >= 2]

    lo, hi = 2.0, float(repeated)
    for _ in range(100):  # the largest C₁ whose counts do not exceed `repeated`
        mid = (lo + hi) / 2
        if counts(mid).sum() > repeated:
            hi = mid
        else:
            lo = mid
    c = counts(lo)
    rest = repeated - int(c.sum())
    extra = np.full(rest // 2, 2, dtype=np.int64)  # the remainder as more chunks seen twice
    c = np.concatenate([c, extra]) if len(c) else np.maximum(extra, 2)
    if rest % 2:
        c[0] += 1
    assert int(c.sum()) == repeated
    return c


def chunk_plan(shape, per_page):
    """For every body-chunk slot, in page order: the rank (≥ 0) of a repeated chunk, or -1 for a
    chunk seen once. The page prefixes are unique too and count toward the unique fraction."""
    total = int(per_page.sum())
    body = total - shape.pages
    unique = int(round(shape.unique * total))
    unique_body = max(0, min(body, unique - shape.pages))
    repeated = body - unique_body
    counts = zipf_counts(repeated, shape.zipf_s)
    if len(counts) == 0:  # too small for any repeat: every chunk is unique
        unique_body, repeated = body, 0
    slots = np.concatenate([np.repeat(np.arange(len(counts), dtype=np.int64), counts),
                            np.full(unique_body, -1, dtype=np.int64)])
    np.random.default_rng([shape.seed, 2]).shuffle(slots)
    return slots, counts


class Text:
    """Deterministic filler: slices of one seeded stream of words (no '<', so no boundary)."""

    def __init__(self, seed, size=1 << 20):
        rng = np.random.default_rng([seed, 3])
        words = rng.choice(len(WORDS), size=size // 4)
        self.pool = " ".join(WORDS[w] for w in words)

    def take(self, offset, length):
        offset %= len(self.pool) - CHUNK_MAX - 1
        start = self.pool.find(" ", offset) + 1
        return self.pool[start:start + length].rstrip()


def chunk_length(rng_value):
    """A log-normal chunk length from a standard normal draw."""
    return int(min(CHUNK_MAX, max(CHUNK_MIN, CHUNK_MEDIAN * math.exp(CHUNK_SIGMA * rng_value))))


def repeated_chunk(rank, text, seed):
    """The text of repeated chunk `rank` (0 = the most frequent): the empty paragraph first, then
    paragraphs and divs of seeded length, made distinct by their rank."""
    if rank == 0:
        return "<p></p>"
    rng = np.random.default_rng([seed, 4, rank])
    body = text.take(int(rng.integers(1 << 30)), chunk_length(rng.standard_normal()))
    kind = rank % 4
    if kind == 0:
        return '<div class="nav">r%d <a href="/%s">%s</a></div>' % (rank, WORDS[rank % len(WORDS)], body)
    if kind == 1:
        return '<div class="ad-%d">%s</div>' % (rank, body)
    return "<p>r%d %s</p>" % (rank, body)


class Hosts:
    """Hosts with a Zipf-like share of pages, each with a small directory tree."""

    def __init__(self, shape):
        self.count = max(1, int(round(shape.pages / PAGES_PER_HOST)))
        w = 1.0 / np.arange(1, self.count + 1) ** 0.9
        self.cdf = np.cumsum(w / w.sum())
        self.seed = shape.seed

    def url(self, page, rng):
        h = min(int(np.searchsorted(self.cdf, rng.random())), self.count - 1)
        name = "%s%s%d" % (WORDS[(h * 7) % len(WORDS)], WORDS[(h * 13 + 5) % len(WORDS)], h)
        host = ("www." if h % 3 else "") + name + "." + TLDS[h % len(TLDS)]
        # Depth 0–7, mostly 1–3 (a Poisson-like draw); each level picks one of 4 directory names
        # of this host, so pages share prefixes without ever repeating a component 3 times.
        depth = min(7, int(rng.poisson(1.8)))
        parts = ["%s%d" % (WORDS[(h + level * 31 + int(rng.integers(4)) * 17) % len(WORDS)], level)
                 for level in range(depth)]
        leaf = "%s-%d.html" % (WORDS[page % len(WORDS)], page)
        return "http://%s/%s" % (host, "/".join(parts + [leaf]))


def page_html(url, chunks):
    head = ('<!DOCTYPE html><html><head><meta charset="utf-8"><title>%s</title>'
            '<link rel="stylesheet" href="/style.css"></head><body>\n' % url)
    return (head + "\n".join(chunks) + "\n").encode("utf-8")


def record_id(seed, shard, index):
    d = hashlib.sha1(b"%d/%d/%d" % (seed, shard, index)).hexdigest()
    return "%s-%s-%s-%s-%s" % (d[:8], d[8:12], d[12:16], d[16:20], d[20:32])


def generate(out_dir, shape, level=6, log=None):
    """Writes out_dir/warc/shard-*.warc.gz and out_dir/manifest.json; returns the manifest (a dict)."""
    warc_dir = os.path.join(out_dir, "warc")
    os.makedirs(warc_dir, exist_ok=True)
    # The manifest goes last, so a corpus without one is unfinished; stale shards of an earlier,
    # larger --shards would be read as part of this corpus.
    for name in ["manifest.json"] + [os.path.join("warc", n) for n in os.listdir(warc_dir)]:
        if name == "manifest.json" or name.startswith(os.path.join("warc", "shard-")):
            try:
                os.remove(os.path.join(out_dir, name))
            except FileNotFoundError:
                pass
    per_page = chunks_per_page(shape)
    slots, counts = chunk_plan(shape, per_page)
    text = Text(shape.seed)
    hosts = Hosts(shape)
    repeated_text = {}
    rng = np.random.default_rng([shape.seed, 5])
    bounds = np.linspace(0, shape.pages, shape.shards + 1).round().astype(int)
    slot = 0
    html_bytes = warc_bytes = 0
    files = []
    for shard in range(shape.shards):
        path = os.path.join(warc_dir, "shard-%05d.warc.gz" % shard)
        with archives.ArchiveFile(path, gzip_level=level) as out:
            out.write(archives.warc_warcinfo(os.path.basename(path), record_id=record_id(shape.seed, shard, -1)))
            for page in range(bounds[shard], bounds[shard + 1]):
                url = hosts.url(page, rng)
                chunks = []
                for pos in range(int(per_page[page]) - 1):
                    r = int(slots[slot])
                    slot += 1
                    if r >= 0:
                        if r not in repeated_text:
                            repeated_text[r] = repeated_chunk(r, text, shape.seed)
                        chunks.append(repeated_text[r])
                    else:
                        body = text.take(int(rng.integers(1 << 30)), chunk_length(rng.standard_normal()))
                        chunks.append("<p>u%d.%d %s</p>" % (page, pos, body))
                html = page_html(url, chunks)
                html_bytes += len(html)
                out.write(archives.warc_response(url, html, record_id=record_id(shape.seed, shard, page),
                                                 content_length=True))
        warc_bytes += os.path.getsize(path)
        files.append(os.path.basename(path))
        if log:
            log("%s: pages %d–%d" % (path, bounds[shard], bounds[shard + 1] - 1))
    assert slot == len(slots)
    total = int(per_page.sum())
    manifest = {
        "version": VERSION, "seed": shape.seed, "pages": shape.pages, "shards": shape.shards,
        "requested": {"cpp": shape.cpp, "unique": shape.unique, "zipf_s": shape.zipf_s},
        "chunks": total, "chunks_per_page": total / shape.pages,
        "unique_chunks": total - int(counts.sum()),
        "unique_fraction": (total - int(counts.sum())) / total,
        "distinct_chunks": total - int(counts.sum()) + len(counts),
        "top226_share": float(np.sort(counts)[::-1][:226].sum()) / total,
        "hosts": hosts.count, "html_bytes": html_bytes, "warc_gz_bytes": warc_bytes, "files": files,
    }
    with open(os.path.join(out_dir, "manifest.json"), "w") as f:
        json.dump(manifest, f, indent=1, sort_keys=True)
    return manifest


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("out_dir")
    size = ap.add_mutually_exclusive_group(required=True)
    size.add_argument("--pages", type=int, help="pages (response records) in all")
    size.add_argument("--size", help="approximate uncompressed bytes (K/M/G suffixes), converted to pages")
    ap.add_argument("--shards", type=int, default=12, help="WARC files, equal in pages (12: even for 1–4 ranks)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--cpp", type=float, default=43.0, help="mean chunks per page, prefix included")
    ap.add_argument("--unique", type=float, default=0.40, help="fraction of chunk occurrences seen once")
    ap.add_argument("--zipf-s", type=float, default=1.0, help="Zipf exponent of the repeated chunks")
    ap.add_argument("--level", type=int, default=6, help="gzip level")
    ap.add_argument("-q", "--quiet", action="store_true")
    a = ap.parse_args()
    try:
        pages = a.pages if a.pages is not None else max(1, int(parse_size(a.size) / expected_page_bytes(a.cpp)))
        shape = Shape(pages, a.cpp, a.unique, a.zipf_s, a.seed, a.shards)
    except ValueError as err:
        sys.exit("synth_corpus.py: %s" % err)
    m = generate(a.out_dir, shape, a.level, None if a.quiet else (lambda s: print(s, file=sys.stderr)))
    print(json.dumps({k: m[k] for k in ("pages", "chunks", "chunks_per_page", "unique_fraction",
                                         "distinct_chunks", "top226_share", "html_bytes", "warc_gz_bytes")}))


if __name__ == "__main__":
    main()
