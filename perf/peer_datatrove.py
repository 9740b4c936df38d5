#!/usr/bin/python3
"""datatrove's MinHash deduplication side by side with crd neardup, on the same pages, scored alike.

    /usr/bin/python3 perf/peer_datatrove.py --datatrove /work/dtrove-src/v0.3.0 --crd build/crd \\
        --corpus /work/valdata/background /work/valdata/background2 --held-out /work/valdata/background \\
        --mirror-host postgresql-doc-15 --mirrors 20 --keep /tmp/peer-dt \\
        [--config configs/neardup-high-recall.ini configs/neardup-henzinger.ini] [--memory 2G]
    /usr/bin/python3 perf/peer_datatrove.py --datatrove /work/dtrove-src/v0.3.0 --crd build/crd --stubs 100000

The peer (Penedo et al. 2024, FineWeb's deduplication) is not part of crd: give --datatrove a source
tree of it (`git archive v0.3.0`: the last tag whose pyproject accepts numpy < 2, so it runs on
Debian 12's Python 3.11 and numpy 1.24). Its Python dependencies, from Debian 12 only (for this
benchmark; crd does not need them): python3-numpy python3-fsspec python3-loguru python3-multiprocess
python3-dill python3-humanize python3-tqdm python3-xxhash python3-nltk python3-fasteners.
Debian 12 lacks or differs in five things datatrove uses; this script writes the smallest stand-ins into its
work directory (never into the repository) and puts them first on the peer's PYTHONPATH:
- `huggingface_hub` and `tokenizers`: imported at module level by datatrove's io and dedup packages,
  never used by MinHash on local files (any use raises);
- `orjson`: loads/dumps over the standard json module (the JSONL reader and writer);
- fsspec 2022.11's `glob()` takes no `maxdepth`: the stage runner drops it (datatrove passes None,
  and newer fsspec ignores it for a pattern without `**`, as all of MinHash's are);
- NLTK's Punkt model for English (datatrove's English word tokenizer splits sentences first): an
  untrained `PunktSentenceTokenizer()`. datatrove tokenizes `simplify_text`'s output, which has no
  `. ? !`, and Punkt splits only there, so any Punkt model gives the whole text as one sentence and
  the same words as the trained one.

The corpus and its judge are validation/neardup_validation.py's (imported, not copied): real hosts
plus near-copies at a known 5-word Jaccard. datatrove gets, as its text, the judge's text lines of
each page (visible text, one line per block-level element, words lower-cased with digits as 0; a
text file's lines), one JSONL document per page with non-empty text; that extraction is timed apart.
It then runs the 4 stages of its MinHash example (examples/minhash_deduplication.py) at the
example's defaults (5-word shingles, 14 buckets × 8 hashes, 64-bit xxhash) on the
LocalPipelineExecutor with 1 worker, each stage a process under /usr/bin/time (CPU s = user + sys,
peak RSS = the largest stage's). Departures from the example: stage 3 sets save_cluster_id=True
(its .clusters file is not read after all: it omits each cluster's kept page, so read_datatrove
rebuilds the clusters from the .dups; the whole stage takes under a second), stage 4 has no
TokensCounter (it needs Hugging Face tokenizers), and the folders are local.

Scoring, the same for both systems:
- recall: copies at known Jaccard ≥ 0.8 in the same cluster as their original;
- pairs from clusters: each removed page paired with its cluster's kept page (datatrove keeps the
  union-find root; crd its representative, the smallest key). Pairs of two pages outside the
  injected copies are judged by the main-content rule (lines on ≥ 50 pages of the host are
  boilerplate; true when the rest has 5-word Jaccard ≥ 0.8). crd's own /neardup/pairs are judged too.
- speed: MB per CPU s of the input each system reads (text for datatrove, HTML for crd) and of
  the same HTML bytes for both.
--stubs N instead runs both on N generated near-identical stubs (tests/support/stub_pages.py).
"""
from __future__ import annotations

import argparse
import gzip
import hashlib
import json
import os
import pickle
import re
import resource
import shutil
import struct
import subprocess
import sys
import tempfile
from collections import defaultdict

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.join(HERE, "..")
sys.path.insert(0, os.path.join(ROOT, "validation"))
sys.path.insert(0, os.path.join(ROOT, "tests", "support"))
import neardup_validation as nv  # noqa: E402

STUB_HUGGINGFACE_HUB = '''"""Stand-in for huggingface_hub (not in Debian 12): datatrove imports names from it at module
level; MinHash on local files never uses them, and any use raises."""


class _Unavailable:
    def __init__(self, *args, **kwargs):
        raise RuntimeError("huggingface_hub stand-in: no Hub in this benchmark")


def __getattr__(name):
    if name.startswith("__"):
        raise AttributeError(name)
    return _Unavailable
'''
STUB_HUGGINGFACE_HUB_UTILS = "class HfHubHTTPError(Exception):\n    pass\n"
STUB_TOKENIZERS = ("class TemplateProcessing:\n    def __init__(self, *a, **k):\n"
                   "        raise RuntimeError('tokenizers stand-in: not in this benchmark')\n")
STUB_ORJSON = '''"""Stand-in for orjson (not in Debian 12) over the standard json module."""
import json

JSONDecodeError = json.JSONDecodeError
OPT_APPEND_NEWLINE = 1


def loads(s):
    return json.loads(s)


def dumps(obj, option=0, default=None):
    out = json.dumps(obj, ensure_ascii=False, default=default).encode("utf-8")
    return out + b"\\n" if option & OPT_APPEND_NEWLINE else out
'''

# One stage of examples/minhash_deduplication.py, on local folders, 1 worker.
STAGE = '''
import sys
from datatrove.executor.local import LocalPipelineExecutor
from datatrove.pipeline.dedup import MinhashDedupSignature
from datatrove.pipeline.dedup.minhash import MinhashConfig, MinhashDedupBuckets, MinhashDedupCluster, MinhashDedupFilter
from datatrove.pipeline.readers import JsonlReader
from datatrove.pipeline.writers.jsonl import JsonlWriter
from datatrove.utils.hashing import HashConfig
from datatrove.utils.typeshelper import Languages

# Debian 12's fsspec (2022.11) glob() takes no maxdepth; datatrove passes maxdepth=None (a recursive
# listing), which newer fsspec ignores for a pattern without "**", as all of MinHash's are.
import fsspec.spec
_glob = fsspec.spec.AbstractFileSystem.glob
def _glob_without_maxdepth(self, path, **kwargs):
    assert kwargs.pop("maxdepth", None) is None or "**" not in path
    return _glob(self, path, **kwargs)
fsspec.spec.AbstractFileSystem.glob = _glob_without_maxdepth

stage, work = int(sys.argv[1]), sys.argv[2]
config = MinhashConfig(hash_config=HashConfig(precision=64), num_buckets=14, hashes_per_bucket=8)
base = work + "/minhash"
reader = JsonlReader(work + "/input")
if stage == 1:
    pipeline, tasks = [reader, MinhashDedupSignature(output_folder=base + "/signatures", config=config,
                                                     language=Languages.english)], 1
elif stage == 2:
    pipeline, tasks = [MinhashDedupBuckets(input_folder=base + "/signatures", output_folder=base + "/buckets",
                                           config=config)], config.num_buckets
elif stage == 3:
    pipeline, tasks = [MinhashDedupCluster(input_folder=base + "/buckets", output_folder=base + "/remove_ids",
                                           config=config, save_cluster_id=True)], 1
else:
    pipeline, tasks = [reader, MinhashDedupFilter(input_folder=base + "/remove_ids",
                                                  exclusion_writer=JsonlWriter(base + "/removed")),
                       JsonlWriter(output_folder=base + "/deduplicated_output")], 1
LocalPipelineExecutor(pipeline=pipeline, tasks=tasks, workers=1, logging_dir=work + "/logs/stage%d" % stage).run()
'''


def write_shims(shims):
    """The stand-ins of the module docstring, under `shims` (PYTHONPATH) and `shims/nltk_data`."""
    files = {"huggingface_hub/__init__.py": STUB_HUGGINGFACE_HUB,
             "huggingface_hub/utils.py": STUB_HUGGINGFACE_HUB_UTILS,
             "tokenizers/__init__.py": "", "tokenizers/processors.py": STUB_TOKENIZERS,
             "orjson.py": STUB_ORJSON}
    for name, text in files.items():
        os.makedirs(os.path.dirname(os.path.join(shims, name)), exist_ok=True)
        with open(os.path.join(shims, name), "w", encoding="utf-8") as f:
            f.write(text)
    import nltk.tokenize.punkt as punkt  # python3-nltk

    punkt_dir = os.path.join(shims, "nltk_data", "tokenizers", "punkt", "PY3")
    os.makedirs(punkt_dir, exist_ok=True)
    with open(os.path.join(punkt_dir, "english.pickle"), "wb") as f:
        pickle.dump(punkt.PunktSentenceTokenizer(), f)


def cpu_self():
    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_utime + r.ru_stime


def write_input(docs, work):
    """docs: iterable of (key, text); one JSONL file of the documents with text, in order. Returns
    (keys in datatrove's document order, text bytes)."""
    os.makedirs(os.path.join(work, "input"), exist_ok=True)
    keys, size = [], 0
    with open(os.path.join(work, "input", "pages.jsonl"), "w", encoding="utf-8") as f:
        for key, text in docs:
            if not text:
                continue  # datatrove's reader skips a document without text (and so renumbers the rest)
            f.write(json.dumps({"id": key, "text": text}, ensure_ascii=False) + "\n")
            keys.append(key)
            size += len(text.encode("utf-8"))
    return keys, size


def run_datatrove(tree, work):
    """The 4 stages, each a process under /usr/bin/time: [(stage, CPU s, peak RSS MB)]."""
    shutil.rmtree(os.path.join(work, "minhash"), ignore_errors=True)
    shutil.rmtree(os.path.join(work, "logs"), ignore_errors=True)
    shims = os.path.join(work, "shims")
    write_shims(shims)
    env = dict(os.environ, PYTHONPATH=os.path.join(os.path.abspath(tree), "src") + os.pathsep + shims,
               NLTK_DATA=os.path.join(shims, "nltk_data"))
    stages = []
    for stage in (1, 2, 3, 4):
        subprocess.run(["cat", os.path.join(work, "input", "pages.jsonl")], stdout=subprocess.DEVNULL, check=True)
        timing = os.path.join(work, "time-%d" % stage)
        log = os.path.join(work, "stage-%d.log" % stage)
        with open(log, "w") as out:
            rc = subprocess.run(["/usr/bin/time", "-f", "%U %S %M", "-o", timing, "/usr/bin/python3", "-c", STAGE,
                                 str(stage), work], env=env, stdout=out, stderr=subprocess.STDOUT).returncode
        if rc:
            sys.exit("datatrove stage %d failed (%s)" % (stage, log))
        with open(timing) as f:
            user, sys_s, rss_kb = f.read().split()[-3:]
        stages.append((stage, float(user) + float(sys_s), int(rss_kb) / 1000))
    return stages


def read_datatrove(work, keys):
    """{key: cluster id} of every page in a cluster, and [(kept key, removed key)].

    Stage 3 writes the removed pages (.remove) and, with save_cluster_id, each one's cluster, but not
    the page it keeps (its union-find root is no key of its table, so it is not listed). The clusters
    are therefore rebuilt here from stage 2's pairs (.dups) by the same union-find, in the same order
    (files sorted, root of b set to root of a), and checked: the pages that are not their cluster's
    root must be exactly the .remove file's, and exactly the pages stage 4's exclusion writer wrote."""
    base = os.path.join(work, "minhash")
    parent = {}

    def root(x):
        while parent.get(x, x) != x:
            parent[x] = parent.get(parent[x], parent[x])  # path halving
            x = parent[x]
        return x

    dups = os.path.join(base, "buckets")
    for name in sorted(n for n in os.listdir(dups) if n.endswith(".dups")):
        with open(os.path.join(dups, name), "rb") as f:
            for f1, d1, f2, d2 in struct.iter_unpack("<4I", f.read()):
                if (f1, d1) != (f2, d2):
                    parent[root((f2, d2))] = root((f1, d1))
                else:
                    parent.setdefault((f1, d1), (f1, d1))
    nodes = set(parent) | set(parent.values())
    if any(f != 0 for f, _ in nodes):
        sys.exit("datatrove: a pair names a file other than the one input file")
    cluster_of = {keys[d]: keys[root((f, d))[1]] for f, d in nodes}
    removed = set()
    path = os.path.join(base, "remove_ids", "000000.remove")
    if os.path.exists(path):
        with open(path, "rb") as f:
            removed = {keys[i] for (i,) in struct.iter_unpack("<I", f.read())}
    written = set()
    rdir = os.path.join(base, "removed")
    for name in os.listdir(rdir) if os.path.isdir(rdir) else []:
        with gzip.open(os.path.join(rdir, name), "rt", encoding="utf-8") as f:
            written.update(json.loads(line)["id"] for line in f)
    not_roots = {k for k, c in cluster_of.items() if k != c}
    if not (not_roots == removed == written):
        sys.exit("datatrove: %d pages are not their cluster's root, .remove lists %d, stage 4 removed %d" % (
            len(not_roots), len(removed), len(written)))
    return cluster_of, kept_pairs(cluster_of, lambda ms: [m for m in ms if cluster_of[m] == m])


def kept_pairs(cluster_of, kept_of):
    """Each removed page paired with its cluster's kept page (sorted pair of keys)."""
    members = defaultdict(list)
    for key, c in cluster_of.items():
        members[c].append(key)
    pairs = []
    for c, ms in members.items():
        kept = kept_of(ms)
        if len(kept) != 1:
            sys.exit("cluster %s has %d kept pages" % (c, len(kept)))
        pairs += [(min(kept[0], m), max(kept[0], m)) for m in ms if m != kept[0]]
    return sorted(pairs)


BANDS = [(0.5, 0.6), (0.6, 0.7), (0.7, 0.75), (0.75, 0.8), (0.8, 0.85), (0.85, 0.9), (0.9, 0.95), (0.95, 1.0)]


def banding(j, rows=8, bands=14):
    """P(found) of FineWeb's banding at Jaccard j: 1 - (1 - j^r)^b."""
    return 1 - (1 - j ** rows) ** bands


class Judge:
    """The validation's recall and main-content precision, shared by both systems."""

    def __init__(self, pages, injected, per_host, main_j):
        self.pages, self.injected, self.per_host, self.judged = pages, injected, per_host, {}
        self.high = [(c, o) for c, (o, j) in injected.items() if j >= nv.TRUE_JACCARD]
        # The copies that are near-duplicates by the precision's own rule: main content at J >= 0.8.
        self.high_main = [(c, o) for c, (o, _) in injected.items() if main_j[c] >= nv.TRUE_JACCARD]

    def recall(self, cluster_of, copies=None):
        """(copies in their original's cluster, copies): at J >= 0.8, or of `copies`."""
        copies = self.high if copies is None else copies
        found = sum(1 for c, o in copies if c in cluster_of and cluster_of.get(o) == cluster_of[c])
        return found, len(copies)

    def curve(self, cluster_of):
        """[(lo, hi, copies, found)]: copies in their original's cluster by band of known Jaccard."""
        rows = []
        for lo, hi in BANDS:
            inside = [(c, o) for c, (o, j) in self.injected.items() if lo <= j < hi]
            found = sum(1 for c, o in inside if c in cluster_of and cluster_of.get(o) == cluster_of[c])
            rows.append((lo, hi, len(inside), found))
        return rows

    def precision(self, pairs):
        """(pairs outside the copies, of them true; pages on such a pair, of them with a true partner)."""
        other = [(a, b) for a, b in pairs if a in self.pages and b in self.pages]
        for p in sorted(set(other) - set(self.judged)):
            self.judged[p] = nv.jaccard(nv.main_content(p[0], self.pages, self.per_host),
                                        nv.main_content(p[1], self.pages, self.per_host))
        true = [p for p in other if self.judged[p] >= nv.TRUE_JACCARD]
        on_pair = {k for p in other for k in p}
        with_true = {k for p in true for k in p}
        return len(other), len(true), len(on_pair), len(with_true)


def crd_result(crd, inputs, config, memory, work):
    """crd neardup at 1 rank: CPU s, peak RSS MB, {page: cluster}, its own pairs, representative pairs."""
    out = os.path.join(work, "crd-%s.h5" % os.path.splitext(os.path.basename(config))[0])
    cpu, _ = nv.run_crd(crd, inputs, out, 1, config, memory)
    pairs, clusters, rss, _ = nv.read_result(out)
    return cpu, rss / 1e6, clusters, sorted(pairs), kept_pairs(clusters, lambda ms: [m for m in ms if clusters[m] == m])


def share(t, n):
    return "%s of %s (%.1f %%)" % (f"{t:,}", f"{n:,}", 100.0 * t / n) if n else "0 of 0"


def validation(args, work):
    corpora = [os.path.abspath(c) for c in args.corpus]
    args.corpus = corpora
    pages = nv.list_pages(corpora)
    copies_dir = os.path.join(work, "copies")
    injected = nv.make_copies(pages, args, copies_dir)
    html_bytes = sum(os.path.getsize(p) for p, _, _ in pages.values())
    html_bytes += sum(os.path.getsize(os.path.join(copies_dir, k)) for k in injected)
    judge_cache = os.path.join(work, "judge-%s.pickle" % hashlib.sha1(json.dumps(corpora).encode()).hexdigest()[:12])
    per_host = nv.host_line_counts(pages, judge_cache)
    main_j = nv.copy_main_jaccards(injected, copies_dir, pages, per_host, judge_cache.replace("judge-", "main-j-"))
    judge = Judge(pages, injected, per_host, main_j)
    every = sorted((c, o) for c, (o, _) in injected.items())
    print("corpus: %d pages on %d hosts + %d copies (%d at J >= 0.8), %.1f MB of HTML and text files\n" % (
        len(pages), len(per_host), len(injected), len(judge.high), html_bytes / 1e6))
    sys.stdout.flush()

    def docs():
        for key in sorted(pages):
            path, kind, _ = pages[key]
            yield key, "\n".join(nv.read_lines(path, kind))
        for key in sorted(injected):
            yield key, "\n".join(nv.read_lines(os.path.join(copies_dir, key), "html"))

    rows, curves = [], []
    if args.datatrove:
        before = cpu_self()
        keys, text_bytes = write_input(docs(), work)
        extraction = cpu_self() - before
        stages = run_datatrove(args.datatrove, work)
        cluster_of, pairs = read_datatrove(work, keys)
        cpu = sum(s[1] for s in stages)
        print("datatrove: %d documents, %.1f MB of text (extraction %.1f CPU s); stages (CPU s, peak RSS MB): %s\n" % (
            len(keys), text_bytes / 1e6, extraction, ", ".join("%d: %.1f s %.0f MB" % s for s in stages)))
        rows.append(("datatrove %s, 14 × 8, 1 worker" % args.datatrove_label, cpu,
                     "%.1f of text" % (text_bytes / 1e6 / cpu), html_bytes / 1e6 / cpu,
                     html_bytes / 1e6 / (cpu + extraction), max(s[2] for s in stages),
                     judge.recall(cluster_of), judge.recall(cluster_of, judge.high_main), judge.recall(cluster_of, every),
                     judge.precision(pairs), None))
        curves.append(("datatrove", judge.curve(cluster_of)))
    for config in args.config:
        cpu, rss, clusters, own, rep = crd_result(args.crd, corpora + [copies_dir], config, args.memory, work)
        rows.append(("crd `%s`, 1 rank" % os.path.basename(config), cpu, "%.1f of HTML" % (html_bytes / 1e6 / cpu),
                     html_bytes / 1e6 / cpu, None, rss, judge.recall(clusters), judge.recall(clusters, judge.high_main),
                     judge.recall(clusters, every), judge.precision(rep), judge.precision(own)))
        curves.append(("crd `%s`" % os.path.basename(config), judge.curve(clusters)))
    print("| | CPU s | MB per CPU s (its input) | MB of HTML per CPU s (with datatrove's extraction) | peak RSS MB "
          "| copies at J ≥ 0.8 in their original's cluster | of them by main content | all copies (J 0.5–0.99) | "
          "pairs (kept, removed) outside the copies: true "
          "| pages on such a pair: with a true partner | crd's own pairs outside the copies: true |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for name, cpu, own_mb, html_mb, html_mb_ext, rss, (found, high), (fm, nm), (fa, na), (n, t, pn, pt), own in rows:
        print("| %s | %.1f | %s | %.1f%s | %.0f | %s | %s | %s | %s | %s | %s |" % (
            name, cpu, own_mb, html_mb, " (%.1f)" % html_mb_ext if html_mb_ext else "", rss, share(found, high),
            share(fm, nm), share(fa, na), share(t, n), share(pt, pn), share(own[1], own[0]) if own else "—"))
    print("\n(load average at the end: %.1f %.1f %.1f)\n" % os.getloadavg())
    print_curves(curves)


def print_curves(curves):
    """Copies found by band of known Jaccard, each system's share beside FineWeb's banding formula at
    the band's middle (datatrove shingles the same text the Jaccard is measured on)."""
    names = " | ".join(n for n, _ in curves)
    print("| known 5-word Jaccard | copies | %s | 1 − (1 − J⁸)¹⁴ at the middle |" % names)
    print("|---|---:|%s---:|" % ("---:|" * len(curves)))
    for i, (lo, hi) in enumerate(BANDS):
        n = curves[0][1][i][2] if curves else 0
        shares = ["%.4f" % (c[i][3] / c[i][2]) if c[i][2] else "—" for _, c in curves]
        print("| [%.2f, %.2f) | %d | %s | %.4f |" % (lo, hi, n, " | ".join(shares), banding((lo + hi) / 2)))


def stubs(args, work):
    """N generated near-identical stubs: one WARC for crd, their judge's text lines for datatrove."""
    import stub_pages

    warc = os.path.join(work, "stubs.warc")
    stub_pages.write(args.stubs, warc)
    keys = [stub_pages.url(i) for i in range(args.stubs)]
    rows = []
    if args.datatrove:
        before = cpu_self()
        keys, text_bytes = write_input(((k, "\n".join(nv.page_lines(stub_pages.page(i).decode("utf-8"))))
                                        for i, k in enumerate(keys)), work)
        extraction = cpu_self() - before
        stages = run_datatrove(args.datatrove, work)
        cluster_of, pairs = read_datatrove(work, keys)
        print("datatrove stages (CPU s, peak RSS MB): %s\n" % ", ".join("%d: %.1f s %.0f MB" % s for s in stages))
        sizes = defaultdict(int)
        for c in cluster_of.values():
            sizes[c] += 1
        rows.append(("datatrove %s, 14 × 8, 1 worker (+ %.1f CPU s of text extraction)" % (
                     args.datatrove_label, extraction),
                     sum(s[1] for s in stages), max(s[2] for s in stages), len(sizes), max(sizes.values(), default=0)))
    configs = [(os.path.basename(c), c) for c in args.config]
    for name, config in list(configs):
        if "boilerplate-pages" in open(config, encoding="utf-8").read():
            # As perf/neardup_stubs.sh: the preset without its boilerplate rule, which otherwise leaves
            # each stub too few shingles to be sketched.
            derived = os.path.join(work, "no-boilerplate-" + name)
            with open(config, encoding="utf-8") as f, open(derived, "w", encoding="utf-8") as out:
                out.write(re.sub(r"(?m)^boilerplate-pages\s*=.*$", "boilerplate-pages = 0", f.read()))
            configs.append((name + "` with `boilerplate-pages = 0", derived))
    for name, config in configs:
        out = os.path.join(work, "crd-stubs.h5")
        subprocess.run(["cat", warc], stdout=subprocess.DEVNULL, check=True)
        cpu, _ = nv.run_crd(args.crd, [warc], out, 1, config, args.memory)
        _, clusters, rss, _ = nv.read_result(out)
        sizes = defaultdict(int)
        for c in clusters.values():
            sizes[c] += 1
        rows.append(("crd `%s`, 1 rank" % name, cpu, rss / 1e6, len(sizes), max(sizes.values(), default=0)))
    print("%d stubs, %.1f MB of WARC\n" % (args.stubs, os.path.getsize(warc) / 1e6))
    print("| | CPU s | peak RSS MB | clusters | pages in the largest |")
    print("|---|---:|---:|---:|---:|")
    for row in rows:
        print("| %s | %.1f | %.0f | %d | %d |" % row)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--datatrove", help="a datatrove source tree (its src/ is put on PYTHONPATH); omit to run crd only")
    ap.add_argument("--datatrove-label", default="v0.3.0", help="how the table names the peer's version")
    ap.add_argument("--crd", required=True)
    ap.add_argument("--corpus", nargs="+", help="directories whose subdirectories are hosts (as the validation)")
    ap.add_argument("--held-out", nargs="*", default=[], help="accepted for the validation's command line; unused")
    ap.add_argument("--config", nargs="+", default=[os.path.join(ROOT, "configs", "neardup-high-recall.ini"),
                                                    os.path.join(ROOT, "configs", "neardup-henzinger.ini")])
    ap.add_argument("--mirror-host")
    ap.add_argument("--mirrors", type=int, default=20)
    ap.add_argument("--copies", type=int, default=0)
    ap.add_argument("--seed", type=int, default=45)
    ap.add_argument("--memory", help="crd's --memory (default 2G; 4G with --stubs, as perf/neardup_stubs.sh)")
    ap.add_argument("--stubs", type=int, default=0, help="run on this many generated stubs instead of the corpus")
    ap.add_argument("--keep", help="work directory kept for the next run (copies, judge's counts, datatrove's files)")
    args = ap.parse_args()
    args.crd = os.path.abspath(args.crd)
    args.memory = args.memory or ("4G" if args.stubs else "2G")
    args.config = [os.path.abspath(c) for c in args.config]
    if not args.stubs and not args.corpus:
        ap.error("--corpus or --stubs is needed")
    work = os.path.abspath(args.keep) if args.keep else tempfile.mkdtemp(prefix="crd-peer-datatrove.")
    os.makedirs(work, exist_ok=True)
    try:
        stubs(args, work) if args.stubs else validation(args, work)
    finally:
        if not args.keep:
            shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
