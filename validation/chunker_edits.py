#!/usr/bin/python3
"""Exact paragraphs, sentences and winnowed grams on the same edited copies (issue 35): the
paper's §6.3 mutations (add, modify) run once per chunker, on the same pages.

    /usr/bin/python3 validation/chunker_edits.py --crd build/crd --corpus /work/corpus --out validation/results

Site S, background and mutations are paper_validation.py's at its full scale: S = the first 60
sphinx-doc pages, background = debian-reference and one host per Python documentation directory
(15 real hosts, 545 pages), each mutated copy of S (n = x · cpp edits per page, cpp = S's mean scan
chunks per page) its own host. For each chunker: L_expert = every chunk of S (`crd label`), the
page and host thresholds fixed from a baseline run (background + one unmutated copy, automatic
thresholds, as the paper fixes them, §6.4), then one `crd detect` over background + all copies.
Writes chunker_edits.csv (one row per chunker, kind, x: copy pages flagged, copy pages above every
background page's containment, mean containment, host flagged; false-positive pages and hosts of
the background) and prints the table. docs/validation.md has the numbers.
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

CHUNKERS = {"scan": [], "sentence": ["--chunker", "sentence"], "winnow": ["--chunker", "winnow"]}
KINDS = ("add", "modify")
XS = (0.5, 1, 2, 4)


def experiment(e, chunkers, xs, fixed_page_threshold=None):
    site_root = os.path.join(e.work, "site")
    for rel, body in e.site.items():
        pv.write(os.path.join(site_root, pv.SITE_HOST, rel), body)
    baseline_root = e.corpus_with("edits-baseline", {pv.SITE_HOST: e.site})
    copies = {}
    for kind in KINDS:
        for x in xs:
            rng = random.Random("%s/%s/0" % (kind, x))
            host = "%s-x%s.example" % (kind, x)
            copies[host] = {rel: e.mutate(body, kind, round(x * e.cpp), rng, ("%s %s" % (host, rel)).encode())
                            for rel, body in sorted(e.site.items())}
    root = e.corpus_with("edits", copies)
    rows = []
    for name in chunkers:
        chunker = CHUNKERS[name]
        labels = e.out("edits-labels-" + name)
        e.run(["label", site_root, "-o", labels] + chunker)
        base = e.detect(baseline_root, labels, "edits-baseline-" + name, chunker)
        page_t, hood_t = base.detection_attrs["page_threshold"], base.detection_attrs["neighborhood_threshold"]
        if fixed_page_threshold is not None:
            page_t = fixed_page_threshold
        r = e.detect(root, labels, "edits-" + name,
                     chunker + ["--page-threshold", repr(page_t), "--neighborhood-threshold", repr(hood_t)])
        pages, hoods = r.pages, r.neighborhoods.set_index("prefix")
        host_of = pages["url"].str.split("/", n=1).str[0]
        background = pages[host_of.isin(e.unrelated_hosts)]
        fp_pages = int(background["flagged"].sum())
        fp_hosts = len(set(hoods.index[hoods["flagged"] == 1]) & e.unrelated_hosts)
        # The lowest page threshold at which no background page is flagged: what the chunker could
        # reach with a threshold fitted to this background (an upper bound, not a fixed rule).
        quiet = float(background["containment"].max())
        for kind in KINDS:
            for x in xs:
                host = "%s-x%s.example" % (kind, x)
                mine = pages[host_of == host]
                rows.append(dict(chunker=name, kind=kind, x=x, n=round(x * e.cpp), pages=len(mine),
                                 pages_flagged_fraction=float(mine["flagged"].sum()) / len(e.site),
                                 pages_above_background_fraction=float((mine["containment"] > quiet).sum()) / len(e.site),
                                 mean_containment=float(mine["containment"].mean()) if len(mine) else float("nan"),
                                 host_flagged=int(hoods.loc[host, "flagged"]) if host in hoods.index else 0,
                                 host_badness=float(hoods.loc[host, "badness"]) if host in hoods.index else 0.0,
                                 background_pages=len(background), false_positive_pages=fp_pages,
                                 false_positive_hosts=fp_hosts, page_threshold=page_t, neighborhood_threshold=hood_t,
                                 background_max_containment=quiet))
    return rows


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--crd", default=os.path.join(pv.ROOT, "build", "crd"))
    ap.add_argument("--corpus", default=os.path.join(pv.ROOT, ".cache", "corpus"))
    ap.add_argument("--out", default=os.path.join(HERE, "results"))
    ap.add_argument("--nranks", type=int, default=2)
    ap.add_argument("--chunkers", default=",".join(CHUNKERS))
    ap.add_argument("--page-threshold", type=float, help="one fixed page threshold for every chunker (e.g. the paper's "
                    "0.144) instead of each baseline's automatic one")
    a = ap.parse_args()
    for need in (pv.SPHINX_HTML, pv.PYTHON_HTML, pv.DEBREF):
        if not os.path.isdir(os.path.join(a.corpus, need)):
            sys.exit("corpus lacks %s (run scripts/fetch_corpus.sh)" % need)
    mpirun = ["mpirun", "-np", str(a.nranks), "--oversubscribe"] + (["--allow-run-as-root"] if os.geteuid() == 0 else [])
    work = tempfile.mkdtemp(prefix="crd-chunker-edits-")
    try:
        e = pv.Experiment(a.crd, a.corpus, work, "full", a.nranks, mpirun)
        rows = experiment(e, a.chunkers.split(","), XS, a.page_threshold)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    os.makedirs(a.out, exist_ok=True)
    name = "chunker_edits.csv" if a.page_threshold is None else "chunker_edits-t%s.csv" % a.page_threshold
    with open(os.path.join(a.out, name), "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(rows[0]))
        w.writeheader()
        w.writerows(rows)
    print("cpp %.1f; background %d pages, %d hosts" % (e.cpp, rows[0]["background_pages"], len(e.unrelated_hosts)))
    for r in rows:
        print("%-8s %-6s x=%-3s n=%-4d pages flagged %5.1f%% (t %.3f), above background %5.1f%% (t %.3f)  "
              "containment %.3f  host %s  | FP pages %d hosts %d"
              % (r["chunker"], r["kind"], r["x"], r["n"], 100 * r["pages_flagged_fraction"], r["page_threshold"],
                 100 * r["pages_above_background_fraction"], r["background_max_containment"], r["mean_containment"],
                 "FLAG" if r["host_flagged"] else "-", r["false_positive_pages"], r["false_positive_hosts"]))


if __name__ == "__main__":
    main()
