#!/usr/bin/python3
"""Compare two crd result files byte for byte, dataset by dataset, under the given groups.

    perf/compare_results.py OLD.h5 NEW.h5 [--group /discovery --group /detection ...]

Every dataset (dtype, shape and raw bytes; variable-length strings element by element) and
every attribute of every group and dataset below each group must be equal, and both files must
hold the same names. /run holds timings, which legitimately differ, so it is not compared unless
asked. Exit 0 when equal; otherwise one line per difference and exit 1 (2: a file is unreadable).
Used by perf/compare_outputs.sh (old binary against new on the documentation corpus).
"""
import argparse
import sys

import h5py
import numpy as np

DEFAULT_GROUPS = ["/discovery", "/detection", "/labels"]


def walk(group):
    """name -> object for the group itself and everything below it."""
    found = {group.name: group}

    def add(name, obj):
        found[f"{group.name}/{name}"] = obj  # returns None: a value would stop visititems

    group.visititems(add)
    return found


def same_values(a, b):
    if isinstance(a, np.ndarray) or isinstance(b, np.ndarray):
        a, b = np.asarray(a), np.asarray(b)
        if a.dtype != b.dtype or a.shape != b.shape:
            return False
        if a.dtype.kind == "O":
            return all(x == y for x, y in zip(a.ravel().tolist(), b.ravel().tolist()))
        return a.tobytes() == b.tobytes()
    return type(a) is type(b) and a == b


def compare_attrs(name, a, b, diffs):
    if set(a.attrs) != set(b.attrs):
        diffs.append(f"{name}: attributes {sorted(a.attrs)} != {sorted(b.attrs)}")
        return
    for key in a.attrs:
        if not same_values(a.attrs[key], b.attrs[key]):
            diffs.append(f"{name}@{key}: {a.attrs[key]!r} != {b.attrs[key]!r}")


def compare_dataset(name, a, b, diffs):
    if a.dtype != b.dtype or a.shape != b.shape:
        diffs.append(f"{name}: {a.dtype}{a.shape} != {b.dtype}{b.shape}")
        return
    x, y = a[()], b[()]
    if not same_values(x, y):
        if isinstance(x, np.ndarray) and x.ndim >= 1 and x.shape[0] > 0:
            rows = [i for i in range(x.shape[0]) if not same_values(x[i], y[i])]
            diffs.append(f"{name}: {len(rows)} of {x.shape[0]} rows differ, first at {rows[:5]}: "
                         f"{x[rows[0]]!r} != {y[rows[0]]!r}" if rows else f"{name}: bytes differ")
        else:
            diffs.append(f"{name}: {x!r} != {y!r}")


def compare(old_path, new_path, groups):
    diffs = []
    compared = 0
    with h5py.File(old_path, "r") as old, h5py.File(new_path, "r") as new:
        for g in groups:
            if g not in old and g not in new:
                continue
            if (g in old) != (g in new):
                diffs.append(f"{g}: only in {'old' if g in old else 'new'}")
                continue
            a, b = walk(old[g]), walk(new[g])
            for name in sorted(set(a) ^ set(b)):
                diffs.append(f"{name}: only in {'old' if name in a else 'new'}")
            for name in sorted(set(a) & set(b)):
                x, y = a[name], b[name]
                if isinstance(x, h5py.Dataset) != isinstance(y, h5py.Dataset):
                    diffs.append(f"{name}: a dataset in one file, a group in the other")
                    continue
                compare_attrs(name, x, y, diffs)
                if isinstance(x, h5py.Dataset):
                    compare_dataset(name, x, y, diffs)
                    compared += 1
    return compared, diffs


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("old")
    parser.add_argument("new")
    parser.add_argument("--group", action="append", help=f"group to compare (default {DEFAULT_GROUPS})")
    args = parser.parse_args()
    try:
        compared, diffs = compare(args.old, args.new, args.group or DEFAULT_GROUPS)
    except OSError as e:
        print(f"compare_results: {e}", file=sys.stderr)
        return 2
    for d in diffs:
        print(d)
    if compared == 0 and not diffs:
        print(f"compare_results: no dataset under {args.group or DEFAULT_GROUPS} in either file", file=sys.stderr)
        return 1
    print(f"{'DIFFERENT' if diffs else 'identical'}: {compared} datasets, {len(diffs)} differences "
          f"({args.old} vs {args.new})")
    return 1 if diffs else 0


if __name__ == "__main__":
    sys.exit(main())
