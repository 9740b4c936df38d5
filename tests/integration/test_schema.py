# docs/schema.md conformance of real result files (discover, label, detect, run on documentation
# pages plus WARC/ARC samples; quilts on the pages): every documented dataset and attribute with its documented type,
# equal column lengths, CSR offsets of n + 1, and the documented row orders.
# The documented layout is crd_results' schema (TABLES, LISTS, GROUP_ATTRS, ROOT_ATTRS, TABLES_OF),
# so the reader and the files are checked against one definition; types are read with h5py here
# because they are what this test is about.
import unittest

import numpy as np

import crd_integ as ci
from crd_integ import results as R

STR = R.STR


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
        cls.tmp = ci.TempDir("schema")
        warcs = ci.sample_archives(cls.tmp)
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
        out = cls.tmp("quilts.h5")  # the quilts tables too (documentation pages only: no WARC needed)
        ci.run_crd(ci.quiet(["quilts", debref, "--sweep-c", "1,2", "-o", out]), nranks=2)
        cls.files["quilts"] = out

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def test_root_attributes(self):
        for command, path in self.files.items():
            with ci.h5py.File(path, "r") as f, self.subTest(command=command):
                for name, spec in R.ROOT_ATTRS.items():
                    self.assertIn(name, f.attrs, name)
                    self.assertTrue(attr_ok(f.attrs[name], spec), "%s: %r" % (name, f.attrs[name]))
                undocumented = sorted(set(f.attrs) - set(R.ROOT_ATTRS))
                if undocumented:
                    print("note: root attributes not in docs/schema.md:", undocumented)
            r = ci.open_results(path)
            self.assertEqual((r.schema_version, r.command), (1, command))
            self.assertEqual(r.attrs["nranks"], 2 if command in ("detect", "quilts") else 3)
            self.assertRegex(r.attrs["created"], r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d")

    def test_tables(self):
        for command, path in self.files.items():
            with ci.h5py.File(path, "r") as f:
                for group in R.TABLES_OF[command]:
                    with self.subTest(command=command, group=group):
                        self.assertIn(group, f)
                        n = None
                        for col, spec in R.TABLES[group].items():
                            self.assertIn(col, f[group], "%s/%s" % (group, col))
                            d = f[group][col]
                            if spec == R.HASH:
                                self.assertEqual((d.dtype, d.ndim, d.shape[1]), (np.uint8, 2, R.HASH_WIDTH), col)
                            else:
                                self.assertTrue(dtype_ok(d.dtype, spec), "%s/%s: %s, want %s" % (group, col, d.dtype, spec))
                                self.assertEqual(d.ndim, 1, col)
                            n = d.shape[0] if n is None else n
                            self.assertEqual(d.shape[0], n, "column %s/%s length" % (group, col))
                        for col, spec in R.LISTS.get(group, {}).items():
                            off = f[group][col + "_offsets"]
                            self.assertTrue(dtype_ok(f[group][col].dtype, spec), col)
                            self.assertEqual(off.dtype, np.uint64, col + "_offsets")
                            self.assertEqual(len(off), n + 1, col + "_offsets has n + 1 entries")
                            R.csr_rows(f[group][col][()], off[()], group + "/" + col)  # raises unless valid
                        for name, spec in R.GROUP_ATTRS.get(group, {}).items():
                            if name in R.CONDITIONAL_ATTRS.get(group, ()) and name not in f[group].attrs:
                                continue
                            self.assertIn(name, f[group].attrs, "%s@%s" % (group, name))
                            self.assertTrue(attr_ok(f[group].attrs[name], spec), "%s@%s" % (group, name))
                        if "labeled" in R.GROUP_ATTRS.get(group, {}):
                            self.assertEqual(int(f[group].attrs["labeled"]), n)
                if command in ("detect", "run"):
                    for name, spec in R.GROUP_ATTRS[R.DETECTION].items():
                        if name in R.CONDITIONAL_ATTRS[R.DETECTION]:
                            self.assertNotIn(name, f[R.DETECTION].attrs, "written only with betabinomial")
                            continue
                        self.assertTrue(attr_ok(f[R.DETECTION].attrs[name], spec), "/detection@" + name)

    def test_row_orders(self):
        for command, path in self.files.items():
            r = ci.open_results(path)
            with self.subTest(command=command):
                names = r.counters.index.tolist()
                self.assertEqual(names, sorted(names), "counters by name")
                errors = r.table(R.ERRORS, decode=False)
                errs = list(zip(errors["file"], errors["offset"]))
                self.assertEqual(errs, sorted(errs), "errors by file then offset")
                for group in (R.CHUNKS, R.FILES):
                    t, a = r.table(group), r.group_attrs(group)
                    if t is not None:
                        keys = list(zip(-t["count"], t["hash"]))
                        self.assertEqual(keys, sorted(keys), group + ": count descending then hash")
                        self.assertTrue(np.all(t["count"] > a["threshold"]))
                for group, parent in ((R.CHUNK_HISTOGRAM, R.CHUNKS), (R.FILE_HISTOGRAM, R.FILES)):
                    t, a = r.table(group), r.group_attrs(parent)
                    if t is not None:
                        occ = t["occurrences"].tolist()
                        self.assertEqual(occ, sorted(set(occ)), group + " strictly ascending")
                        self.assertEqual(int((t["occurrences"] * t["distinct"]).sum()), a["total"], group + " sums to total")
                        self.assertEqual(int(t["distinct"].sum()), a["distinct"])
                for group in (R.LABELS, R.DETECTION_LABELS):
                    t = r.table(group)
                    if t is not None:
                        h = t["hash"].tolist()
                        self.assertEqual(h, sorted(set(h)), group + " by hash, distinct")
                if r.pages is not None:
                    urls = r.table(R.PAGES, decode=False)["url"].tolist()
                    # Rows by url. Not necessarily one row per key: a WARC may hold several captures of
                    # one URL (the samples hold example.com 4 times), and each capture is a page.
                    self.assertEqual(urls, sorted(urls), "pages by url")
                    if len(set(urls)) != len(urls):
                        print("note: %d page rows share a key with another row" % (len(urls) - len(set(urls))))
                    hoods = r.table(R.NEIGHBORHOODS, decode=False)
                    prefixes = hoods["prefix"].tolist()
                    self.assertEqual(prefixes, sorted(set(prefixes)), "neighborhoods by prefix")
                    self.assertEqual(hoods["depth"].tolist(), [p.count(b"/") for p in prefixes], "depth = path components")
                    p = r.table(R.PROVENANCE, decode=False)
                    prov = list(zip(p["label"].tolist(), p["url"]))
                    self.assertEqual(prov, sorted(set(prov)), "provenance by label then url")
                    nlabels = len(r.detection_labels)
                    self.assertEqual(r.detection_attrs["labels"], nlabels)
                    self.assertTrue(all(lab < nlabels for lab, _ in prov))
                    self.assertGreater(len(urls), 0)

    def test_page_rows_consistent(self):
        for command in ("run", "detect"):
            r = ci.open_results(self.files[command])
            with self.subTest(command=command):
                t = r.pages
                nlabels = len(r.detection_labels)
                self.assertTrue(np.all(t["chunks"] >= 1))
                self.assertTrue(np.all(t["labeled"] <= t["chunks"]))
                self.assertTrue(np.allclose(t["containment"], t["labeled"] / t["chunks"], rtol=0, atol=1e-15))
                for chunks, labeled, pos, ids in zip(t["chunks"], t["labeled"], t["positions"], t["label_ids"]):
                    self.assertEqual(len(pos), labeled)
                    self.assertEqual(len(ids), len(pos))
                    self.assertEqual(pos, sorted(set(pos)))
                    self.assertTrue(all(p < chunks for p in pos))
                    self.assertTrue(all(x < nlabels for x in ids))
                self.assertEqual(int(r.detection_labels["occurrences"].sum()), int(t["labeled"].sum()),
                                 "occurrences sum to labeled chunks")


if __name__ == "__main__":
    ci.main()
