#!/usr/bin/python3
"""The paper's validation (Ardi & Heidemann 2019, §6.2-6.4) reproduced with crd on the Debian
documentation corpus (scripts/fetch_corpus.sh). docs/validation.md has the numbers and the choices.

    /usr/bin/python3 validation/paper_validation.py --crd build/crd --out validation/results
    /usr/bin/python3 validation/paper_validation.py --scale ci ...   # the CTest version (< 60 s)

The site S is the sphinx-doc HTML (the paper's blog.archive.org); the background, into which copies
of S are injected, is debian-reference (one host) and the Python documentation (one host per top
directory). Both are real sites, and Python's documentation is built with Sphinx too, so it shares
template chunks with S: the template problem (docs/validation.md, "Templates") is part of the experiment.

- injection (§6.2): d exact copies of S (file-level discovery, Fig. 1) and d copies with a unique
  first and last paragraph per page (chunk-level, Figs. 2-3), each copy its own host, discovered
  blind at a fixed threshold T; fraction of S's files / distinct chunks labeled, hosts flagged.
- mutations (§6.3-6.4): every page of S mutated n = x · cpp times (cpp = S's mean chunks per page),
  by adding new paragraphs, deleting chunks, or changing one character of a random chunk (with
  replacement); each (kind, x, seed) is one host of one corpus, detected with L_expert (every chunk
  of S) and L_blind (the injection run at d = T + 1), at fixed thresholds taken from a baseline run
  (background + one unmutated copy, automatic thresholds), as the paper fixes its thresholds.
- templates: the same baseline with L_expert, with and without the 100-byte rule, and
  the badness it gives the unrelated Sphinx hosts.

Writes injection.csv, mutations.csv, templates.csv, summary.json and (with matplotlib) the figures.
"""
from __future__ import annotations

import argparse
import csv
import json
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, os.path.join(ROOT, "analysis"))
sys.path.insert(0, os.path.join(ROOT, "tests", "support"))
import crd_results  # noqa: E402  (the one reader of crd's results)
import reference_chunker as ref  # noqa: E402
import site_copies  # noqa: E402  (the §6.2 copy, shared with the tests)

PYTHON_HTML = os.path.join("python3.11-doc", "usr", "share", "doc", "python3.11", "html")
SPHINX_HTML = os.path.join("sphinx-doc", "usr", "share", "doc", "sphinx-doc", "html")
DEBREF = "debian-reference-en"
SITE_HOST = "site.example"

# ci: small enough for a CTest test; full: what docs/validation.md reports.
SCALES = {
    "ci": dict(site_pages=25, python_dirs=["faq", "howto", "tutorial"], copies=[1, 4, 8, 9, 16],
               threshold=8, xs=[0, 1, 2, 4, 6], seeds=1),
    "full": dict(site_pages=60, python_dirs=None, copies=[1, 2, 5, 10, 20, 21, 40],
                 threshold=20, xs=[0, 0.5, 1, 1.5, 2, 3, 4, 5, 6], seeds=2),
}
KINDS = ("add", "delete", "modify")
# The paper's tolerances (× cpp before a detected page / neighborhood falls below its threshold).
PAPER = {"pages": {("add", "blind"): 3.4, ("add", "expert"): 4.5, ("modify", "blind"): 1.8,
                   ("modify", "expert"): 2.0, ("delete", "blind"): None, ("delete", "expert"): None},
         "neighborhoods": "4.4-5.4 (all kinds)"}
TEMPLATE_MIN_LENGTH = 100  # the paper's 100-character rule (§4.4.2, §8.1); crd label's default


def html_files(root):
    found = []
    for dirpath, dirnames, names in os.walk(root):
        dirnames.sort()
        found += [os.path.join(dirpath, n) for n in names if n.endswith(".html")]
    return sorted(found)


def write(path, data):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "wb") as f:
        f.write(data)


def link_tree(src, dst, files=None):
    for p in files if files is not None else html_files(src):
        target = os.path.join(dst, os.path.relpath(p, src))
        os.makedirs(os.path.dirname(target), exist_ok=True)
        os.symlink(p, target)


def spans(page):
    """The page's raw chunk spans (the reference chunker's boundaries); empty ones dropped."""
    cuts = [0] + ref.boundaries(page) + [len(page)]
    return [page[a:b] for a, b in zip(cuts, cuts[1:]) if ref.normalize(page[a:b])]


class Experiment:
    def __init__(self, crd, corpus, work, scale, nranks, mpirun):
        self.crd, self.corpus, self.work, self.nranks, self.mpirun = crd, corpus, work, nranks, mpirun
        self.s = SCALES[scale]
        self.scale = scale
        site_dir = os.path.join(corpus, SPHINX_HTML)
        files = html_files(site_dir)
        if self.s["site_pages"]:
            files = files[:self.s["site_pages"]]
        self.site = {os.path.relpath(p, site_dir): open(p, "rb").read() for p in files}
        self.site_dir = site_dir
        self.cpp = sum(len(ref.chunks(b)) for b in self.site.values()) / len(self.site)
        self.background = os.path.join(work, "background")
        self.unrelated_hosts = self.make_background()
        self.runs = []

    # --- corpora ---------------------------------------------------------------------------------
    def make_background(self):
        hosts = {"debref.example"}
        link_tree(os.path.join(self.corpus, DEBREF), os.path.join(self.background, "debref.example"))
        python = os.path.join(self.corpus, PYTHON_HTML)
        dirs = self.s["python_dirs"] or sorted(d for d in os.listdir(python)
                                               if os.path.isdir(os.path.join(python, d)) and not d.startswith("_"))
        for d in dirs:
            files = html_files(os.path.join(python, d))
            if files:
                link_tree(os.path.join(python, d), os.path.join(self.background, "py-%s.example" % d), files)
                hosts.add("py-%s.example" % d)
        return hosts

    def corpus_with(self, name, copies):
        """A corpus directory: the background (linked) plus {host: {rel: bytes}} written out."""
        root = os.path.join(self.work, name)
        shutil.rmtree(root, ignore_errors=True)
        link_tree(self.background, root)
        for host, pages in copies.items():
            for rel, body in pages.items():
                write(os.path.join(root, host, rel), body)
        return root

    def partial_copy(self, i):
        """Copy i of S with a unique lead and tail paragraph on every page (§6.2's advertisements)."""
        out = {}
        for rel, body in self.site.items():
            out[rel] = site_copies.advertised_copy(body, "copy%d" % i, rel)
        return out

    def mutate(self, body, kind, n, rng, tag):
        return mutate(body, kind, n, rng, tag)

    # --- crd -------------------------------------------------------------------------------------
    def run(self, args):
        cmd = self.mpirun + [self.crd] + args + ["--progress-interval", "0"]
        proc = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        if proc.returncode != 0:
            raise RuntimeError("crd failed: %s\n%s" % (" ".join(cmd), proc.stderr.decode(errors="replace")[-3000:]))
        self.runs.append(" ".join(args))

    def out(self, name):
        return os.path.join(self.work, name + ".h5")

    # --- §6.2 --------------------------------------------------------------------------------------
    def injection(self):
        T = self.s["threshold"]
        site_files = {ref.sha1(b).hex() for b in self.site.values()}
        rows = []
        fixed = []  # after the d = 1 run: its automatic thresholds, kept for larger d (see below)
        for d in self.s["copies"]:
            # Files: d exact copies (links to S's files).
            root = self.corpus_with("files-d%d" % d, {})
            for i in range(d):
                link_tree(self.site_dir, os.path.join(root, "copy%d.example" % i),
                          [os.path.join(self.site_dir, rel) for rel in self.site])
            out = self.out("files-d%d" % d)
            self.run(["discover", root, "-o", out, "--chunk-threshold", str(T), "--file-threshold", str(T)])
            files = set(crd_results.open_results(out).files["hash"])
            # Chunks: d copies with unique first and last paragraphs, discovered and detected.
            copies = {"copy%d.example" % i: self.partial_copy(i) for i in range(d)}
            root = self.corpus_with("chunks-d%d" % d, copies)
            out = self.out("chunks-d%d" % d)
            # Once copies are most of the hosts, mean + σ over all hosts lies above them (the majority
            # effect, docs/validation.md): as the paper fixes its thresholds (§6.4, §7.3), runs with
            # d > 1 use the thresholds of the d = 1 run, where the copy is one host among many.
            self.run(["run", root, "-o", out, "--chunk-threshold", str(T), "--file-threshold", str(T),
                      "--max-neighborhood-depth", "0"] + fixed)
            r = crd_results.open_results(out)
            if not fixed:
                a = r.detection_attrs
                fixed = ["--page-threshold", repr(a["page_threshold"]),
                         "--neighborhood-threshold", repr(a["neighborhood_threshold"])]
            site_chunks = {ref.sha1(c).hex() for c in self.site_chunks()}
            labeled = set(r.chunks["hash"])
            flagged = set(r.neighborhoods[r.neighborhoods["flagged"] == 1]["prefix"])
            rows.append(dict(d=d, threshold=T, site_files=len(site_files),
                             files_discovered=len(site_files & files) / len(site_files),
                             site_chunks=len(site_chunks), chunks_discovered=len(site_chunks & labeled) / len(site_chunks),
                             copy_hosts_flagged=len({h for h in flagged if h.startswith("copy")}),
                             unrelated_hosts_flagged=len(flagged & self.unrelated_hosts),
                             neighborhood_threshold=r.detection_attrs["neighborhood_threshold"]))
        return rows

    def site_chunks(self):
        return {c for body in self.site.values() for c in ref.chunks(body)}

    # --- §6.3-6.4 ----------------------------------------------------------------------------------
    def labels(self):
        """{name: labels file}: L_expert, L_expert with the 100-byte rule, L_blind."""
        site_root = os.path.join(self.work, "site")
        if not os.path.isdir(site_root):
            for rel, body in self.site.items():
                write(os.path.join(site_root, SITE_HOST, rel), body)
        out = {}
        for name, extra in (("expert", ["--min-chunk-length", "0"]),
                            ("expert-100", ["--min-chunk-length", str(TEMPLATE_MIN_LENGTH)])):
            out[name] = self.out("labels-" + name)
            self.run(["label", site_root, "-o", out[name]] + extra)
        blind_d = self.s["threshold"] + 1
        out["blind"] = self.out("chunks-d%d" % blind_d)
        if not os.path.exists(out["blind"]):
            raise RuntimeError("the scale's copies must include threshold + 1 = %d (L_blind)" % blind_d)
        return out

    def detect(self, root, labels, name, extra=()):
        out = self.out(name)
        self.run(["detect", root, "--labels", labels, "-o", out, "--max-neighborhood-depth", "0"] + list(extra))
        return crd_results.open_results(out)

    def mutations(self, labels):
        baseline_root = self.corpus_with("baseline", {SITE_HOST: self.site})
        thresholds, templates = {}, []
        for name, path in labels.items():
            # The 100-byte rule is a stop rule: short chunks leave the pages too, as in §8.1.
            extra = ["--min-chunk-length", str(TEMPLATE_MIN_LENGTH)] if name == "expert-100" else []
            r = self.detect(baseline_root, path, "baseline-" + name, extra)
            a = r.detection_attrs
            thresholds[name] = (a["page_threshold"], a["neighborhood_threshold"])
            hoods = r.neighborhoods.set_index("prefix")
            unrelated = hoods.loc[sorted(self.unrelated_hosts)]
            worst = unrelated["badness"].idxmax()
            templates.append(dict(labels=name, labels_count=a["labels"], site_badness=hoods.loc[SITE_HOST, "badness"],
                                  site_flagged=int(hoods.loc[SITE_HOST, "flagged"]),
                                  worst_unrelated_host=worst, worst_unrelated_badness=unrelated.loc[worst, "badness"],
                                  unrelated_hosts_flagged=int(unrelated["flagged"].sum()),
                                  unrelated_pages_with_labels=int(((r.pages["labeled"] > 0) &
                                                                   ~r.pages["url"].str.startswith(SITE_HOST)).sum()),
                                  neighborhood_threshold=a["neighborhood_threshold"],
                                  mutation_run_unrelated_flagged=None))
        copies = {}
        for kind in KINDS:
            for x in self.s["xs"]:
                for seed in range(self.s["seeds"]):
                    rng = random.Random("%s/%s/%d" % (kind, x, seed))
                    n = round(x * self.cpp)
                    host = "%s-x%s-s%d.example" % (kind, x, seed)
                    copies[host] = {rel: self.mutate(body, kind, n, rng, ("%s %s" % (host, rel)).encode())
                                    for rel, body in sorted(self.site.items())}
        root = self.corpus_with("mutations", copies)
        rows = []
        for name in ("expert", "blind"):
            page_t, hood_t = thresholds[name]
            r = self.detect(root, labels[name], "mutations-" + name,
                            ["--page-threshold", repr(page_t), "--neighborhood-threshold", repr(hood_t)])
            pages, hoods = r.pages, r.neighborhoods.set_index("prefix")
            host_of = pages["url"].str.split("/", n=1).str[0]
            for kind in KINDS:
                for x in self.s["xs"]:
                    for seed in range(self.s["seeds"]):
                        host = "%s-x%s-s%d.example" % (kind, x, seed)
                        mine = pages[host_of == host]
                        rows.append(dict(labels=name, kind=kind, x=x, seed=seed, n=round(x * self.cpp),
                                         pages=len(mine), mean_chunks=float(mine["chunks"].mean()) if len(mine) else 0.0,
                                         # NaN once every page is deleted: no page left to score
                                         mean_containment=float(mine["containment"].mean()) if len(mine) else float("nan"),
                                         pages_flagged=int(mine["flagged"].sum()),
                                         flagged_fraction=float(mine["flagged"].sum()) / len(self.site),
                                         host_badness=float(hoods.loc[host, "badness"]) if host in hoods.index else 0.0,
                                         host_flagged=int(hoods.loc[host, "flagged"]) if host in hoods.index else 0,
                                         page_threshold=page_t, neighborhood_threshold=hood_t))
            flagged_unrelated = set(hoods.index[hoods["flagged"] == 1]) & self.unrelated_hosts
            templates[[t["labels"] for t in templates].index(name)]["mutation_run_unrelated_flagged"] = len(flagged_unrelated)
        return rows, templates


def mutate(body, kind, n, rng, tag):
    """The mutation model of §6.3 (one definition, used by every validation script): n new
    paragraphs added at random places (each naming its page by tag), n chunks deleted, or n random
    chunks with one character changed (with replacement)."""
    parts = spans(body)
    if kind == "add":
        for j in range(n):
            parts.insert(rng.randrange(len(parts) + 1), b"<p>added paragraph %d of %s</p>" % (j, tag))
    elif kind == "delete":
        for _ in range(min(n, len(parts))):
            parts.pop(rng.randrange(len(parts)))
    else:  # modify: one character of a random chunk, with replacement
        for _ in range(n):
            i = rng.randrange(len(parts))
            parts[i] = change_one_character(parts[i], rng)
    return b"\n".join(parts)


def change_one_character(span, rng):
    """span with one letter or digit of its text (outside tags) changed to another; a span without
    text gets one letter added before its end (the chunk changes, its boundaries do not)."""
    text_positions = [m.start() + i for m in re.finditer(rb">[^<]+", span)
                      for i in range(1, m.end() - m.start()) if chr(span[m.start() + i]).isalnum()]
    if span[:1] != b"<":
        text_positions += [i for i in range(0, span.find(b"<") if b"<" in span else len(span)) if chr(span[i]).isalnum()]
    if not text_positions:
        return span + b"x"
    i = rng.choice(text_positions)
    old = chr(span[i])
    new = rng.choice([c for c in "abcdefghijklmnopqrstuvwxyz0123456789" if c != old.lower()])
    return span[:i] + new.encode() + span[i + 1:]


def mean_by(rows, key, **where):
    """{x: mean of key} over rows matching where, averaged over seeds."""
    out = {}
    for r in rows:
        if r[key] != r[key]:  # NaN: nothing left to average
            continue
        if all(r[k] == v for k, v in where.items()):
            out.setdefault(r["x"], []).append(r[key])
    return {x: sum(v) / len(v) for x, v in sorted(out.items())}


def crossing(curve, threshold):
    """The x (× cpp) where a falling curve first reaches threshold, linearly interpolated; None when
    it never falls to it within the range measured."""
    pts = sorted(curve.items())
    for (x0, y0), (x1, y1) in zip(pts, pts[1:]):
        if y0 > threshold >= y1:
            return x0 + (x1 - x0) * (y0 - threshold) / (y0 - y1)
    return None if pts and pts[0][1] > threshold else 0.0


def summarize(e, injection, mutation_rows, templates):
    tolerance = {}
    for name in ("expert", "blind"):
        for kind in KINDS:
            rows = [r for r in mutation_rows if r["labels"] == name]
            page_t, hood_t = rows[0]["page_threshold"], rows[0]["neighborhood_threshold"]
            tolerance["%s/%s/pages" % (kind, name)] = crossing(mean_by(rows, "mean_containment", kind=kind), page_t)
            tolerance["%s/%s/neighborhoods" % (kind, name)] = crossing(mean_by(rows, "host_badness", kind=kind), hood_t)
            # The same curves against the paper's own page threshold (0.144, §6.3), for comparison.
            tolerance["%s/%s/pages@0.144" % (kind, name)] = crossing(mean_by(rows, "mean_containment", kind=kind), 0.144)
    thresholds = {name: dict(page=[r for r in mutation_rows if r["labels"] == name][0]["page_threshold"],
                             neighborhood=[r for r in mutation_rows if r["labels"] == name][0]["neighborhood_threshold"])
                  for name in ("expert", "blind")}
    return dict(scale=e.scale, site_pages=len(e.site), cpp=e.cpp, unrelated_hosts=sorted(e.unrelated_hosts),
                thresholds=thresholds,
                tolerance=tolerance, paper=dict(pages={"%s/%s" % k: v for k, v in PAPER["pages"].items()},
                                                neighborhoods=PAPER["neighborhoods"]),
                templates=templates, crd_runs=len(e.runs))


def write_csv(path, rows):
    with open(path, "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(rows[0]))
        w.writeheader()
        w.writerows(rows)


def plot(outdir, injection, rows):
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:  # the figures are optional; the CSVs hold every number
        return []
    made = []
    fig, ax = plt.subplots(figsize=(5, 3.5))
    ds = [r["d"] for r in injection]
    ax.plot(ds, [100 * r["files_discovered"] for r in injection], "s-", label="files (exact copies)")
    ax.plot(ds, [100 * r["chunks_discovered"] for r in injection], "^-", label="distinct chunks (copies + ads)")
    ax.axvline(injection[0]["threshold"], color="red", ls=":", label="threshold T")
    ax.set_xscale("log")
    ax.set_xlabel("copies d of the site")
    ax.set_ylabel("% of the site discovered")
    ax.legend(fontsize=8)
    ax.set_title("§6.2: injected duplicates (Figs. 1-3)")
    fig.tight_layout()
    fig.savefig(os.path.join(outdir, "injection.png"), dpi=120)
    made.append("injection.png")
    plt.close(fig)
    for unit, key, tkey in (("pages", "mean_containment", "page_threshold"),
                            ("neighborhoods", "host_badness", "neighborhood_threshold")):
        fig, axes = plt.subplots(1, 3, figsize=(12, 3.5), sharey=True)
        for ax, kind in zip(axes, KINDS):
            for name, color in (("blind", "tab:blue"), ("expert", "tab:green")):
                sel = [r for r in rows if r["labels"] == name]
                curve = mean_by(sel, key, kind=kind)
                ax.plot(list(curve), list(curve.values()), "o-", color=color, label="L_" + name)
                ax.axhline(sel[0][tkey], color=color, ls=":", lw=1)
            ax.set_title("%s (%s)" % (kind, unit))
            ax.set_xlabel("mutations per page (× cpp)")
        axes[0].set_ylabel("mean containment" if unit == "pages" else "host badness")
        axes[0].legend(fontsize=8)
        fig.suptitle("§6.%s: dotted = fixed thresholds from the baseline run" % ("3" if unit == "pages" else "4"))
        fig.tight_layout()
        name = "mutations-%s.png" % unit
        fig.savefig(os.path.join(outdir, name), dpi=120)
        made.append(name)
        plt.close(fig)
    fig, ax = plt.subplots(figsize=(5, 3.5))
    for name, color in (("blind", "tab:blue"), ("expert", "tab:green")):
        for kind, style in (("modify", "o-"), ("add", "s--")):
            curve = mean_by([r for r in rows if r["labels"] == name], "flagged_fraction", kind=kind)
            ax.plot(list(curve), [100 * v for v in curve.values()], style, color=color, label="%s, L_%s" % (kind, name))
    ax.set_xlabel("mutations per page (× cpp)")
    ax.set_ylabel("% of the site's pages flagged")
    ax.legend(fontsize=8)
    ax.set_title("Fig. 7: pages detected as mutations grow")
    fig.tight_layout()
    fig.savefig(os.path.join(outdir, "flagged-pages.png"), dpi=120)
    made.append("flagged-pages.png")
    plt.close(fig)
    return made


def run_all(crd, corpus, outdir, scale="full", nranks=2, mpirun=None, keep_work=False):
    """Runs every experiment; writes the CSVs, figures and summary.json into outdir; returns
    (injection rows, mutation rows, summary)."""
    for need in (SPHINX_HTML, PYTHON_HTML, DEBREF):
        if not os.path.isdir(os.path.join(corpus, need)):
            raise FileNotFoundError("corpus lacks %s (run scripts/fetch_corpus.sh)" % need)
    if mpirun is None:
        mpirun = ["mpirun", "-np", str(nranks), "--oversubscribe"] + (["--allow-run-as-root"] if os.geteuid() == 0 else [])
    os.makedirs(outdir, exist_ok=True)
    work = tempfile.mkdtemp(prefix="crd-validation-")
    try:
        e = Experiment(crd, corpus, work, scale, nranks, mpirun)
        injection = e.injection()
        labels = e.labels()
        mutation_rows, templates = e.mutations(labels)
        summary = summarize(e, injection, mutation_rows, templates)
        write_csv(os.path.join(outdir, "injection.csv"), injection)
        write_csv(os.path.join(outdir, "mutations.csv"), mutation_rows)
        write_csv(os.path.join(outdir, "templates.csv"), templates)
        summary["figures"] = plot(outdir, injection, mutation_rows)
        with open(os.path.join(outdir, "summary.json"), "w") as f:
            json.dump(summary, f, indent=1, sort_keys=True, default=float)
        return injection, mutation_rows, summary
    finally:
        if not keep_work:
            shutil.rmtree(work, ignore_errors=True)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--crd", default=os.path.join(ROOT, "build", "crd"))
    ap.add_argument("--corpus", default=os.path.join(ROOT, ".cache", "corpus"))
    ap.add_argument("--out", default=os.path.join(HERE, "results"))
    ap.add_argument("--scale", choices=sorted(SCALES), default="full")
    ap.add_argument("--nranks", type=int, default=2)
    ap.add_argument("--keep-work", action="store_true", help="keep the generated corpora and result files")
    a = ap.parse_args()
    _, _, summary = run_all(a.crd, a.corpus, a.out, a.scale, a.nranks, keep_work=a.keep_work)
    json.dump({k: summary[k] for k in ("cpp", "tolerance", "templates")}, sys.stdout, indent=1, default=float)
    print()


if __name__ == "__main__":
    main()
