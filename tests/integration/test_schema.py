# docs/schema.md conformance of real result files (discover, label, detect, run on documentation
# pages plus WARC/ARC samples): every documented dataset and attribute with its documented type,
# equal column lengths, CSR offsets of n + 1, and the documented row orders.
import re
import unittest

import numpy as np

import crd_integ as ci

STR = "S"
ROOT_ATTRS = {"crd_version": STR, "schema_version": "i8", "command": STR, "nranks": "u8", "created": STR,
              "config": STR}
TABLES = {  # group: {column: dtype}; "hash" = n × 20 uint8
    "/run/counters": {"name": STR, "value": "u8"},
    "/run/timings": {"phase": STR, "seconds": "f8"},
    "/run/errors": {"file": STR, "offset": "u8", "reason": STR},
    "/discovery/chunks": {"hash": "hash", "count": "u8", "length": "u4", "sample": STR, "sample_url": STR},
    "/discovery/chunk_histogram": {"occurrences": "u8", "distinct": "u8"},
    "/discovery/files": {"hash": "hash", "count": "u8", "length": "u8", "sample_url": STR},
    "/discovery/file_histogram": {"occurrences": "u8", "distinct": "u8"},
    "/labels": {"hash": "hash", "length": "u4", "sample": STR, "sample_url": STR, "count": "u8"},
    "/detection/labels": {"hash": "hash", "length": "u4", "sample": STR, "pages": "u8", "neighborhoods": "u8",
                          "occurrences": "u8"},
    "/detection/provenance": {"label": "u4", "url": STR},
    "/detection/pages": {"url": STR, "chunks": "u4", "labeled": "u4", "containment": "f8", "flagged": "u1"},
    "/detection/neighborhoods": {"prefix": STR, "depth": "u4", "pages": "u8", "chunks": "u8", "labeled": "u8",
                                 "badness": "f8", "flagged": "u1"},
}
CSR = {"/detection/pages": {"positions": "u4", "label_ids": "u4"}}
GROUP_ATTRS = {
    "/discovery/chunks": {"threshold": "u8", "total": "u8", "distinct": "u8", "labeled": "u8", "stop_removed": "u8",
                          "min_chunk_length": "u8"},
    "/discovery/files": {"threshold": "u8", "total": "u8", "distinct": "u8", "labeled": "u8", "stop_removed": "u8"},
    "/labels": {"total": "u8", "distinct": "u8", "labeled": "u8", "stop_removed": "u8", "min_chunk_length": "u8"},
    "/detection": {"page_mean": "f8", "page_sigma": "f8", "page_threshold": "f8", "neighborhood_mean": "f8",
                   "neighborhood_sigma": "f8", "neighborhood_threshold": "f8", "badness_mode": STR, "join_mode": STR,
                   "min_labeled": "u8", "labels": "u8"},
}
GROUPS_OF = {
    "discover": ["/run/counters", "/run/timings", "/run/errors", "/discovery/chunks", "/discovery/chunk_histogram",
                 "/discovery/files", "/discovery/file_histogram"],
    "label": ["/run/counters", "/run/timings", "/run/errors", "/labels"],
    "detect": ["/run/counters", "/run/timings", "/run/errors", "/detection/labels", "/detection/provenance",
               "/detection/pages", "/detection/neighborhoods"],
}
GROUPS_OF["run"] = GROUPS_OF["discover"] + GROUPS_OF["detect"][3:]


def dtype_ok(dt, spec):
    if spec == STR:
        return dt.kind == "S"
    return dt == np.dtype("<" + spec) or dt == np.dtype(spec)


def attr_ok(value, spec):
    if spec == STR:
        return isinstance(value, (bytes, str, np.bytes_, np.str_))
    return isinstance(value, np.generic) and value.dtype == np.dtype(spec)


class Schema(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        debref = ci.corpus_package("debian-reference-en")
        warcs = ci.warc_sample_files()
        cls.tmp = ci.TempDir("schema")
        inputs = [debref] + warcs
        discovery = ["--chunk-threshold", "2", "--file-threshold", "1"]
        args = {"discover": discovery, "run": discovery + ["--provenance-samples", "3"], "label": []}
        cls.files = {}
        for command in ("discover", "run", "label"):
            out = cls.tmp(command + ".h5")
            ci.run_crd(ci.quiet([command] + inputs + ["-o", out] + args[command]), nranks=3)
            cls.files[command] = out
        out = cls.tmp("detect.h5")
        ci.run_crd(ci.quiet(["detect"] + inputs + ["--labels", cls.files["discover"], "-o", out]), nranks=2)
        cls.files["detect"] = out

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def test_root_attributes(self):
        for command, path in self.files.items():
            with ci.h5py.File(path, "r") as f, self.subTest(command=command):
                for name, spec in ROOT_ATTRS.items():
                    self.assertIn(name, f.attrs, name)
                    self.assertTrue(attr_ok(f.attrs[name], spec), "%s: %r" % (name, f.attrs[name]))
                self.assertEqual(int(f.attrs["schema_version"]), 1)
                self.assertEqual(ci._plain(f.attrs["command"]), command)
                self.assertEqual(int(f.attrs["nranks"]), 2 if command == "detect" else 3)
                self.assertRegex(ci._plain(f.attrs["created"]), r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d")
                undocumented = sorted(set(f.attrs) - set(ROOT_ATTRS))
                if undocumented:
                    print("note: root attributes not in docs/schema.md:", undocumented)

    def test_tables(self):
        for command, path in self.files.items():
            with ci.h5py.File(path, "r") as f:
                for group in GROUPS_OF[command]:
                    with self.subTest(command=command, group=group):
                        self.assertIn(group, f)
                        n = None
                        for col, spec in TABLES[group].items():
                            self.assertIn(col, f[group], "%s/%s" % (group, col))
                            d = f[group][col]
                            if spec == "hash":
                                self.assertEqual(d.dtype, np.uint8, col)
                                self.assertEqual(d.ndim, 2, col)
                                self.assertEqual(d.shape[1], 20, col)
                            else:
                                self.assertTrue(dtype_ok(d.dtype, spec), "%s/%s: %s, want %s" % (group, col, d.dtype, spec))
                                self.assertEqual(d.ndim, 1, col)
                            n = d.shape[0] if n is None else n
                            self.assertEqual(d.shape[0], n, "column %s/%s length" % (group, col))
                        for col, spec in CSR.get(group, {}).items():
                            off = f[group][col + "_offsets"][()]
                            vals = f[group][col]
                            self.assertTrue(dtype_ok(vals.dtype, spec), col)
                            self.assertEqual(off.dtype, np.uint64, col + "_offsets")
                            self.assertEqual(len(off), n + 1, col + "_offsets has n + 1 entries")
                            self.assertEqual(int(off[0]), 0)
                            self.assertEqual(int(off[-1]), len(vals))
                            self.assertTrue(np.all(np.diff(off.astype(np.int64)) >= 0))
                        for name, spec in GROUP_ATTRS.get(group, {}).items():
                            self.assertIn(name, f[group].attrs, "%s@%s" % (group, name))
                            self.assertTrue(attr_ok(f[group].attrs[name], spec), "%s@%s" % (group, name))
                        if group in GROUP_ATTRS and "labeled" in GROUP_ATTRS[group]:
                            self.assertEqual(int(f[group].attrs["labeled"]), n)
                if command in ("detect", "run"):
                    for name, spec in GROUP_ATTRS["/detection"].items():
                        self.assertTrue(attr_ok(f["/detection"].attrs[name], spec), "/detection@" + name)

    def test_row_orders(self):
        for command, path in self.files.items():
            with ci.h5py.File(path, "r") as f, self.subTest(command=command):
                names = ci.strings(f["/run/counters/name"])
                self.assertEqual(names, sorted(names), "counters by name")
                errs = list(zip(ci.strings(f["/run/errors/file"]), f["/run/errors/offset"][()].tolist()))
                self.assertEqual(errs, sorted(errs), "errors by file then offset")
                for group in ("/discovery/chunks", "/discovery/files"):
                    if group in f:
                        keys = [(-c, h) for c, h in zip(f[group + "/count"][()].tolist(), ci.hexes(f[group + "/hash"]))]
                        self.assertEqual(keys, sorted(keys), group + ": count descending then hash")
                        self.assertTrue(np.all(f[group + "/count"][()] > int(f[group].attrs["threshold"])))
                for group in ("/discovery/chunk_histogram", "/discovery/file_histogram"):
                    if group in f:
                        occ = f[group + "/occurrences"][()].tolist()
                        self.assertEqual(occ, sorted(set(occ)), group + " strictly ascending")
                        total = sum(o * d for o, d in zip(occ, f[group + "/distinct"][()].tolist()))
                        parent = group.replace("chunk_histogram", "chunks").replace("file_histogram", "files")
                        self.assertEqual(total, int(f[parent].attrs["total"]), group + " sums to total")
                        self.assertEqual(int(f[group + "/distinct"][()].sum()), int(f[parent].attrs["distinct"]))
                for group in ("/labels", "/detection/labels"):
                    if group in f:
                        h = ci.hexes(f[group + "/hash"])
                        self.assertEqual(h, sorted(set(h)), group + " by hash, distinct")
                if "/detection" in f:
                    urls = ci.strings(f["/detection/pages/url"])
                    # Rows by url. Not necessarily one row per key: a WARC may hold several captures of
                    # one URL (the samples hold example.com 4 times), and each capture is a page.
                    self.assertEqual(urls, sorted(urls), "pages by url")
                    if len(set(urls)) != len(urls):
                        print("note: %d page rows share a key with another row" % (len(urls) - len(set(urls))))
                    prefixes = ci.strings(f["/detection/neighborhoods/prefix"])
                    self.assertEqual(prefixes, sorted(set(prefixes)), "neighborhoods by prefix")
                    depth = f["/detection/neighborhoods/depth"][()].tolist()
                    self.assertEqual(depth, [p.count(b"/") for p in prefixes], "depth = path components")
                    prov = list(zip(f["/detection/provenance/label"][()].tolist(), ci.strings(f["/detection/provenance/url"])))
                    self.assertEqual(prov, sorted(set(prov)), "provenance by label then url")
                    nlabels = len(f["/detection/labels/hash"])
                    self.assertEqual(int(f["/detection"].attrs["labels"]), nlabels)
                    self.assertTrue(all(lab < nlabels for lab, _ in prov))
                    self.assertGreater(len(urls), 0)

    def test_page_rows_consistent(self):
        for command in ("run", "detect"):
            with ci.h5py.File(self.files[command], "r") as f, self.subTest(command=command):
                t = ci.table(f, "/detection/pages")
                nlabels = len(f["/detection/labels/hash"])
                self.assertTrue(np.all(t["chunks"] >= 1))
                self.assertTrue(np.all(t["labeled"] <= t["chunks"]))
                self.assertTrue(np.allclose(t["containment"], t["labeled"] / t["chunks"], rtol=0, atol=1e-15))
                for i in range(len(t["url"])):
                    pos = ci.csr(t["positions"], t["positions_offsets"], i)
                    ids = ci.csr(t["label_ids"], t["label_ids_offsets"], i)
                    self.assertEqual(len(pos), int(t["labeled"][i]))
                    self.assertEqual(len(ids), len(pos))
                    self.assertEqual(pos, sorted(set(pos)))
                    self.assertTrue(all(p < t["chunks"][i] for p in pos))
                    self.assertTrue(all(x < nlabels for x in ids))
                occ = int(f["/detection/labels/occurrences"][()].sum())
                self.assertEqual(occ, int(t["labeled"].sum()), "occurrences sum to labeled chunks")


if __name__ == "__main__":
    ci.main()
