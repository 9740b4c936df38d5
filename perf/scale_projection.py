#!/usr/bin/env python3
"""The projection of perf/scale_model.py: a fitted Model (memory, shuffle and CPU per byte) and
stated assumptions about nodes, network, file system and crawls → hours, node-hours, memory per
node, shuffle volume and the bottleneck, for 16, 64 and 256 nodes, in memory and out of core
(docs/scale.md discusses every assumption). Out-of-core counting is crd's hash-space passes
(docs/memory.md): each pass reads and chunks the input again and holds 1/P of the hash tables.
"""

import math

# What the projection assumes; docs/scale.md discusses each. Sizes in bytes, rates in bytes/s.
ASSUMPTIONS = {
    "node_cores": 64, "node_memory": 256e9,
    "memory_usable": 0.90,          # of a node's memory for crd's ranks (the rest: OS, page cache)
    "ranks_per_node": 64,           # one rank per core
    "node_read_rate": 2.0e9,        # each node's share of the file system (25 GbE-class link)
    "fs_read_rate": 40e9,           # the whole file system's read rate (a mid-size Lustre/Ceph)
    "network_rate": 2.5e9,          # per node, all-to-all (25 GbE at ~80 %)
    "shuffle_buffer": 64 << 20,     # crd's default --shuffle-buffer; 2 per rank are resident
    "page_bytes_per_chunk": 4,      # run/detect keep 4 bytes per chunk occurrence (docs/memory.md)
    "page_key_bytes": 100,          # per page: URL key + 32
}
CRAWLS = {
    # The paper's §5: 2.86e9 items, 26 TB compressed, 99 TB uncompressed, 40.5e9 chunks.
    "Common Crawl 2009/10": {"pages": 2.86e9, "bytes": 99e12, "input_bytes": 26e12, "chunks": 40.5e9},
    # A current month: ~3e9 pages in ~100 TB of gzipped WARC; uncompressed = the paper's ratio
    # (99/26), chunks = pages × 43 (docs/scale.md: the synthetic crawl's chunks per page).
    "monthly crawl (~100 TB WARC)": {"pages": 3.0e9, "bytes": 100e12 * 99 / 26, "input_bytes": 100e12,
                                     "chunks": 3.0e9 * 43},
}
NODES = (16, 64, 256)


def project(model, crawl, nodes, command, out_of_core, A=ASSUMPTIONS):
    """One row of the projection: hours, memory per node, shuffle volume, passes, bottleneck."""
    ranks = int(nodes * A["ranks_per_node"])
    chunks, bytes_, input_bytes, pages = crawl["chunks"], crawl["bytes"], crawl["input_bytes"], crawl["pages"]
    budget = A["node_memory"] * A["memory_usable"] / A["ranks_per_node"]
    fixed = model.m0 + 2 * A["shuffle_buffer"]
    page_part = (A["page_bytes_per_chunk"] * chunks + A["page_key_bytes"] * pages) / ranks if command != "discover" else 0.0
    hash_part = max(0.0, model.rss(chunks, ranks) - model.m0 - page_part)
    room = budget - fixed - page_part
    needed = 1 if hash_part <= room else (math.ceil(hash_part / room) if room > 0 else None)
    fits = needed == 1
    passes = needed if out_of_core else 1
    row = {"crawl": crawl["name"], "command": command, "nodes": nodes, "ranks": ranks,
           "out_of_core": out_of_core, "passes": passes, "fits": fits or (out_of_core and needed is not None)}
    if passes is None:
        row.update(hours=None, bottleneck="memory: the page part alone exceeds a rank's share")
        return row
    # Hash-space passes (docs/memory.md) read and chunk the input once per pass, run twice per pass
    # (counting, then scoring); the first scan, which stops where the tables reach the budget and
    # chooses P, reads about 1/P of it more.
    reads = passes * (2 if command != "discover" and passes > 1 else 1) + (1.0 / passes if passes > 1 else 0.0)
    rss = hash_part / passes + fixed + page_part
    # one core per rank; more ranks than cores on a node time-share them
    compute = model.cpu(bytes_ * reads / ranks) * max(1.0, A["ranks_per_node"] / A["node_cores"])
    read = input_bytes * reads / min(nodes * A["node_read_rate"], A["fs_read_rate"])
    shuffle = model.shuffle(chunks, ranks)
    network = shuffle / nodes / A["network_rate"]
    seconds = max(compute, read) + network
    parts = {"compute (chunk + hash + count)": compute, "file system read": read, "shuffle (network)": network}
    bottleneck = max(parts, key=parts.get)
    if reads > 1 and bottleneck != "shuffle (network)":
        bottleneck += ", input read %.1f×" % reads
    if not fits and not out_of_core:
        bottleneck = "memory: %.1f GB per rank > %.1f GB (needs %s passes)" % (
            (hash_part + fixed + page_part) / 1e9, budget / 1e9, needed)
    row.update(hours=seconds / 3600, node_hours=seconds / 3600 * nodes, rss_per_rank=rss,
               memory_per_node=rss * A["ranks_per_node"], shuffle_bytes=shuffle, reads=reads,
               compute_s=compute, read_s=read, network_s=network, bottleneck=bottleneck)
    return row


def min_nodes_in_memory(model, crawl, A=ASSUMPTIONS):
    """The fewest nodes on which a rank's share fits its part of the node's memory in one pass."""
    budget = A["node_memory"] * A["memory_usable"] / A["ranks_per_node"]
    room = budget - model.m0 - 2 * A["shuffle_buffer"]
    return math.ceil(model.mu * crawl["chunks"] / room / A["ranks_per_node"]) if room > 0 else None


def projection(models, A=ASSUMPTIONS):
    rows = []
    for name, crawl in CRAWLS.items():
        crawl = dict(crawl, name=name)
        for command in ("run", "discover"):
            if command not in models:
                continue
            for nodes in NODES:
                for ooc in (False, True):
                    rows.append(project(models[command], crawl, nodes, command, ooc, A))
    return rows


def fmt_bytes(b):
    for unit, scale in (("TB", 1e12), ("GB", 1e9), ("MB", 1e6)):
        if b >= scale:
            return "%.1f %s" % (b / scale, unit)
    return "%.0f B" % b


def projection_table(rows):
    """One line per (crawl, command, nodes): whether it runs in memory, and the out-of-core run
    (the same run when one pass suffices)."""
    lines = ["| crawl | command | nodes | in memory | passes | hours | node-hours | memory/node | shuffle | bottleneck |",
             "|---|---|---:|---|---:|---:|---:|---:|---:|---|"]
    key = lambda r: (r["crawl"], r["command"], r["nodes"])  # noqa: E731
    in_memory = {key(r): r for r in rows if not r["out_of_core"]}
    for r in rows:
        if not r["out_of_core"]:
            continue
        m = in_memory[key(r)]
        fits = "%.2f h" % m["hours"] if m["fits"] else "no: " + m["bottleneck"].split(": ", 1)[1].split(" (")[0]
        if r.get("hours") is None:
            lines.append("| %s | %s | %d | %s | – | – | – | – | – | %s |" % (key(r) + (fits, r["bottleneck"])))
            continue
        lines.append("| %s | %s | %d | %s | %d | %.2f | %.0f | %s | %s | %s |" % (
            r["crawl"], r["command"], r["nodes"], fits, r["passes"], r["hours"], r["node_hours"],
            fmt_bytes(r["memory_per_node"]), fmt_bytes(r["shuffle_bytes"]), r["bottleneck"]))
    return "\n".join(lines)
