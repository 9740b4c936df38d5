#!/usr/bin/python3
"""Detection that survives edits, for any labeled set: three labeled sets of different kinds, each
against a real background that does not contain it, split into a development part and a held-out
part by host. The mutation model is paper_validation.py's (`mutate`: add, delete, modify at
n = x · cpp, the labeled set's mean scan chunks per page).

    V=/work/valdata   # read-only: background/ background2/ background3/ corpus/ (Debian doc packages)
    /usr/bin/python3 validation/winnow_labeled_sets.py --crd build/crd --valdata $V --nranks 2 \\
        --out validation/results                                  # winnow_labeled_sets.csv, -fp.csv
    /usr/bin/python3 validation/winnow_labeled_sets.py ... --parts dev --sets python --rules winnow,winnow-xhost \\
        --work /tmp/W --keep         # development part only (choose constants), crawl and results kept
    /usr/bin/python3 validation/winnow_labeled_sets.py ... --sets postgresql --tag postgresql   # one set a run
    /usr/bin/python3 validation/winnow_labeled_sets.py ... --crd OTHER/crd --crd-commit HASH --tag relstop-postgresql \\
        --sets postgresql --rules '' --rule 'winnow-hs0=--chunker winnow::--host-stop-pages 0'

Labeled sets (SETS): `postgresql` (a database manual, postgresql-doc-15's HTML), `python` (a
language reference with generated index pages, python3.11-doc's HTML), `java.base` (API pages and
license text: OpenJDK 17's javadoc module java.base). Each is labeled whole (`crd label`, site host
site.example). Mirrors: for each kind and x (--xs, 2 by default), --copies hosts, every page
mutated with its own seed.

Background: one host per Debian package under --valdata (its HTML root, so a host's paths are the
package's own), without the package the labeled set comes from (so java.base's background holds no
other OpenJDK module either). Split by host: the **development part** is every package of
background/, background2/ and corpus/ (the hosts the earlier measurements looked at, and where any
rate may be fitted); the **held-out part** is every package of background3/ (never looked at before
these runs; reported). DEV_PARTS and HELD_OUT_PARTS say it once.

Rules (RULES, all but winnow-xhost unless --rules names them; one `crd label` per chunker, one `crd detect` per labeled set and rule over the
background and all mirrors, hosts only: `--max-neighborhood-depth 0`). A host is flagged when its
badness exceeds the `auto` threshold of the paper's baseline run (background + one unmutated copy),
computed from this run's background hosts (baseline_host_threshold); the run's own `auto`, pulled
up by the 9 mirrors, is reported beside it:
  winnow       --chunker winnow, no --page-threshold (the binomial rule, its default) and the
               chunker's default stop grams per host (--host-stop-pages 20, relative to the site)
               and across hosts (--cross-host-stop-hosts 4; a crd from before that default: none)
  winnow-fit   --chunker winnow --page-threshold binomial:fit (R measured from the run's pages)
  winnow+scan  --chunker winnow+scan (binomial on each part; level ≤ 2α)
  winnow-xhost --chunker winnow with the stop grams across hosts (--cross-host-stop-hosts 4
               --cross-host-stop-cut 0.02: grams that pages of 4 or more hosts hold below 2 %
               containment are phrasing; docs/winnow.md, "Phrasing shared across hosts"); now
               the default, so the same rows as winnow with a crd that has that default
  winnow-xhost0 --chunker winnow without the stop grams across hosts (--cross-host-stop-hosts 0:
               the default before them)
  scan         the scan chunker with the 100-byte rule and --page-threshold binomial (reference)
--rule NAME=LABEL_AND_DETECT_ARGS::DETECT_ONLY_ARGS adds one (repeatable), e.g. another binary's rule.

Writes winnow_labeled_sets[-TAG].csv: one row per labeled set, rule, kind and x (mirror pages
flagged as a share of ALL mirror pages written, scored or not; mirror pages left non-empty by the
mutation, and scored; mirror hosts flagged) with the background columns of that run (pages, false-positive pages and hosts, of the
held-out and development parts separately; the crd commit); winnow_labeled_sets[-TAG]-fp.csv: every
false-positive page (set, rule, part, url, chunks, labeled, containment). Prints the table.
docs/validation.md ("Labeled sets") has the numbers.
"""
from __future__ import annotations

import argparse
import csv
import os
import random
import shlex
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import paper_validation as pv  # noqa: E402  (mutation model, corpus helpers, crd_results, reference chunker)

# name: (package folder under --valdata, HTML root inside it). A set's package leaves its background.
SETS = {
    "postgresql": ("background/postgresql-doc-15", "usr/share/doc/postgresql-doc-15/html"),
    "python": ("corpus/python3.11-doc", "usr/share/doc/python3.11/html"),
    "java.base": ("background2/openjdk-17-doc", "usr/share/doc/openjdk-17-jre-headless/api/java.base"),
}
DEV_PARTS = ("background", "background2", "corpus")
HELD_OUT_PARTS = ("background3",)
KINDS = ("modify", "add", "delete")
# name: (chunker arguments of label and detect, detect-only arguments).
RULES = {
    "winnow": (["--chunker", "winnow"], []),
    "winnow-fit": (["--chunker", "winnow"], ["--page-threshold", "binomial:fit"]),
    "winnow+scan": (["--chunker", "winnow+scan"], []),
    "winnow-xhost": (["--chunker", "winnow"], ["--cross-host-stop-hosts", "4", "--cross-host-stop-cut", "0.02"]),
    "winnow-xhost0": (["--chunker", "winnow"], ["--cross-host-stop-hosts", "0"]),
    "scan": (["--min-chunk-length", "100"], ["--page-threshold", "binomial"]),
}
# --rules when not given: every rule but winnow-xhost, which now repeats winnow's (the default).
DEFAULT_RULES = [n for n in RULES if n != "winnow-xhost"]


def host_name(package):
    return "%s.example" % package.replace("+", "p").replace(".", "-")


def background_hosts(valdata, exclude_package, parts=("dev", "held-out")):
    """[(host, part, HTML root, files)] for every package under the parts of --valdata but the
    labeled set's own; part is "dev" or "held-out" (by the folder the package lies in). parts: the
    parts to crawl (--parts dev: choose a constant without the held-out pages in the run at all,
    as a rule fitted from the crawl would otherwise see them; --parts held-out: check it on the
    held-out part crawled alone, as the constant was chosen on the development part alone)."""
    out = []
    for part, folders in (("dev", DEV_PARTS), ("held-out", HELD_OUT_PARTS)):
        if part not in parts:
            continue
        for folder in folders:
            base = os.path.join(valdata, folder)
            for package in sorted(os.listdir(base)) if os.path.isdir(base) else []:
                if os.path.join(folder, package) == exclude_package:
                    continue
                files = pv.html_files(os.path.join(base, package))
                if files:
                    root = os.path.commonpath([os.path.dirname(f) for f in files])
                    out.append((host_name(package), part, root, files))
    return out


def mirror_host(kind, x, c):
    return "%s-x%s-c%d.example" % (kind, x, c)


def mirrors(site, cpp, kinds, xs, ncopies):
    """{host: {rel: bytes}}: ncopies mirror hosts per kind and x, each page mutated with its own seed."""
    out = {}
    for kind in kinds:
        for x in xs:
            for c in range(ncopies):
                rng = random.Random("%s/%s/%d" % (kind, x, c))
                host = mirror_host(kind, x, c)
                out[host] = {rel: pv.mutate(body, kind, round(x * cpp), rng, ("%s %s" % (host, rel)).encode())
                             for rel, body in sorted(site.items())}
    return out


def crd_commit(crd):
    proc = subprocess.run(["git", "-C", os.path.dirname(os.path.abspath(crd)), "log", "-1", "--format=%h"],
                          stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    return proc.stdout.decode().strip() or "unknown"


class Runner:
    def __init__(self, crd, nranks, work):
        self.crd, self.work = crd, work
        self.mpirun = ["mpirun", "-np", str(nranks), "--oversubscribe"] + (["--allow-run-as-root"] if os.geteuid() == 0 else [])

    def run(self, args):
        cmd = self.mpirun + [self.crd] + args + ["--progress-interval", "0"]
        proc = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        if proc.returncode != 0:
            raise RuntimeError("crd failed: %s\n%s" % (" ".join(cmd), proc.stderr.decode(errors="replace")[-3000:]))


def baseline_host_threshold(badness):
    """The `auto` host threshold of the paper's baseline run (background + one unmutated copy of the
    labeled set; §6.4 fixes thresholds from it): mean + population σ over the background hosts'
    badness and the copy's, which is 1 (every chunk of an unmutated page is labeled). A page's
    containment does not depend on the other pages of the crawl, so the background hosts' badness
    in this run is theirs in the baseline: no second detect is needed."""
    values = list(badness) + [1.0]
    mean = sum(values) / len(values)
    return mean + (sum((v - mean) ** 2 for v in values) / len(values)) ** 0.5


def score(name, rule, pages, hoods, site_pages, hosts, kinds, xs, ncopies, attrs, commit, nonempty, or_run_flags=False):
    """The rows of one detect run, and its false-positive pages. Hosts are flagged at the baseline
    threshold (baseline_host_threshold); the run's own `auto` flags are reported beside it. With
    or_run_flags (a rule giving --neighborhood-min-flagged, which should also give
    --neighborhood-threshold 1 so that crd flags hosts by that rule alone), a host crd flags counts
    as flagged too: the baseline badness rule or the share of flagged pages."""
    host_of = pages["url"].str.split("/", n=1).str[0]
    part_of = {h: part for h, part, _, _ in hosts}
    host_hoods = hoods[hoods["depth"] == 0].set_index("prefix")
    t = baseline_host_threshold(host_hoods["badness"][host_hoods.index.isin(list(part_of))])
    host_flagged = {h: bool(host_hoods.loc[h, "badness"] > t) for h in host_hoods.index}
    run_flagged = {h: bool(host_hoods.loc[h, "flagged"]) for h in host_hoods.index}
    if or_run_flags:  # crd's own host verdicts count too
        host_flagged = {h: host_flagged[h] or run_flagged[h] for h in host_hoods.index}
    common = dict(set=name, rule=rule, crd_commit=commit, site_pages=site_pages,
                  page_threshold=attrs["page_threshold"], host_threshold=t,
                  run_auto_host_threshold=attrs["neighborhood_threshold"])
    for part in ("held-out", "dev"):
        mine = pages[host_of.map(part_of) == part]
        part_hosts = [h for h, p in part_of.items() if p == part]
        flagged_hosts = [h for h in part_hosts if host_flagged.get(h)]
        key = part.replace("-", "_")
        # The false-positive rate is over every page of the part, scored or not (a page with no
        # chunk cannot be flagged; it is not a page the rule was spared).
        common.update({"%s_hosts" % key: len(part_hosts),
                       "%s_pages" % key: sum(len(f) for _, p, _, f in hosts if p == part),
                       "%s_pages_scored" % key: len(mine),
                       "%s_fp_pages" % key: int(mine["flagged"].sum()),
                       "%s_fp_hosts" % key: len(flagged_hosts), "%s_fp_host_names" % key: " ".join(flagged_hosts)})
    common["fp_rate_held_out"] = common["held_out_fp_pages"] / max(1, common["held_out_pages"])
    common["fp_rate_dev"] = common["dev_fp_pages"] / max(1, common["dev_pages"])
    rows = []
    for kind in kinds:
        for x in xs:
            names = [mirror_host(kind, x, c) for c in range(ncopies)]
            mine = pages[host_of.isin(names)]
            rows.append(dict(common, kind=kind, x=x, mirror_hosts=ncopies, mirror_pages=ncopies * site_pages,
                             mirror_pages_nonempty=sum(nonempty[h] for h in names),
                             mirror_pages_scored=len(mine),
                             mirror_pages_flagged=int(mine["flagged"].sum()),
                             mirror_flagged_fraction=float(mine["flagged"].sum()) / (ncopies * site_pages),
                             mirror_hosts_flagged=sum(host_flagged.get(h, False) for h in names),
                             mirror_hosts_flagged_run_auto=sum(run_flagged.get(h, False) for h in names)))
    background = pages[host_of.map(part_of).notna()]
    fp = background[background["flagged"] == 1]
    fps = [dict(set=name, rule=rule, crd_commit=commit, part=part_of[u.split("/", 1)[0]], url=u, chunks=int(c),
                labeled=int(l), containment=float(k))
           for u, c, l, k in zip(fp["url"], fp["chunks"], fp["labeled"], fp["containment"])]
    return rows, fps


def labeled_set(a, r, name, rules, commit):
    package, html = SETS[name]
    site_dir = os.path.join(a.valdata, package, html)
    files = pv.html_files(site_dir)
    if not files:
        sys.exit("%s: no HTML under %s" % (name, site_dir))
    site = {os.path.relpath(p, site_dir): open(p, "rb").read() for p in files}
    cpp = sum(len(pv.ref.chunks(b)) for b in site.values()) / len(site)
    hosts = background_hosts(a.valdata, package, a.parts.split(","))
    work = os.path.join(r.work, name)
    site_root = os.path.join(work, "site")
    pv.link_tree(site_dir, os.path.join(site_root, pv.SITE_HOST), files)
    root = os.path.join(work, "crawl")
    for host, _, html_root, host_files in hosts:
        pv.link_tree(html_root, os.path.join(root, host), host_files)
    nonempty = {}  # deletions can leave a page with no chunk: it cannot be scored, but counts as missed
    for host, pages in mirrors(site, cpp, KINDS, a.xs, a.copies).items():
        nonempty[host] = sum(1 for body in pages.values() if body)
        for rel, body in pages.items():
            pv.write(os.path.join(root, host, rel), body)
    print("%s: %d pages, cpp %.1f; background %d dev pages (%d hosts), %d held-out pages (%d hosts)"
          % (name, len(site), cpp, sum(len(f) for _, p, _, f in hosts if p == "dev"),
             sum(1 for h in hosts if h[1] == "dev"), sum(len(f) for _, p, _, f in hosts if p == "held-out"),
             sum(1 for h in hosts if h[1] == "held-out")), flush=True)
    rows, fps, labels = [], [], {}
    for rule in rules:
        chunker, detect_only = rules[rule]
        key = " ".join(chunker)
        if key not in labels:
            labels[key] = os.path.join(work, "labels-%d.h5" % len(labels))
            r.run(["label", site_root, "-o", labels[key]] + chunker)
        out = os.path.join(work, "detect-%s.h5" % rule.replace("+", "p"))
        r.run(["detect", root, "--labels", labels[key], "-o", out, "--max-neighborhood-depth", "0"] + chunker + detect_only)
        res = pv.crd_results.open_results(out)
        got, fp = score(name, rule, res.pages, res.neighborhoods, len(site), hosts, KINDS, a.xs, a.copies,
                        res.detection_attrs, commit, nonempty, "--neighborhood-min-flagged" in detect_only)
        for row in got:
            row["cpp"] = cpp
        rows += got
        fps += fp
        if not a.keep:
            os.remove(out)
        print_rows(got)
    if not a.keep:
        shutil.rmtree(work, ignore_errors=True)
    return rows, fps


def print_rows(rows):
    for r in rows:
        print("%-10s %-12s %-6s x=%-3s pages %6.1f%% (%d of %d, %d left, %d scored)  hosts %d/%d  | held-out FP %d/%d "
              "(hosts %d/%d)  dev FP %d/%d (hosts %d/%d)  R %.4g  %s"
              % (r["set"], r["rule"], r["kind"], r["x"], 100 * r["mirror_flagged_fraction"], r["mirror_pages_flagged"],
                 r["mirror_pages"], r["mirror_pages_nonempty"], r["mirror_pages_scored"], r["mirror_hosts_flagged"], r["mirror_hosts"],
                 r["held_out_fp_pages"], r["held_out_pages"], r["held_out_fp_hosts"], r["held_out_hosts"],
                 r["dev_fp_pages"], r["dev_pages"], r["dev_fp_hosts"], r["dev_hosts"], r["page_threshold"],
                 r["crd_commit"]), flush=True)


def write_csv(path, rows, fields=None):
    with open(path, "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=fields or list(rows[0]))
        w.writeheader()
        w.writerows(rows)


def parse_rule(spec):
    name, _, args = spec.partition("=")
    both, _, detect_only = args.partition("::")
    return name, (shlex.split(both), shlex.split(detect_only))


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--crd", default=os.path.join(pv.ROOT, "build", "crd"))
    ap.add_argument("--valdata", default="/work/valdata")
    ap.add_argument("--out", default=os.path.join(HERE, "results"))
    ap.add_argument("--tag", help="suffix of the output names (winnow_labeled_sets-TAG.csv)")
    ap.add_argument("--nranks", type=int, default=2)
    ap.add_argument("--copies", type=int, default=3, help="mirror hosts per kind and x")
    ap.add_argument("--xs", default="2", help="edit rates, × cpp, comma-separated")
    ap.add_argument("--sets", default=",".join(SETS))
    ap.add_argument("--parts", default="dev,held-out",
                    help="background parts to crawl: dev,held-out (default), dev (to choose constants) or "
                         "held-out (to check a constant chosen on dev, the held-out part crawled alone)")
    ap.add_argument("--rules", default=",".join(DEFAULT_RULES), help="names from RULES (empty: only --rule)")
    ap.add_argument("--rule", action="append", default=[], help="NAME=LABEL_AND_DETECT_ARGS::DETECT_ONLY_ARGS")
    ap.add_argument("--crd-commit", help="the commit --crd was built from (default: git log of its folder)")
    ap.add_argument("--work", help="scratch folder (default: a new one under $TMPDIR, removed)")
    ap.add_argument("--keep", action="store_true",
                    help="keep the crawl, labels and detect results under --work (to study a run's pages offline)")
    a = ap.parse_args()
    a.xs = [float(x) if "." in x else int(x) for x in a.xs.split(",")]
    rules = {n: RULES[n] for n in a.rules.split(",") if n}
    rules.update(parse_rule(s) for s in a.rule)
    commit = a.crd_commit or crd_commit(a.crd)
    work = a.work or tempfile.mkdtemp(prefix="crd-labeled-sets-")
    rows, fps = [], []
    try:
        r = Runner(a.crd, a.nranks, work)
        for name in a.sets.split(","):
            got, fp = labeled_set(a, r, name, rules, commit)
            rows += got
            fps += fp
    finally:
        if not a.work:
            shutil.rmtree(work, ignore_errors=True)
    os.makedirs(a.out, exist_ok=True)
    stem = os.path.join(a.out, "winnow_labeled_sets" + ("-" + a.tag if a.tag else ""))
    write_csv(stem + ".csv", rows)
    write_csv(stem + "-fp.csv", fps, ["set", "rule", "crd_commit", "part", "url", "chunks", "labeled", "containment"])
    print()
    print_rows(rows)


if __name__ == "__main__":
    main()
