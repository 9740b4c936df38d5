# A corpus with known truth for crd compare-hashing (paper §6.2–6.5): one real site (sphinx-doc
# pages from the Debian documentation corpus) cloned under several hosts, each clone mutated the
# way §6.3 mutates pages — + adds paragraphs (ads, link spam), − deletes chunks, Δ modifies
# characters — next to unrelated real sites (debian-reference, Python documentation). The original
# site is the expert corpus L is built from. Deterministic: mutations come from a seeded RNG.
import os
import random
import re

import crd_integ as ci

CHUNK_START = re.compile(rb"<(?:p|div)[\s>/]", re.I)

# host → mutation applied to every page of that clone (None = an exact copy).
CLONES = [("copy1.example", None), ("copy2.example", None), ("add.example", "add"),
          ("delete.example", "delete"), ("modify.example", "modify"), ("mixed.example", "mixed")]


def html_files(root):
    found = []
    for dirpath, dirnames, names in os.walk(root):
        dirnames.sort()
        found += [os.path.join(dirpath, n) for n in sorted(names) if n.endswith(".html")]
    return found


def pieces(body):
    """The page split before every <p and <div start tag (the chunk boundaries)."""
    starts = [0] + [m.start() for m in CHUNK_START.finditer(body)] + [len(body)]
    return [body[a:b] for a, b in zip(starts, starts[1:]) if b > a]


def mutate(body, kind, rng, rel):
    parts = pieces(body)
    if kind in ("add", "mixed"):  # + two new paragraphs per page
        for j in range(2):
            at = rng.randrange(1, len(parts) + 1)
            parts.insert(at, b"<p>sponsored %d for %s: cheap offers, call 555-%04d now</p>" %
                         (j, rel.encode(), rng.randrange(10000)))
    if kind in ("delete", "mixed") and len(parts) > 3:  # − a quarter of the pieces
        for _ in range(len(parts) // 4):
            del parts[rng.randrange(1, len(parts))]
    if kind in ("modify", "mixed"):  # Δ one changed character in a third of the pieces
        for i in range(1, len(parts)):
            text = parts[i]
            if rng.random() < 1 / 3 and len(text) > 20:
                k = rng.randrange(len(text) // 2, len(text))
                if chr(text[k]).isalnum():
                    parts[i] = text[:k] + (b"x" if text[k:k + 1] != b"x" else b"y") + text[k + 1:]
    return b"".join(parts)


def write(path, body):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "wb") as f:
        f.write(body)


def build(tmp, site_pages=20, unrelated_pages=180, per_host=15, seed=13):
    """Writes tmp('corpus'), tmp('original') and tmp('truth.txt'); returns (corpus, original, truth,
    clone hosts, unrelated hosts). Skips the test when the documentation corpus is absent."""
    site = ci.sphinx_html()
    python = os.path.join(ci.corpus_package("python3.11-doc"), "usr", "share", "doc", "python3.11", "html")
    debref = ci.corpus_package("debian-reference-en")
    if not os.path.isdir(site) or not os.path.isdir(python):
        ci.skip("sphinx-doc or python3.11-doc HTML absent")
    rng = random.Random(seed)
    corpus, original = tmp("corpus"), tmp("original")
    for path in html_files(site)[:site_pages]:
        rel = os.path.relpath(path, site)
        with open(path, "rb") as f:
            body = f.read()
        write(os.path.join(original, "original.example", rel), body)
        for host, kind in CLONES:
            write(os.path.join(corpus, host, rel), body if kind is None else mutate(body, kind, rng, rel))
    unrelated = set()
    sources = [("debref.example", debref)] + [
        ("py-%s.example" % d, os.path.join(python, d)) for d in sorted(os.listdir(python))
        if os.path.isdir(os.path.join(python, d)) and not d.startswith("_")]
    left = unrelated_pages
    for host, src in sources:
        for path in html_files(src)[:max(0, min(left, per_host))]:
            target = os.path.join(corpus, host, os.path.relpath(path, src))
            os.makedirs(os.path.dirname(target), exist_ok=True)
            os.symlink(path, target)
            left -= 1
            unrelated.add(host)
    truth = tmp("truth.txt")
    with open(truth, "w") as f:
        f.write("# the clones of original.example\n" + "".join(h + "\n" for h, _ in CLONES))
    return corpus, original, truth, [h for h, _ in CLONES], sorted(unrelated)
