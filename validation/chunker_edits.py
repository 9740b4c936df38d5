#!/usr/bin/python3
"""Exact paragraphs, sentences and winnowed grams on the same edited copies: the
paper's §6.3 mutations (add, modify) run once per chunker, on the same pages, against a background
of real sites large enough to measure false-positive pages near 10⁻⁴.

    scripts/fetch_corpus.sh .cache/background apache2-doc bind9-doc cmake-doc debian-policy \\
        developers-reference git-doc gnuplot-doc libboost1.81-doc libglib2.0-doc libgtk-3-doc \\
        libstdc++-12-doc postgresql-doc-15 python-django-doc r-doc-html
    scripts/fetch_corpus.sh .cache/background2 erlang-doc maxima-doc nodejs-doc octave-doc \\
        openjdk-17-doc vim-doc xapian-doc
    /usr/bin/python3 validation/chunker_edits.py --crd build/crd --corpus /work/corpus \\
        --background .cache/background --out validation/results --page-threshold binomial
    /usr/bin/python3 validation/chunker_edits.py ... (the same, the automatic threshold: chunker_edits.csv)
    /usr/bin/python3 validation/chunker_edits.py ... --background .cache/background2 --chunkers winnow \\
        --page-threshold binomial --tag 30k

Site S is paper_validation.py's (the first 60 sphinx-doc pages, cpp = S's mean scan chunks per
page). The background is paper_validation.py's 15 hosts (debian-reference, one host per Python
documentation directory), plus one host per package directory under --background (its HTML
root, so the host's paths are the site's own), plus the real crawl of iana.org in
../shared/data/warc-samples/iana.warc.gz when that folder exists. Copies: for each kind (add,
modify) and x, --copies mirror hosts of S, each page mutated n = x · cpp times with its own seed.

For each chunker (scan and sentence with the 100-byte rule of informed runs, winnow without it):
L_expert = every chunk of S (`crd label`), then one `crd detect` over background
+ all copies with every neighborhood depth scored, the page threshold given by --page-threshold
(auto and robust resolved on a baseline run, background + one unmutated copy, then fixed, as the
paper fixes its thresholds; binomial and numbers as given) and the neighborhood threshold auto,
from the same baseline.
Writes chunker_edits.csv (one row per chunker, kind, x: copy pages flagged, copy neighborhoods
flagged, copy hosts flagged; false-positive pages, neighborhoods and hosts of the background) and
prints the table. docs/validation.md ("Edits") has the numbers.
"""
from __future__ import annotations

import argparse
import csv
import os
import random
import shutil
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import paper_validation as pv  # noqa: E402  (site, background, mutations and crd runs)

# Each chunker with its informed-run setting: the exact chunkers with the 100-byte stop rule that
# docs/validation.md makes the default of informed runs (template chunks are short); winnow without
# it, since its chunks are K-word grams of about 30 bytes (docs/winnow.md, "Using it").
# (--exact-min-chunk-length changes it: 0 shows what template chunks do without it.)
CHUNKERS = {"scan": [], "sentence": ["--chunker", "sentence"], "winnow": ["--chunker", "winnow"]}
EXACT = ("scan", "sentence")
KINDS = ("add", "modify")
XS = (0.5, 1, 2, 4)
IANA_WARC = os.path.join(pv.ROOT, "..", "shared", "data", "warc-samples", "iana.warc.gz")


def add_background(e, background):
    """Links one host per package directory of `background` (its HTML files' deepest common folder)."""
    background = os.path.abspath(background) if background else None
    for package in sorted(os.listdir(background)) if background else []:
        files = pv.html_files(os.path.join(background, package))
        if not files:
            continue
        host = "%s.example" % package.replace("+", "p").replace(".", "-")
        root = os.path.commonpath([os.path.dirname(f) for f in files])
        pv.link_tree(root, os.path.join(e.background, host), files)
        e.unrelated_hosts.add(host)


def copy_host(kind, x, c):
    return "%s-x%s-c%d.example" % (kind, x, c)


def experiment(e, chunkers, xs, ncopies, page_rule, inputs_extra, dump=None, exact_min_length=100):
    site_root = os.path.join(e.work, "site")
    for rel, body in e.site.items():
        pv.write(os.path.join(site_root, pv.SITE_HOST, rel), body)
    copies = {}
    for kind in KINDS:
        for x in xs:
            for c in range(ncopies):
                rng = random.Random("%s/%s/%d" % (kind, x, c))
                host = copy_host(kind, x, c)
                copies[host] = {rel: e.mutate(body, kind, round(x * e.cpp), rng, ("%s %s" % (host, rel)).encode())
                                for rel, body in sorted(e.site.items())}
    root = e.corpus_with("edits", copies)
    baseline_root = e.corpus_with("edits-baseline", {pv.SITE_HOST: e.site})
    depth = ["--max-neighborhood-depth", "-1"]
    rows = []
    for name in chunkers:
        chunker = CHUNKERS[name] + (["--min-chunk-length", str(exact_min_length)] if name in EXACT else [])
        labels = e.out("edits-labels-" + name)
        e.run(["label", site_root, "-o", labels] + chunker)
        # Population rules (auto, robust) are resolved once on the baseline, background + one unmutated
        # copy, and then fixed, as the paper fixes its thresholds (§6.4); binomial and numbers need no
        # population and are passed as given.
        base = e.out("edits-baseline-" + name)
        e.run(["detect", baseline_root] + inputs_extra + ["--labels", labels, "-o", base, "--page-threshold", page_rule]
              + depth + chunker)
        a = pv.crd_results.open_results(base).detection_attrs
        population_rule = page_rule == "auto" or page_rule.startswith("robust")
        page_arg = repr(a["page_threshold"]) if population_rule else page_rule
        out = e.out("edits-" + name)
        e.run(["detect", root] + inputs_extra + ["--labels", labels, "-o", out, "--page-threshold", page_arg,
                                                 "--neighborhood-threshold", repr(a["neighborhood_threshold"])]
              + depth + chunker)
        r = pv.crd_results.open_results(out)
        page_t, hood_t = r.detection_attrs["page_threshold"], r.detection_attrs["neighborhood_threshold"]
        pages, hoods = r.pages, r.neighborhoods
        host_of = pages["url"].str.split("/", n=1).str[0]
        hood_host = hoods["prefix"].str.split("/", n=1).str[0]
        is_copy, hood_is_copy = host_of.isin(copies), hood_host.isin(copies)
        background, bg_hoods = pages[~is_copy], hoods[~hood_is_copy]
        bg_hosts = bg_hoods[bg_hoods["depth"] == 0]
        if dump:
            os.makedirs(dump, exist_ok=True)
            pages.assign(chunker=name).to_csv(os.path.join(dump, "pages-%s.csv" % name), index=False)
        for kind in KINDS:
            for x in xs:
                hosts = [copy_host(kind, x, c) for c in range(ncopies)]
                mine, my_hoods = pages[host_of.isin(hosts)], hoods[hood_host.isin(hosts)]
                my_hosts = my_hoods[my_hoods["depth"] == 0]
                rows.append(dict(chunker=name, kind=kind, x=x, n=round(x * e.cpp), copy_hosts=ncopies,
                                 copy_pages=ncopies * len(e.site),
                                 pages_flagged_fraction=float(mine["flagged"].sum()) / (ncopies * len(e.site)),
                                 mean_containment=float(mine["containment"].mean()) if len(mine) else float("nan"),
                                 copy_neighborhoods=len(my_hoods),
                                 neighborhoods_flagged_fraction=float(my_hoods["flagged"].mean()),
                                 hosts_flagged=int(my_hosts["flagged"].sum()),
                                 background_pages=len(background), false_positive_pages=int(background["flagged"].sum()),
                                 background_neighborhoods=len(bg_hoods),
                                 false_positive_neighborhoods=int(bg_hoods["flagged"].sum()),
                                 background_hosts=len(bg_hosts), false_positive_hosts=int(bg_hosts["flagged"].sum()),
                                 page_rule=page_rule, min_chunk_length=exact_min_length if name in EXACT else 0,
                                 page_threshold=page_t, neighborhood_threshold=hood_t,
                                 background_max_containment=float(background["containment"].max())))
    return rows


def plot(path, rows):
    """One curve per chunker and kind: copy pages flagged, copy neighborhoods flagged (optional figure)."""
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:  # the CSV holds every number
        return
    fig, axes = plt.subplots(1, 2, figsize=(10, 3.8), sharey=True)
    colors = {"scan": "tab:gray", "sentence": "tab:blue", "winnow": "tab:green"}
    for ax, key, unit in zip(axes, ("pages_flagged_fraction", "neighborhoods_flagged_fraction"), ("pages", "neighborhoods")):
        for name in dict.fromkeys(r["chunker"] for r in rows):
            for kind, style in (("modify", "o-"), ("add", "s--")):
                sel = [r for r in rows if r["chunker"] == name and r["kind"] == kind]
                ax.plot([r["x"] for r in sel], [100 * r[key] for r in sel], style, color=colors.get(name), label="%s, %s" % (name, kind))
        ax.axhline(90, color="red", ls=":", lw=1)
        ax.set_xscale("log", base=2)
        ax.set_xlabel("edits per page (× cpp)")
        ax.set_title("copy %s flagged (%s)" % (unit, "page rule " + rows[0]["page_rule"] if unit == "pages"
                                               else "auto threshold from the baseline"))
    axes[0].set_ylabel("% flagged")
    axes[0].legend(fontsize=7)
    r0 = rows[0]
    fig.suptitle("background: %d pages, %d neighborhoods, %d hosts; false positives: %d pages, %d neighborhoods"
                 % (r0["background_pages"], r0["background_neighborhoods"], r0["background_hosts"],
                    max(r["false_positive_pages"] for r in rows), max(r["false_positive_neighborhoods"] for r in rows)),
                 fontsize=9)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--crd", default=os.path.join(pv.ROOT, "build", "crd"))
    ap.add_argument("--corpus", default=os.path.join(pv.ROOT, ".cache", "corpus"))
    ap.add_argument("--background", action="append", default=[],
                    help="folder of extra real sites, one per subfolder (scripts/fetch_corpus.sh); repeatable")
    ap.add_argument("--tag", help="suffix of the output names (chunker_edits[-RULE][-TAG].csv)")
    ap.add_argument("--out", default=os.path.join(HERE, "results"))
    ap.add_argument("--nranks", type=int, default=2)
    ap.add_argument("--copies", type=int, default=3, help="mirror hosts per kind and x")
    ap.add_argument("--chunkers", default=",".join(CHUNKERS))
    ap.add_argument("--page-threshold", default="auto", help="crd detect's --page-threshold for every chunker")
    ap.add_argument("--exact-min-chunk-length", type=int, default=100,
                    help="--min-chunk-length of scan and sentence, in label and detect (docs/validation.md: 100)")
    ap.add_argument("--dump", help="also write each chunker's page table here (pages-CHUNKER.csv)")
    a = ap.parse_args()
    for need in (pv.SPHINX_HTML, pv.PYTHON_HTML, pv.DEBREF):
        if not os.path.isdir(os.path.join(a.corpus, need)):
            sys.exit("corpus lacks %s (run scripts/fetch_corpus.sh)" % need)
    mpirun = ["mpirun", "-np", str(a.nranks), "--oversubscribe"] + (["--allow-run-as-root"] if os.geteuid() == 0 else [])
    extra = [os.path.abspath(IANA_WARC)] if os.path.exists(IANA_WARC) else []
    work = tempfile.mkdtemp(prefix="crd-chunker-edits-")
    try:
        e = pv.Experiment(a.crd, a.corpus, work, "full", a.nranks, mpirun)
        for background in a.background:
            add_background(e, background)
        rows = experiment(e, a.chunkers.split(","), XS, a.copies, a.page_threshold, extra, a.dump,
                          a.exact_min_chunk_length)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    os.makedirs(a.out, exist_ok=True)
    name = "chunker_edits" if a.page_threshold == "auto" else "chunker_edits-%s" % a.page_threshold.replace(":", "-")
    name += "-" + a.tag if a.tag else ""
    with open(os.path.join(a.out, name + ".csv"), "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(rows[0]))
        w.writeheader()
        w.writerows(rows)
    plot(os.path.join(a.out, name + ".png"), rows)
    r0 = rows[0]
    print("cpp %.1f; background %d pages, %d neighborhoods, %d hosts; %d copy hosts per kind and x"
          % (e.cpp, r0["background_pages"], r0["background_neighborhoods"], r0["background_hosts"], a.copies))
    for r in rows:
        print("%-8s %-6s x=%-3s n=%-4d pages %5.1f%% (t %.4f)  neighborhoods %5.1f%%  hosts %d/%d  containment %.3f"
              "  | FP pages %d neighborhoods %d hosts %d (worst page %.3f)"
              % (r["chunker"], r["kind"], r["x"], r["n"], 100 * r["pages_flagged_fraction"], r["page_threshold"],
                 100 * r["neighborhoods_flagged_fraction"], r["hosts_flagged"], r["copy_hosts"], r["mean_containment"],
                 r["false_positive_pages"], r["false_positive_neighborhoods"], r["false_positive_hosts"],
                 r["background_max_containment"]))


if __name__ == "__main__":
    main()
