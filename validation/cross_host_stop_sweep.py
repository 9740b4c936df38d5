#!/usr/bin/python3
"""The stop grams across hosts (docs/winnow.md, "Phrasing shared across hosts") replayed over one
detect result for many (H, cut) pairs at once, to choose them on the development part without a
crd run per pair. Input: a `crd detect --chunker winnow` result with the binomial rule and the stop
grams per host (the default; `--host-stop-site-ratio 2`), and the labels file it used. The replay
recomputes the stop grams per host from /detection/pages (label ids per page) and the labels'
`count` column, then for each cut and H the labels that pages of at least H hosts hold below that
containment, and the binomial verdict (R = 1 %, α = 10⁻⁴) without both kinds of stop gram.
It checks itself: the replay of the rule off must give crd's own flags page for page.

    /usr/bin/python3 validation/winnow_labeled_sets.py --crd build/crd --parts dev --sets python \\
        --rules winnow --nranks 1 --work /tmp/W --keep --out /tmp/W/res
    /usr/bin/python3 validation/cross_host_stop_sweep.py /tmp/W/python/detect-winnow.h5 \\
        /tmp/W/python/labels-0.h5 --hosts 3,4,5,8 --cuts 0.01,0.02,0.05

Pages of hosts named KIND-xX-cC.example (the harness's mirrors) are copies, every other page is
background: prints false pages and mirror pages flagged per kind for each pair.
"""
import argparse
import collections
import math
from functools import lru_cache

import h5py
import numpy as np

SHIFT = 1 << 20  # label ids below 2^20 (the labeled sets here have at most 216,619)


@lru_cache(None)
def chance_floor(n, rate=0.01, alpha=1e-4):
    """The smallest s with P[Binomial(n, rate) >= s] < alpha (src/detect/chance_floor.cpp)."""
    log_pmf = [math.lgamma(n + 1) - math.lgamma(s + 1) - math.lgamma(n - s + 1) + s * math.log(rate)
               + (n - s) * math.log1p(-rate) for s in range(n + 1)]
    tail = 0.0
    for s in range(n, -1, -1):
        tail += math.exp(log_pmf[s])
        if tail >= alpha:
            return s + 1
    return 0


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("detect")
    ap.add_argument("labels")
    ap.add_argument("--hosts", default="3,4,5,8")
    ap.add_argument("--cuts", default="0.01,0.02,0.05")
    ap.add_argument("--host-stop-pages", type=int, default=20)
    ap.add_argument("--host-stop-site-ratio", type=int, default=2)
    a = ap.parse_args()
    pages = h5py.File(a.detect, "r")["detection/pages"]
    url = [u.decode() for u in pages["url"][:]]
    chunks = pages["chunks"][:].astype(np.int64)
    labeled = pages["labeled"][:].astype(np.int64)
    ids = pages["label_ids"][:].astype(np.int64)
    offsets = pages["label_ids_offsets"][:].astype(np.int64)
    count = h5py.File(a.labels, "r")["labels/count"][:].astype(np.int64)
    host = np.array([u.split("/", 1)[0] for u in url])
    _, host_id = np.unique(host, return_inverse=True)
    page_of = np.repeat(np.arange(len(url)), np.diff(offsets))
    pairs = np.unique(page_of * SHIFT + ids)  # distinct (page, label)
    pair_page, pair_label = pairs // SHIFT, pairs % SHIFT
    # Stop grams per host: a host holding the label on more than max(N, C · count) pages.
    keys, pages_of_key = np.unique(host_id[pair_page] * SHIFT + pair_label, return_counts=True)
    key_label = keys % SHIFT
    host_stop = np.unique(key_label[pages_of_key > np.maximum(a.host_stop_pages, a.host_stop_site_ratio * count[key_label])])

    def counts_without(stop):
        removed = np.bincount(page_of[np.isin(ids, stop)], minlength=len(url))
        return chunks - removed, labeled - removed

    def flags(c, s):
        return np.array([s[i] > 0 and s[i] / c[i] > 0.01 and s[i] >= chance_floor(int(c[i])) for i in range(len(c))])

    kind = np.array([h.split("-x")[0] if "-x" in h and h.split("-x")[0] in ("modify", "add", "delete") else ""
                     for h in host])

    def report(name, flagged, stopped):
        per = {k: int((flagged & (kind == k)).sum()) for k in ("modify", "add", "delete")}
        fp_hosts = collections.Counter(host[flagged & (kind == "")])
        print("%-16s stopped %6d  false pages %4d  modify %5d  add %5d  delete %4d  %s" % (
            name, stopped, int((flagged & (kind == "")).sum()), per["modify"], per["add"], per["delete"],
            dict(fp_hosts.most_common(4))), flush=True)

    c1, s1 = counts_without(host_stop)
    off = flags(c1, s1)
    mismatches = int((off != pages["flagged"][:].astype(bool)).sum())
    print("replay of the rule off against crd's flags: %d pages differ" % mismatches)
    if mismatches:
        raise SystemExit("the replay does not match this result (another rule or R?)")
    report("off", off, 0)
    containment = np.where(c1 > 0, s1 / np.maximum(c1, 1), 0)
    for cut in (float(x) for x in a.cuts.split(",")):
        keep = (containment[pair_page] < cut) & ~np.isin(pair_label, host_stop)
        label_host = np.unique(host_id[pair_page[keep]] * SHIFT + pair_label[keep]) % SHIFT
        labels, hosts = np.unique(label_host, return_counts=True)
        for h in (int(x) for x in a.hosts.split(",")):
            cross = labels[hosts >= h]
            report("cut %g H %d" % (cut, h), flags(*counts_without(np.union1d(host_stop, cross))), len(cross))


if __name__ == "__main__":
    main()
