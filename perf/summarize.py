#!/usr/bin/env python3
"""Tables for perf/RESULTS.md from the CSVs of perf/strong_scaling.sh (perf/side_by_side.sh and
perf/reader_thread.sh print their own, through perf/paired.py).

    /usr/bin/python3 perf/summarize.py scaling perf/out/strong_scaling.csv
    /usr/bin/python3 perf/summarize.py weak perf/out/weak_scaling.csv
"""
import sys

import pandas as pd


def scaling(path, weak=False):
    """Strong: speedup = t(1)/t(N), efficiency = speedup/N. Weak (N units on N ranks): efficiency = t(1)/t(N)."""
    d = pd.read_csv(path)
    g = d.groupby(["command", "phase", "ranks"])["seconds"].agg(["min", "median", "max", "count"]).reset_index()
    print("| phase | ranks | best s | median s | max s | n | speedup (median) | efficiency |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|")
    for (cmd, phase), rows in g.groupby(["command", "phase"], sort=False):
        base = rows[rows.ranks == rows.ranks.min()]["median"].iloc[0]
        for _, r in rows.iterrows():
            sp = base / r["median"]
            eff = sp if weak else sp / (r.ranks / rows.ranks.min())
            print(f"| {phase} | {r.ranks} | {r['min']:.2f} | {r['median']:.2f} | {r['max']:.2f} | {r['count']} "
                  f"| {sp:.2f} | {eff:.0%} |")
    tot = d[d.phase.str.endswith(" total")]
    if not weak:
        # The rank counts of one repetition ran back to back: their ratio is less exposed to the
        # machine's slow and fast spells than a ratio of medians taken over the whole sweep.
        print()
        print("| command | ranks | paired speedup of the whole job: median | min | max | pairs |")
        print("|---|---:|---:|---:|---:|---:|")
        for cmd, rows in tot.groupby("command", sort=False):
            base = rows[rows.ranks == rows.ranks.min()].set_index("rep")["seconds"]
            for n, at_n in rows[rows.ranks != rows.ranks.min()].groupby("ranks"):
                ratios = (base / at_n.set_index("rep")["seconds"]).dropna()
                print(f"| {cmd} | {n} | {ratios.median():.2f} | {ratios.min():.2f} | {ratios.max():.2f} | {len(ratios)} |")
    m = tot.groupby(["command", "ranks"]).agg(input_bytes=("input_bytes", "first"),
                                               sent=("shuffle_bytes_sent", "median"),
                                               sent_max=("shuffle_bytes_sent_max", "median"),
                                               rss=("peak_rss_max", "max"), tables=("tables_max", "max"),
                                               load=("load1", "median")).reset_index()
    print()
    print("| command | ranks | input MB | shuffle sent MB (all ranks) | % of input | max rank / mean | "
          "peak RSS max MiB | tables_max MiB | load1 (median) |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|")
    for _, r in m.iterrows():
        mean = r.sent / r.ranks
        balance = f"{r.sent_max / mean:.3f}" if mean > 0 else "—"  # one rank sends nothing: its own records skip the wire
        print(f"| {r.command} | {r.ranks} | {r.input_bytes / 1e6:.0f} | {r.sent / 1e6:.1f} | "
              f"{100 * r.sent / r.input_bytes:.2f}% | {balance} | {r.rss / 2**20:.0f} | "
              f"{r.tables / 2**20:.0f} | {r.load:.1f} |")


if __name__ == "__main__":
    {"scaling": scaling, "weak": lambda p: scaling(p, weak=True)}[sys.argv[1]](sys.argv[2])
