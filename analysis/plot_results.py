"""Draws the paper's figures (Ardi & Heidemann, Figs. 1, 2, 12; for crd neardup Henzinger's Figs.
1, 3 and 5) from a crd result file, and a strong-scaling plot from a perf CSV.

    /usr/bin/python3 analysis/plot_results.py results/run.h5 --out figures [--scaling perf.csv]

Only figures whose data exist in the file are drawn; the paths written are printed, one a line.
The plot_* functions return matplotlib Figures so the notebook can show the same figures inline.
"""

from __future__ import annotations

import argparse
import os
import sys

import matplotlib
import matplotlib.ticker

if __name__ == "__main__":
    matplotlib.use("Agg")  # headless; the notebook keeps its inline backend when importing us

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from crd_results import CrdFileError, CrdResult, open_results  # noqa: E402

FIGSIZE = (8, 5.5)
THRESHOLD_STYLE = dict(color="tab:red", linestyle=":", linewidth=2)


def _title(result: CrdResult, what: str) -> str:
    return f"{what}\ncrd {result.command or '?'} on {result.input_description()}"


def plot_frequency_occurrence(result: CrdResult, level: str = "chunk"):
    """Log–log frequency–occurrence distribution of chunks or files (paper Figs. 2 and 1): for
    each occurrence count c, how many distinct items occur exactly c times. Items right of the
    dotted threshold line (count > threshold) are candidates for the labeled set."""
    if level not in ("chunk", "file"):
        raise ValueError("level must be 'chunk' or 'file'")
    hist = result.chunk_histogram if level == "chunk" else result.file_histogram
    if hist is None or hist.empty:
        return None
    attrs = result.chunks_attrs if level == "chunk" else result.files_attrs
    threshold = attrs.get("threshold")
    c = hist["occurrences"].to_numpy(dtype=float)
    n = hist["distinct"].to_numpy(dtype=float)
    keep = (c > 0) & (n > 0)
    c, n = c[keep], n[keep]

    fig, ax = plt.subplots(figsize=FIGSIZE, constrained_layout=True)
    above = c > threshold if threshold is not None else np.zeros(len(c), dtype=bool)
    ax.scatter(c[~above], n[~above], s=14, color="0.55", label=f"distinct {level}s")
    if above.any():
        ax.scatter(c[above], n[above], s=30, marker="^", color="black",
                   label=f"count > threshold: {int(n[above].sum()):,} distinct "
                         "(before stop/short removal)")
    ax.set_xscale("log")
    ax.set_yscale("log")
    if threshold is not None and threshold > 0:
        ax.axvline(threshold, **THRESHOLD_STYLE, label=f"discovery threshold = {threshold:,}")
    ax.set_xlabel(f"occurrences c (times a {level} appears in the corpus)")
    ax.set_ylabel(f"distinct {level}s occurring exactly c times")
    ax.grid(True, which="major", alpha=0.3)
    ax.set_xlim(left=0.7)
    ax.set_ylim(bottom=0.7)
    stats = [f"{k.replace('_', ' ')}: {attrs[k]:,}" for k in
             ("total", "distinct", "labeled", "stop_removed") if k in attrs]
    if stats:
        ax.text(0.98, 0.97, "\n".join(stats), transform=ax.transAxes, ha="right", va="top",
                fontsize=9, bbox=dict(boxstyle="round", facecolor="white", alpha=0.8))
    ax.legend(loc="lower left", fontsize=9)
    figure_no = 2 if level == "chunk" else 1
    ax.set_title(_title(result, f"{level.capitalize()}-level frequency–occurrence "
                                f"(cf. paper Fig. {figure_no})"))
    return fig


def _histogram_with_cdf(values: np.ndarray, flagged: int | None, mean: float | None,
                        sigma: float | None, threshold: float | None, xlabel: str, unit: str,
                        title: str):
    """Bars: how many items per badness bin; line: their CDF; dotted: the μ+σ threshold.
    `flagged` is the file's own count of flagged items (it may also apply e.g. min_labeled)."""
    fig, ax = plt.subplots(figsize=FIGSIZE, constrained_layout=True)
    bins = np.linspace(0.0, 1.0, 41)
    counts, _, bars = ax.hist(np.clip(values, 0.0, 1.0), bins=bins, color="tab:blue",
                              alpha=0.75, edgecolor="white")
    nonzero = counts[counts > 0]
    if len(nonzero) and nonzero.max() / nonzero.min() >= 100:
        ax.set_yscale("log")  # a spike at 0 would otherwise flatten the tail
    ax.set_xlabel(xlabel)
    ax.set_ylabel(f"number of {unit}")
    ax.set_xlim(0, 1)

    cdf_ax = ax.twinx()
    xs = np.sort(values)
    cdf_ax.step(np.concatenate([[0.0], xs, [1.0]]),
                np.concatenate([[0.0], np.arange(1, len(xs) + 1) / len(xs), [1.0]]),
                where="post", color="tab:orange", linewidth=2, label="CDF")
    cdf_ax.set_ylim(0, 1.02)
    cdf_ax.set_ylabel(f"cumulative fraction of {unit}")

    handles, labels = [bars, cdf_ax.lines[0]], [f"{unit} per bin (width 0.025)", "CDF"]
    if threshold is not None and np.isfinite(threshold):
        if flagged is None:
            flagged = int((values > threshold).sum())
        desc = f"threshold μ+σ = {threshold:.3f}"
        if mean is not None and sigma is not None:
            desc += f" (μ={mean:.3f}, σ={sigma:.3f})"
        handles.append(ax.axvline(threshold, **THRESHOLD_STYLE))
        labels.append(f"{desc}\nflagged: {flagged:,} of {len(values):,} {unit} "
                      f"({100.0 * flagged / max(len(values), 1):.1f}%)")
    # Below the axes: bars and the CDF can fill any part of the plot area.
    cdf_ax.legend(handles=handles, labels=labels, loc="upper center", fontsize=9, ncol=3,
                  bbox_to_anchor=(0.5, -0.13), frameon=False)
    ax.set_title(title)
    return fig


def _flagged(table: pd.DataFrame) -> int | None:
    return int((table["flagged"] != 0).sum()) if "flagged" in table.columns else None


def plot_neighborhood_badness(result: CrdResult):
    """Histogram (bars) and CDF (line) of neighborhood badness, threshold μ+σ marked (Fig. 12)."""
    hoods = result.neighborhoods
    if hoods is None or hoods.empty:
        return None
    a = result.detection_attrs
    mode = a.get("badness_mode", "?")
    return _histogram_with_cdf(
        hoods["badness"].to_numpy(dtype=float), _flagged(hoods), a.get("neighborhood_mean"),
        a.get("neighborhood_sigma"), a.get("neighborhood_threshold"),
        f"neighborhood badness: share of labeled content under the URL prefix (mode: {mode})",
        "neighborhoods",
        _title(result, "Badness of neighborhoods (cf. paper Fig. 12)"))


def plot_page_containment(result: CrdResult):
    """Histogram and CDF of page containment (labeled chunks / chunks), threshold marked."""
    pages = result.pages
    if pages is None or pages.empty:
        return None
    a = result.detection_attrs
    return _histogram_with_cdf(
        pages["containment"].to_numpy(dtype=float), _flagged(pages), a.get("page_mean"),
        a.get("page_sigma"),
        a.get("page_threshold"), "page containment (labeled chunks / chunks on the page)",
        "pages", _title(result, "Containment of labeled chunks in pages"))


def plot_neardup_degree(result: CrdResult):
    """Log–log degree distribution of the similarity graph (Henzinger Figs. 1 and 3): for each
    degree d, how many pages have exactly d near-duplicates."""
    hist = result.neardup_degree
    if hist is None or hist.empty:
        return None
    method = result.neardup_attrs.get("method", "?")
    fig, ax = plt.subplots(figsize=FIGSIZE, constrained_layout=True)
    ax.scatter(hist["occurrences"].to_numpy(dtype=float), hist["distinct"].to_numpy(dtype=float), s=14,
               color="black", label=f"pages ({method})")
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("degree (near-duplicates of a page)")
    ax.set_ylabel("pages")
    ax.grid(True, which="both", alpha=0.3)
    ax.legend()
    ax.set_title(_title(result, f"Degree distribution of the {method} similarity graph"))
    return fig


def plot_neardup_b_vs_c(result: CrdResult):
    """For each B-similarity, the distribution of C-similarity over the pairs (Henzinger Fig. 5),
    with the combined algorithm's and Alg. C's thresholds dotted."""
    pairs = result.neardup_pairs
    if pairs is None or pairs.empty:
        return None
    config = result.config_dict().get("crd", {})
    fig, ax = plt.subplots(figsize=FIGSIZE, constrained_layout=True)
    lo, hi = int(pairs["c_sim"].min()), int(pairs["c_sim"].max())
    bins = np.arange(lo, hi + 2) - 0.5
    for b_sim, rows in pairs.groupby("b_sim", sort=True):
        counts, _ = np.histogram(rows["c_sim"].to_numpy(), bins=bins)
        ax.plot(np.arange(lo, hi + 1), counts / max(1, counts.sum()), marker=".",
                label=f"B-similarity {b_sim} ({len(rows):,} pairs)")
    for name, label in (("combined-c-similarity", "combined"), ("min-c-similarity", "Alg. C")):
        if name in config:
            ax.axvline(float(config[name]), **THRESHOLD_STYLE)
            ax.annotate(f" {label} {config[name]}", (float(config[name]), 0.95), xycoords=("data", "axes fraction"))
    ax.set_xlabel("C-similarity (agreeing simhash bits)")
    ax.set_ylabel("fraction of the pairs with this B-similarity")
    ax.grid(True, alpha=0.3)
    ax.legend(fontsize=9)
    ax.set_title(_title(result, "C-similarity for each B-similarity"))
    return fig


def read_scaling(csv_path: str) -> pd.DataFrame:
    """A perf CSV (ranks, seconds[, phase]) as median/min/max seconds per phase and rank count."""
    data = pd.read_csv(csv_path)
    missing = {"ranks", "seconds"} - set(data.columns)
    if missing:
        raise ValueError(f"{csv_path}: missing column(s) {', '.join(sorted(missing))}")
    if "phase" not in data.columns:
        data["phase"] = "total"
    data = data.dropna(subset=["ranks", "seconds"])
    return (data.groupby(["phase", "ranks"])["seconds"].agg(["median", "min", "max"])
            .reset_index().sort_values(["phase", "ranks"]))


def plot_scaling(csv_path: str, title: str | None = None):
    """Strong scaling: wall time and speedup vs ranks, relative to the smallest rank count,
    with the ideal (linear) speedup. Repeated measurements: median, with min–max bars."""
    table = read_scaling(csv_path)
    if table.empty:
        return None
    fig, (tax, sax) = plt.subplots(1, 2, figsize=(12, 5.5), constrained_layout=True)
    all_ranks = np.sort(table["ranks"].unique())
    for phase, rows in table.groupby("phase", sort=True):
        r = rows["ranks"].to_numpy(dtype=float)
        t = rows["median"].to_numpy()
        err = [t - rows["min"].to_numpy(), rows["max"].to_numpy() - t]
        tax.errorbar(r, t, yerr=err, marker="o", capsize=3, label=str(phase))
        speed = t[0] / t
        efficiency = speed[-1] / (r[-1] / r[0])
        sax.errorbar(r, speed, yerr=[speed - t[0] / rows["max"].to_numpy(),
                                     t[0] / rows["min"].to_numpy() - speed],
                     marker="o", capsize=3,
                     label=f"{phase} (efficiency {efficiency:.0%} at {int(r[-1])} ranks)")
    base = float(all_ranks[0])
    sax.plot(all_ranks, all_ranks / base, color="black", linestyle="--", label="ideal")
    for ax in (tax, sax):
        ax.set_xscale("log", base=2)
        ax.set_xticks(all_ranks, [str(int(x)) for x in all_ranks])
        ax.set_xlabel("MPI ranks")
        ax.grid(True, alpha=0.3)
        ax.legend(fontsize=9)
    tax.set_yscale("log")
    tax.set_ylabel("wall time (s)")
    tax.set_title("Wall time")
    sax.set_yscale("log", base=2)
    sax.yaxis.set_major_formatter(matplotlib.ticker.FuncFormatter(lambda v, _: f"{v:g}"))
    sax.set_ylabel(f"speedup over {int(base)} rank{'s' if base != 1 else ''}")
    sax.set_title("Speedup (strong scaling)")
    fig.suptitle(title or f"Strong scaling — {os.path.basename(csv_path)}")
    return fig


def result_figures(result: CrdResult) -> dict[str, object]:
    """Every figure the file has data for, by a short name used in file names."""
    figures = {
        "chunk_frequency": plot_frequency_occurrence(result, "chunk"),
        "file_frequency": plot_frequency_occurrence(result, "file"),
        "neighborhood_badness": plot_neighborhood_badness(result),
        "page_containment": plot_page_containment(result),
        "neardup_degree": plot_neardup_degree(result),
        "neardup_b_vs_c": plot_neardup_b_vs_c(result),
    }
    return {name: fig for name, fig in figures.items() if fig is not None}


def _save(fig, path: str, dpi: int) -> str:
    fig.savefig(path, dpi=dpi)
    plt.close(fig)
    return path


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("result", nargs="?", help="crd result file (.h5)")
    parser.add_argument("--out", default=".", help="directory for the PNGs (created if needed)")
    parser.add_argument("--scaling", metavar="CSV", help="perf CSV: ranks,seconds[,phase]")
    parser.add_argument("--dpi", type=int, default=100)
    args = parser.parse_args(argv)
    if not args.result and not args.scaling:
        parser.error("give a result file, --scaling CSV, or both")
    os.makedirs(args.out, exist_ok=True)
    written = []
    try:
        if args.result:
            result = open_results(args.result)
            stem = os.path.splitext(os.path.basename(args.result))[0]
            for name, fig in result_figures(result).items():
                written.append(_save(fig, os.path.join(args.out, f"{stem}_{name}.png"), args.dpi))
        if args.scaling:
            fig = plot_scaling(args.scaling)
            if fig is not None:
                stem = os.path.splitext(os.path.basename(args.scaling))[0]
                written.append(_save(fig, os.path.join(args.out, f"{stem}_scaling.png"),
                                     args.dpi))
    except (CrdFileError, ValueError, OSError) as err:
        print(f"plot_results: {err}", file=sys.stderr)
        return 1
    for path in written:
        print(path)
    if not written:
        print("plot_results: no figure data found", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
