"""Reader for crd HDF5 result files (docs/schema.md, version 1) into pandas DataFrames.

    from crd_results import open_results
    r = open_results("results/quickstart.h5")
    r.counters["chunks"], r.chunks.head(), r.neighborhoods.sort_values("badness")

Tables are read lazily (on first access) and cached; the file is not kept open between reads.
Absent groups give None (tables) or empty Series/dicts (counters, attributes), so one reader
serves discover, label, detect and run files alike. r.table(PAGES, decode=False) keeps strings as
the stored bytes; r.snapshot() is the whole file as stored, for exact comparisons.

This module is the one definition of the schema on the Python side: group paths (CHUNKS, PAGES, …),
columns and stored types (TABLES, LISTS), attributes (ROOT_ATTRS, GROUP_ATTRS). Every test reads
results through it.
"""

from __future__ import annotations

import configparser
import functools
import os
from typing import Any

import h5py
import numpy as np
import pandas as pd

SUPPORTED_SCHEMA_VERSIONS = (1,)
HASH_WIDTH = 20  # SHA-1

# The schema (docs/schema.md): every group path is spelled here once, and every reader and test
# of crd's results takes it from here.
COUNTERS = "/run/counters"
RESOURCES = "/run/resources"
TIMINGS = "/run/timings"
ERRORS = "/run/errors"
DISCOVERY = "/discovery"
CHUNKS = "/discovery/chunks"
CHUNK_HISTOGRAM = "/discovery/chunk_histogram"
FILES = "/discovery/files"
FILE_HISTOGRAM = "/discovery/file_histogram"
CHUNK_COUNTS = "/discovery/chunk_counts"  # discover --keep-counts, crd merge
FILE_COUNTS = "/discovery/file_counts"
LABELS = "/labels"
LABELS_HISTOGRAM = "/labels_histogram"
LABELS_DOCUMENTS = "/labels_documents"
DETECTION = "/detection"
DETECTION_LABELS = "/detection/labels"
PROVENANCE = "/detection/provenance"
PAGES = "/detection/pages"
NEIGHBORHOODS = "/detection/neighborhoods"
DETECTION_PAIRS = "/detection/pairs"  # detect --pairs K only
NEARDUP = "/neardup"
NEARDUP_PAIRS = "/neardup/pairs"
NEARDUP_DEGREE = "/neardup/degree"
NEARDUP_IDENTICAL = "/neardup/identical"
NEARDUP_CLUSTERS = "/neardup/clusters"
NEARDUP_REPRESENTATIVES = "/neardup/representatives"
QUILTS = "/quilts"
QUILT_PAGES = "/quilts/pages"
QUILT_SOURCES = "/quilts/sources"
QUILT_SWEEP = "/quilts/sweep"
COMPARE_HASHING = "/compare_hashing"
CONFUSION = "/compare_hashing/confusion"
MERGE_INPUTS = "/merge/inputs"  # crd merge: the inputs summed

# Stored types: STR a fixed-length byte string, HASH n × 20 uint8, else a numpy dtype code.
STR, HASH = "S", "hash"
ROOT_ATTRS = {"crd_version": STR, "crd_git_commit": STR, "crd_build_type": STR, "schema_version": "i8", "command": STR, "command_line": STR,
              "nranks": "u8", "created": STR, "config": STR}
# What describes the particular job rather than the data (the rest is identical for any rank
# count, input order and --resume).
JOB_ROOT_ATTRS = ("nranks", "created", "command_line", "config")
JOB_TABLES = (TIMINGS, RESOURCES)

# Each table's columns in the documented order, with their stored types.
_HISTOGRAM = {"occurrences": "u8", "distinct": "u8"}
TABLES = {
    COUNTERS: {"name": STR, "value": "u8"},
    RESOURCES: {"name": STR, "value": "u8"},
    TIMINGS: {"phase": STR, "seconds": "f8"},
    ERRORS: {"file": STR, "offset": "u8", "reason": STR},
    CHUNKS: {"hash": HASH, "count": "u8", "length": "u4", "sample": STR, "sample_url": STR},
    CHUNK_HISTOGRAM: _HISTOGRAM,
    FILES: {"hash": HASH, "count": "u8", "length": "u8", "sample_url": STR},
    FILE_HISTOGRAM: _HISTOGRAM,
    CHUNK_COUNTS: {"hash": HASH, "count": "u8", "length": "u4"},
    FILE_COUNTS: {"hash": HASH, "count": "u8", "length": "u8"},
    LABELS: {"hash": HASH, "length": "u4", "sample": STR, "sample_url": STR, "count": "u8"},
    LABELS_HISTOGRAM: _HISTOGRAM,
    LABELS_DOCUMENTS: {"url": STR, "chunks": "u4"},
    DETECTION_LABELS: {"hash": HASH, "length": "u4", "sample": STR, "pages": "u8",
                       "neighborhoods": "u8", "occurrences": "u8"},
    PROVENANCE: {"label": "u4", "url": STR},
    PAGES: {"url": STR, "chunks": "u4", "labeled": "u4", "containment": "f8", "flagged": "u1"},
    NEIGHBORHOODS: {"prefix": STR, "depth": "u4", "pages": "u8", "chunks": "u8", "labeled": "u8",
                    "badness": "f8", "flagged": "u1"},
    DETECTION_PAIRS: {"page": STR, "document": STR, "matching": "u4", "first": "f8", "second": "f8"},
    NEARDUP_PAIRS: {"page_a": STR, "page_b": STR, "b_sim": "u4", "c_sim": "u4", "same_site": "u1",
                    "jaccard": "f8"},  # jaccard: with --min-jaccard only
    NEARDUP_DEGREE: _HISTOGRAM,
    NEARDUP_IDENTICAL: {"page": STR, "representative": STR},
    NEARDUP_CLUSTERS: {"page": STR, "cluster": STR},
    NEARDUP_REPRESENTATIVES: {"representative": STR, "pages": "u8"},
    QUILT_PAGES: {"url": STR, "grams": "u8", "patch_grams": "u8", "patchfrac": "f8", "sources": "u8",
                  "quilted": "u1"},
    QUILT_SOURCES: {"page": STR, "source": STR, "grams_covered": "u8"},
    QUILT_SWEEP: {"k": "u8", "m": "u8", "c": "u8", "theta": "f8", "pages": "u8", "quilted": "u8",
                  "percent": "f8", "mean_sources": "f8"},
    CONFUSION: {"method": STR, "rule": STR, "threshold": "f8", "primary": "u1", "page_threshold": "f8",
                "tp": "u8", "fp": "u8", "fn": "u8", "tn": "u8", "fpr": "f8", "extrapolated_fp": "f8"},
    MERGE_INPUTS: {"path": STR, "command": STR, "created": STR, "documents": "u8", "records": "u8",
                   "chunks": "u8", "distinct_chunks": "u8", "distinct_files": "u8"},
}
# List columns (CSR: NAME and NAME_offsets) after a table's plain columns, with their value types.
LISTS = {PAGES: {"positions": "u4", "label_ids": "u4"}, LABELS_DOCUMENTS: {"label_ids": "u4"}}
_TALLY_ATTRS = {"threshold": "u8", "total": "u8", "distinct": "u8", "labeled": "u8",
                "stop_removed": "u8", "top": "u8", "top_removed": "u8"}
GROUP_ATTRS = {
    CHUNKS: {**_TALLY_ATTRS, "min_chunk_length": "u8"},
    FILES: _TALLY_ATTRS,
    CHUNK_COUNTS: {"chunking": STR},
    LABELS: {**_TALLY_ATTRS, "min_chunk_length": "u8"},
    DETECTION: {"page_mean": "f8", "page_sigma": "f8", "page_threshold": "f8",
                "neighborhood_mean": "f8", "neighborhood_sigma": "f8",
                "neighborhood_threshold": "f8", "badness_mode": STR, "join_mode": STR,
                "min_labeled": "u8", "labels": "u8", "pages_flagged": "u8",
                "neighborhoods_flagged": "u8", "page_threshold_rule": STR,
                "page_threshold_clamped": "u8", "page_threshold_chosen": "u8", "page_median": "f8", "page_mad": "f8",
                "neighborhood_threshold_rule": STR, "neighborhood_threshold_clamped": "u8",
                "neighborhood_median": "f8", "neighborhood_mad": "f8",
                "min_neighborhood_labeled": "u8", "host_stop_pages": "u8", "host_stop_labels": "u8",
                # written only with --cross-host-stop-hosts above 0
                "cross_host_stop_hosts": "u8", "cross_host_stop_cut": "f8", "cross_host_stop_labels": "u8",
                # written only with --page-threshold betabinomial
                "page_beta_a": "f8", "page_beta_b": "f8", "page_beta_pages": "u8"},
    NEARDUP: {"method": STR, "pages": "u8", "identity_sets": "u8", "pairs": "u8",
              "same_site_pairs": "u8", "different_site_pairs": "u8", "capped_buckets": "u8",
              "capped_pages": "u8", "capped_pairs": "u8", "pairs_not_kept": "u8", "clusters": "u8",
              "clustered_pages": "u8", "unlinked_entries": "u8", "representative_rule": STR,
              # written only with --min-jaccard
              "min_jaccard": "f8", "jaccard_sample": "u8", "jaccard_dropped_pairs": "u8",
              "jaccard_dropped_edges": "u8"},
    QUILTS: {"k": "u8", "m": "u8", "c": "u8", "theta": "f8", "min_source_share": "f8",
             "foreign_sourced": STR, "pages": "u8", "quilted": "u8"},
    COMPARE_HASHING: {"pages": "u8", "positives": "u8", "labels": "u8", "labels_with_text": "u8",
                      "chunks": "u8", "chunks_without_tlsh": "u8", "extrapolate_pages": "f8",
                      "min_labeled": "u8"},
}
# The attributes of GROUP_ATTRS that only a run with the option named beside them writes.
CONDITIONAL_ATTRS = {DETECTION: {"page_beta_a", "page_beta_b", "page_beta_pages",
                                 "cross_host_stop_hosts", "cross_host_stop_cut", "cross_host_stop_labels"},
                     NEARDUP: {"min_jaccard", "jaccard_sample", "jaccard_dropped_pairs", "jaccard_dropped_edges"}}
RANK_KEYS = ("badness", "labeled", "pages")  # crd inspect --rank
_RUN_TABLES = [COUNTERS, RESOURCES, TIMINGS, ERRORS]
_DISCOVERY_TABLES = [CHUNKS, CHUNK_HISTOGRAM, FILES, FILE_HISTOGRAM]
_DETECTION_TABLES = [DETECTION_LABELS, PROVENANCE, PAGES, NEIGHBORHOODS]
TABLES_OF = {  # the tables each command writes
    "discover": _RUN_TABLES + _DISCOVERY_TABLES,
    "label": _RUN_TABLES + [LABELS, LABELS_HISTOGRAM, LABELS_DOCUMENTS],
    "detect": _RUN_TABLES + _DETECTION_TABLES,
    "detect --pairs": _RUN_TABLES + _DETECTION_TABLES + [DETECTION_PAIRS],
    "run": _RUN_TABLES + _DISCOVERY_TABLES + _DETECTION_TABLES,
    "neardup": _RUN_TABLES + [NEARDUP_PAIRS, NEARDUP_DEGREE, NEARDUP_IDENTICAL, NEARDUP_CLUSTERS,
                              NEARDUP_REPRESENTATIVES],
    "quilts": _RUN_TABLES + [QUILT_PAGES, QUILT_SOURCES, QUILT_SWEEP],
    "compare-hashing": _RUN_TABLES + [CONFUSION],
    # discover and run write the count tables too with --keep-counts; merge always does.
    "merge": _RUN_TABLES + _DISCOVERY_TABLES + [CHUNK_COUNTS, FILE_COUNTS, MERGE_INPUTS],
}


class CrdFileError(Exception):
    """The path is not a readable crd result file of a supported schema version."""


def attr_value(value: Any) -> Any:
    """Attribute values as plain Python: bytes → str, numpy scalars → int/float."""
    if isinstance(value, (bytes, np.bytes_)):
        return bytes(value).decode("utf-8", errors="replace")
    if isinstance(value, np.ndarray):
        if value.shape == ():
            return attr_value(value[()])
        if value.size == 1:
            return attr_value(value.reshape(-1)[0])
        return [attr_value(v) for v in value.tolist()]
    if isinstance(value, np.generic):
        return value.item()
    return value


def _strings(data: np.ndarray, decode: bool | str) -> list:
    # h5py returns |S<w> arrays with the trailing null padding already stripped.
    if decode is False:
        return [bytes(v) if isinstance(v, (bytes, np.bytes_)) else str(v).encode() for v in data]
    errors = "replace" if decode is True else decode
    return [v.decode("utf-8", errors=errors) if isinstance(v, (bytes, np.bytes_)) else str(v)
            for v in data]


def hex_hashes(data: np.ndarray, where: str = "hash") -> list[str]:
    """An n × 20 uint8 hash column as n hex strings."""
    if data.ndim != 2 or data.shape[1] != HASH_WIDTH:
        raise CrdFileError(f"{where}: expected n×{HASH_WIDTH} hashes, found shape {data.shape}")
    flat = np.ascontiguousarray(data, dtype=np.uint8).tobytes().hex()
    step = 2 * HASH_WIDTH
    return [flat[i:i + step] for i in range(0, len(flat), step)]


def csr_rows(values: np.ndarray, offsets: np.ndarray, where: str = "list") -> list[list[int]]:
    """A CSR list column (NAME, NAME_offsets) as one list per row; CrdFileError if the offsets
    do not start at 0, end at len(values) and never decrease."""
    offsets = offsets.astype(np.int64)
    if len(offsets) == 0 and len(values) == 0:
        return []
    if (len(offsets) == 0 or offsets[0] != 0 or offsets[-1] != len(values)
            or np.any(np.diff(offsets) < 0)):
        raise CrdFileError(f"{where}: offsets do not describe {len(values)} values")
    return [values[a:b].tolist() for a, b in zip(offsets[:-1], offsets[1:])]


def _column(group: h5py.Group, name: str, where: str, decode: bool | str) -> Any:
    ds = group[name]
    data = ds[()]
    if h5py.check_string_dtype(ds.dtype) is not None:  # fixed-length (|S<w>) or, leniently, vlen
        return _strings(data, decode)
    if name == "hash" or (data.ndim == 2 and data.dtype == np.uint8):
        return hex_hashes(data, f"{where}/{name}")
    if data.ndim != 1:
        raise CrdFileError(f"{where}/{name}: expected a 1-D column, found shape {data.shape}")
    if data.dtype.kind == "u" and data.dtype.itemsize == 8 and (data.size == 0
                                                                 or data.max() < 2**63):
        data = data.astype(np.int64)  # uint64 → int64 so arithmetic and comparisons stay simple
    return data


def _read_table(group: h5py.Group, where: str, decode: bool | str) -> pd.DataFrame:
    names = [n for n, obj in group.items() if isinstance(obj, h5py.Dataset)]
    lists = {n[: -len("_offsets")] for n in names if n.endswith("_offsets")}
    lists &= set(names)
    columns: dict[str, Any] = {}
    for name in names:
        if name in lists or (name.endswith("_offsets") and name[: -len("_offsets")] in lists):
            continue
        columns[name] = _column(group, name, where, decode)
    nrows = {len(v) for v in columns.values()}
    for name in sorted(lists):
        offsets = group[name + "_offsets"][()]
        columns[name] = csr_rows(group[name][()], offsets, f"{where}/{name}")
        nrows.add(len(columns[name]) if len(offsets) else 0)
    if len(nrows) > 1:
        raise CrdFileError(f"{where}: columns have different lengths {sorted(nrows)}")
    known = [*TABLES.get(where, {}), *LISTS.get(where, {})]
    order = [c for c in known if c in columns] + sorted(c for c in columns if c not in known)
    frame = pd.DataFrame({c: columns[c] for c in order})
    for name in order:  # an empty list column otherwise becomes float64
        if name in lists:
            frame[name] = frame[name].astype(object)
    return frame


def _parse_config(text: str) -> configparser.ConfigParser:
    """The effective options as INI. Keys before any [section] go to section [crd]."""
    parser = configparser.ConfigParser(interpolation=None, strict=False)
    parser.optionxform = str  # keep option names exactly as written
    first = next((ln.strip() for ln in text.splitlines()
                  if ln.strip() and not ln.lstrip().startswith(("#", ";"))), "")
    if first and not first.startswith("["):
        text = "[crd]\n" + text
    try:
        parser.read_string(text)
    except configparser.Error as err:
        raise CrdFileError(f"root attribute config is not valid INI: {err}") from err
    return parser


class CrdResult:
    """One crd result file. Table properties return DataFrames (None when the group is absent)."""

    def __init__(self, path: str | os.PathLike, attrs: dict[str, Any]):
        self.path = os.fspath(path)
        self.attrs = attrs

    def __repr__(self) -> str:
        return f"CrdResult({self.path!r}, command={self.command!r})"

    # Root attributes --------------------------------------------------------------------------
    @property
    def schema_version(self) -> int:
        return int(self.attrs["schema_version"])

    @property
    def command(self) -> str | None:
        return self.attrs.get("command")

    @functools.cached_property
    def config(self) -> configparser.ConfigParser:
        return _parse_config(self.attrs.get("config", "") or "")

    def config_dict(self) -> dict[str, dict[str, str]]:
        return {s: dict(self.config[s]) for s in self.config.sections()}

    # Generic access ---------------------------------------------------------------------------
    def group_attrs(self, group: str) -> dict[str, Any]:
        """Attributes of a group or dataset as plain Python values; {} when it is absent."""
        with h5py.File(self.path, "r") as f:
            if group not in f:
                return {}
            return {k: attr_value(v) for k, v in f[group].attrs.items()}

    def table(self, group: str, decode: bool | str = True) -> pd.DataFrame | None:
        """Any table group of the schema, decoded (hashes hex, strings str, CSR lists as lists).
        Strings are UTF-8 with invalid bytes replaced (U+FFFD); decode=False keeps the stored
        bytes, and an error handler name (decode="surrogateescape") gives str that round-trips."""
        group = "/" + group.strip("/")
        with h5py.File(self.path, "r") as f:
            obj = f.get(group)
            if not isinstance(obj, h5py.Group):
                return None
            return _read_table(obj, group, decode)

    def snapshot(self, skip_groups=(), skip_root_attrs=()) -> tuple[dict, dict]:
        """The whole file as stored, for exact comparisons of two results: ({dataset path: numpy
        array}, {group or dataset path: {attribute: value}}, the root being "/"). skip_groups
        leaves groups out (e.g. JOB_TABLES), skip_root_attrs root attributes (JOB_ROOT_ATTRS)."""
        skip = tuple(g.rstrip("/") + "/" for g in skip_groups)
        datasets: dict[str, np.ndarray] = {}
        attrs = {"/": {k: v for k, v in self.attrs.items() if k not in skip_root_attrs}}

        def visit(name, obj):
            path = "/" + name
            if (path + "/").startswith(skip):
                return
            if isinstance(obj, h5py.Dataset):
                datasets[path] = obj[()]
            if isinstance(obj, h5py.Group) or obj.attrs:  # groups always: an extra one shows
                attrs[path] = {k: attr_value(v) for k, v in obj.attrs.items()}
        with h5py.File(self.path, "r") as f:
            f.visititems(visit)
        return datasets, attrs

    # Tables -----------------------------------------------------------------------------------
    def _named_values(self, group) -> pd.Series:
        t = self.table(group)
        if t is None or t.empty:
            return pd.Series(dtype=np.int64, name="value").rename_axis("name")
        return pd.Series(t["value"].to_numpy(), index=pd.Index(t["name"], name="name"),
                         name="value")

    @functools.cached_property
    def counters(self) -> pd.Series:
        """What the data held (identical for any rank count): records, chunks, skip reasons."""
        return self._named_values(COUNTERS)

    @functools.cached_property
    def resources(self) -> pd.Series:
        """How the run used the machine: peak memory, shuffle volume (rank-count dependent)."""
        return self._named_values(RESOURCES)

    timings = functools.cached_property(lambda self: self.table(TIMINGS))
    errors = functools.cached_property(lambda self: self.table(ERRORS))
    chunks = functools.cached_property(lambda self: self.table(CHUNKS))
    chunk_histogram = functools.cached_property(
        lambda self: self.table(CHUNK_HISTOGRAM))
    files = functools.cached_property(lambda self: self.table(FILES))
    file_histogram = functools.cached_property(
        lambda self: self.table(FILE_HISTOGRAM))
    labels = functools.cached_property(lambda self: self.table(LABELS))
    labels_histogram = functools.cached_property(lambda self: self.table(LABELS_HISTOGRAM))
    detection_labels = functools.cached_property(lambda self: self.table(DETECTION_LABELS))
    provenance = functools.cached_property(lambda self: self.table(PROVENANCE))
    pages = functools.cached_property(lambda self: self.table(PAGES))
    neighborhoods = functools.cached_property(
        lambda self: self.table(NEIGHBORHOODS))
    neardup_pairs = functools.cached_property(lambda self: self.table(NEARDUP_PAIRS))
    neardup_degree = functools.cached_property(lambda self: self.table(NEARDUP_DEGREE))
    neardup_identical = functools.cached_property(lambda self: self.table(NEARDUP_IDENTICAL))
    neardup_clusters = functools.cached_property(lambda self: self.table(NEARDUP_CLUSTERS))
    neardup_representatives = functools.cached_property(lambda self: self.table(NEARDUP_REPRESENTATIVES))

    @functools.cached_property
    def chunks_attrs(self) -> dict[str, Any]:
        return self.group_attrs(CHUNKS)

    @functools.cached_property
    def files_attrs(self) -> dict[str, Any]:
        return self.group_attrs(FILES)

    @functools.cached_property
    def labels_attrs(self) -> dict[str, Any]:
        return self.group_attrs(LABELS)

    @functools.cached_property
    def detection_attrs(self) -> dict[str, Any]:
        return self.group_attrs(DETECTION)

    @functools.cached_property
    def neardup_attrs(self) -> dict[str, Any]:
        return self.group_attrs(NEARDUP)

    # Joins used when reading a detection -------------------------------------------------------
    def pages_under(self, prefix: str) -> pd.DataFrame | None:
        """Detection pages in the neighborhood `prefix`: keys equal to it or below it."""
        pages = self.pages
        if pages is None:
            return None
        under = (pages["url"] == prefix) | pages["url"].str.startswith(prefix.rstrip("/") + "/")
        return pages[under]

    def rank_neighborhoods(self, by: str = "badness", depth: int | None = None,
                           top: int | None = None) -> pd.DataFrame | None:
        """Neighborhoods as `crd inspect --rank BY [--depth D] [--top N]` lists them: BY (badness,
        labeled or pages) descending, ties by prefix ascending; only depth D if given (0 = hosts,
        1 = the paper's path length 1). §8.1's "40 neighborhoods with the most bad chunks" is
        rank_neighborhoods("labeled", depth=1, top=40) of a run with --min-neighborhood-labeled."""
        if by not in RANK_KEYS:
            raise ValueError("rank by %r: expected one of %s" % (by, ", ".join(RANK_KEYS)))
        hoods = self.neighborhoods
        if hoods is None:
            return None
        if depth is not None:
            hoods = hoods[hoods["depth"] == depth]
        # Stored by prefix: a stable sort on the key alone breaks ties by prefix.
        ranked = hoods.sort_values(by, ascending=False, kind="stable")
        return ranked if top is None else ranked.head(top)

    def page_matches(self, url: str) -> pd.DataFrame | None:
        """The labeled chunks matched on one page: position, label id and the label's row."""
        pages, labels = self.pages, self.detection_labels
        if pages is None or labels is None:
            return None
        rows = pages[pages["url"] == url]
        if rows.empty:
            raise KeyError(url)
        row = rows.iloc[0]
        matches = pd.DataFrame({"position": row["positions"], "label_id": row["label_ids"]},
                               dtype=np.int64)
        return matches.join(labels[["hash", "length", "sample"]], on="label_id")

    def input_description(self) -> str:
        """A short name for the run's input, for figure titles: the configured inputs if the
        config names them, else the result file's name."""
        for section in [self.config.default_section, *self.config.sections()]:
            values = self.config[section]
            for key in ("inputs", "input", "corpus", "paths"):
                if key in values and values[key].strip():
                    text = " ".join(values[key].split())
                    return text if len(text) <= 60 else text[:57] + "..."
        inputs = _positional_inputs(str(self.attrs.get("command_line", "")))
        if inputs:
            text = " ".join(os.path.basename(p.rstrip("/")) or p for p in inputs)
            return text if len(text) <= 60 else text[:57] + "..."
        return os.path.basename(self.path)


def _positional_inputs(command_line: str) -> list[str]:
    """The INPUT arguments of a crd command line: every crd option takes a value except these."""
    flags = {"--resume", "--help", "-h"}
    words = command_line.split()[1:]  # after the subcommand
    out, i = [], 0
    while i < len(words):
        w = words[i]
        if w.startswith("-"):
            i += 1 if (w in flags or "=" in w) else 2
            continue
        out.append(w)
        i += 1
    return out


def open_results(path: str | os.PathLike) -> CrdResult:
    """Opens a crd result file, checking that it is one and that its schema version is known.

    Raises CrdFileError for a missing file, a file that is not HDF5, an HDF5 file without the
    root attribute schema_version, or an unsupported schema version."""
    name = os.fspath(path)
    if not os.path.isfile(name):
        raise CrdFileError(f"{name}: no such file")
    try:
        f = h5py.File(name, "r")
    except OSError as err:
        raise CrdFileError(f"{name} is not a crd result file (not HDF5: {err})") from err
    with f:
        attrs = {k: attr_value(v) for k, v in f.attrs.items()}
    if "schema_version" not in attrs:
        raise CrdFileError(f"{name} is not a crd result file (no root attribute schema_version)")
    version = attrs["schema_version"]
    if not isinstance(version, int) or isinstance(version, bool) or \
            version not in SUPPORTED_SCHEMA_VERSIONS:
        supported = ", ".join(str(v) for v in SUPPORTED_SCHEMA_VERSIONS)
        raise CrdFileError(f"{name}: schema version {version} not supported "
                           f"(this reader supports {supported})")
    return CrdResult(name, attrs)
