# Hostile result files, round 4 (docs/hostile-input.md, "Round 4", "Result files"): real results of
# crd label, discover, run and merge, corrupted with h5py the way a shared or downloaded result can
# be — an attribute holding an array instead of one value, a column of shape (n, 0) or (n, 3), a
# datatype whose bit offset is 65,024, row starts one short, decreasing or 2^62, label ids past the
# labels table. Every command that opens a result (inspect, report, check, compare, detect --labels,
# merge at 1 and 2 ranks) must refuse each with ONE line naming the file, the HDF5 path and the
# rule, and a non-zero exit: no crash, no sanitizer report, no "vector::_M_range_check".
# Run: python3 test_round4_result_files.py [TestClass…]
import os
import shutil
import sys
import unittest

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "support"))
import crd_integ as ci  # noqa: E402  (exits 77 without h5py)
import hostile_results  # noqa: E402  (tests/support)
from hostile_results import QUIET, replace_dataset  # noqa: E402

h5py = ci.h5py
TIMEOUT = 120
A = 0x4141414141414141  # a pointer-shaped value, as hostile files hold


def replace_attribute(f, obj, name, value):
    """Replaces f[obj].attrs[name] by `value` (an array: what hostile files hold)."""
    attrs = f[obj].attrs
    if name in attrs:
        del attrs[name]
    attrs[name] = value


def as_earliest_format(path):
    """Rewrites the HDF5 file at path in the library's earliest format (object headers without
    checksums), every dataset and attribute with its own datatype."""
    tmp = path + ".earliest"
    with h5py.File(path, "r") as src, h5py.File(tmp, "w", libver="earliest") as dst:
        for key in src:
            src.copy(src[key], dst, name=key)
        for name in src.attrs:
            dst.attrs.create(name, src.attrs[name], dtype=src.attrs.get_id(name).dtype)
    os.replace(tmp, path)


def corrupt_schema_version_type(path):
    """Gives /@schema_version an integer type with a bit offset of 65,024 (a byte-flipped
    file): written with a rare but valid layout (precision 16 at offset 8) that h5py can make,
    then the offset bytes of its datatype message patched in the file. crd writes HDF5's 1.8 format,
    whose object headers carry a checksum that catches a flipped byte; a result file from elsewhere
    may be in the earliest format, which has none, so the file is first copied into that format."""
    as_earliest_format(path)
    with h5py.File(path, "r+") as f:
        del f.attrs["schema_version"]
        tid = h5py.h5t.STD_I64LE.copy()
        tid.set_precision(16)
        tid.set_offset(8)
        attr = h5py.h5a.create(f.id, b"schema_version", tid, h5py.h5s.create(h5py.h5s.SCALAR))
        attr.write(np.array(1, dtype="<i8"))
    with open(path, "rb") as f:
        data = f.read()
    # Fixed-point properties: size (4 bytes) = 8, bit offset (2) = 8, precision (2) = 16.
    marker = b"\x08\x00\x00\x00\x08\x00\x10\x00"
    assert data.count(marker) == 1, data.count(marker)
    data = data.replace(marker, b"\x08\x00\x00\x00\x00\xfe\x40\x00")  # offset 65,024, precision 64
    with open(path, "wb") as f:
        f.write(data)


class Fixture(hostile_results.ResultFiles):
    """The labels, a discover --keep-counts result and a detect result whose pages hold labels."""

    def __init__(self):
        super().__init__("round4-results", pages=5, shared=lambda n: 3 + n % 5)
        self.count = 0

    def make_result(self, out):
        ci.run_crd(["detect", self.corpus, "--labels", self.labels, "-o", out] + QUIET)
        with h5py.File(out, "r") as f:
            offsets = f["/detection/pages/label_ids_offsets"][...]
            assert offsets[-1] > 0 and len(offsets) > 3, offsets  # pages hold labels: the cases bite

    def copy(self, source, name):
        self.count += 1
        return super().copy(source, "%02d-%s" % (self.count, name))


fixture = hostile_results.OnePerModule(Fixture)


def tearDownModule():
    fixture.cleanup()


class Refusals(unittest.TestCase):
    maxDiff = None

    @classmethod
    def setUpClass(cls):
        cls.f = fixture()

    def commands(self, bad, which):
        """(label, args, nranks, output) of each command in `which` run on the hostile file `bad`."""
        f = self.f
        out = f.tmp(os.path.basename(bad) + ".out")
        made = {
            "inspect": (["inspect", bad], None, None),
            "report": (["report", bad, "-o", out + ".html"], None, out + ".html"),
            "check": (["check", "--labels", bad, f.pages[0]], None, None),
            "compare": (["compare", "--labels", bad, "--chunker", "scan", f.pages[0], f.pages[1]], None, None),
        }
        for n in (1, 2):
            made["detect%d" % n] = (["detect", f.corpus, "--labels", bad, "-o", out + ".d%d.h5" % n] + QUIET, n,
                                    out + ".d%d.h5" % n)
            made["merge%d" % n] = (["merge", f.discovered, bad, "-o", out + ".m%d.h5" % n] + QUIET, n,
                                   out + ".m%d.h5" % n)
        return [(w,) + made[w] for w in which]

    def assert_refused(self, bad, which, hdf5_path, rule):
        """Each command of `which` on `bad`: exit 1 or 2, one stderr line naming the file, the HDF5
        path and matching `rule`, no output left behind."""
        for label, args, nranks, output in self.commands(bad, which):
            with self.subTest(command=label):
                cmd = ([] if nranks is None else ci.mpi_prefix(nranks, quiet=True)) + [ci.crd_binary()] + args
                proc = ci.run_crd(args, nranks=nranks, check=False, timeout=TIMEOUT, mpi_quiet=True)
                detail = "%s\n%s" % (" ".join(cmd), ci.stderr_excerpt(proc.stderr))
                self.assertIn(proc.returncode, (1, 2), detail)
                lines = proc.stderr.splitlines()
                self.assertEqual(len(lines), 1, detail)
                self.assertIn(bad, lines[0], detail)
                self.assertIn(hdf5_path, lines[0], detail)
                self.assertRegex(lines[0], rule, detail)
                self.assertNotIn("_M_range_check", lines[0])
                if output is not None:
                    self.assertFalse(os.path.exists(output), "output left behind: " + output)


LABEL_USERS = ["inspect", "report", "check", "compare", "detect1", "detect2"]
SCALAR = r"holds shape \(2,\) \(2 values\); the schema says one value \(a scalar\)"


class ArrayAttributes(Refusals):
    """An attribute that holds an array where the schema says one value."""

    def test_nranks_of_two_pointer_shaped_values(self):
        bad = self.f.copy(self.f.labels, "nranks.h5")
        with h5py.File(bad, "r+") as f:
            replace_attribute(f, "/", "nranks", np.array([A, A], dtype="<u8"))
        self.assert_refused(bad, ["inspect", "report", "check", "detect1", "detect2"], "/@nranks", SCALAR)
        bad = self.f.copy(self.f.discovered, "nranks-merge.h5")
        with h5py.File(bad, "r+") as f:
            replace_attribute(f, "/", "nranks", np.array([A, A], dtype="<u8"))
        self.assert_refused(bad, ["inspect", "merge1", "merge2"], "/@nranks", SCALAR)

    def test_string_arrays_in_root_attributes(self):
        for name in ("config", "command", "created"):
            bad = self.f.copy(self.f.labels, name + ".h5")
            with h5py.File(bad, "r+") as f:
                replace_attribute(f, "/", name, ["AAAAAAAA", "BBBBBBBB"])
            self.assert_refused(bad, ["inspect", "report", "detect1", "detect2"], "/@" + name, SCALAR)
        for name in ("command", "created"):
            bad = self.f.copy(self.f.discovered, name + "-merge.h5")
            with h5py.File(bad, "r+") as f:
                replace_attribute(f, "/", name, np.array([b"AAAAAAAA", b"BBBBBBBB"]))
            self.assert_refused(bad, ["merge1", "merge2"], "/@" + name, SCALAR)

    def test_labels_chunking_as_an_array(self):
        bad = self.f.copy(self.f.labels, "chunking.h5")
        with h5py.File(bad, "r+") as f:
            replace_attribute(f, "/labels", "chunking", ["chunker=scan", "chunker=dom"])
        self.assert_refused(bad, ["check", "compare", "detect1", "detect2"], "/labels@chunking", SCALAR)

    def test_discovery_threshold_as_an_array(self):
        bad = self.f.copy(self.f.discovered, "threshold.h5")
        with h5py.File(bad, "r+") as f:
            replace_attribute(f, "/discovery/chunks", "threshold", np.array([A, A], dtype="<u8"))
        self.assert_refused(bad, ["inspect", "report"], "/discovery/chunks@threshold", SCALAR)

    def test_detection_float_attributes_as_arrays(self):
        for name in ("page_mean", "page_sigma", "page_threshold", "neighborhood_mean", "neighborhood_sigma",
                     "neighborhood_threshold"):
            bad = self.f.copy(self.f.result, name + ".h5")
            with h5py.File(bad, "r+") as f:
                replace_attribute(f, "/detection", name, np.array([1.5, 2.5]))
            self.assert_refused(bad, ["inspect", "report"], "/detection@" + name, SCALAR)


class Shapes(Refusals):
    """Columns of another shape than the schema's."""

    def replaced(self, source, name, column, make):
        bad = self.f.copy(source, name + ".h5")
        with h5py.File(bad, "r+") as f:
            old = f[column][...]
            replace_dataset(f, column, data=make(old))
        return bad

    def test_flagged_of_shape_n_0(self):
        bad = self.replaced(self.f.result, "flagged", "/detection/pages/flagged",
                            lambda v: np.zeros((len(v), 0), dtype=np.uint8))
        self.assert_refused(bad, ["inspect", "report"], "/detection/pages/flagged",
                            r"has shape \(\d+, 0\); the schema says \(n,\)")

    def test_zero_width_containment(self):
        bad = self.replaced(self.f.result, "containment", "/detection/pages/containment",
                            lambda v: np.zeros((len(v), 0), dtype=np.float64))
        self.assert_refused(bad, ["inspect", "report"], "/detection/pages/containment",
                            r"has shape \(\d+, 0\); the schema says \(n,\)")

    def test_counters_of_shape_n_3(self):
        make = lambda v: np.stack([v, v, v], axis=1)  # noqa: E731
        bad = self.replaced(self.f.result, "counters", "/run/counters/value", make)
        self.assert_refused(bad, ["inspect", "report"], "/run/counters/value",
                            r"has shape \(\d+, 3\); the schema says \(n,\)")
        bad = self.replaced(self.f.discovered, "counters-merge", "/run/counters/value", make)
        self.assert_refused(bad, ["merge1", "merge2"], "/run/counters/value",
                            r"has shape \(\d+, 3\); the schema says \(n,\)")

    def test_a_float_column_stored_as_strings(self):
        bad = self.replaced(self.f.result, "containment-str", "/detection/pages/containment",
                            lambda v: np.array([b"0.5"] * len(v)))
        self.assert_refused(bad, ["inspect", "report"], "/detection/pages/containment",
                            r"holds fixed-length strings; the schema says floats")


class Datatypes(Refusals):
    def test_schema_version_with_a_bit_offset_of_65024(self):
        bad = self.f.copy(self.f.labels, "bitoffset.h5")
        corrupt_schema_version_type(bad)
        self.assert_refused(bad, LABEL_USERS, "/@schema_version",
                            r"corrupted integer type \(8 bytes, precision 64, bit offset 65024")
        bad = self.f.copy(self.f.discovered, "bitoffset-merge.h5")
        corrupt_schema_version_type(bad)
        self.assert_refused(bad, ["merge1", "merge2"], "/@schema_version", r"bit offset 65024")


class RowsAndIndexes(Refusals):
    """Row starts and indexes into another table, checked before any value is used."""

    OFFSETS = "/detection/pages/label_ids_offsets"

    def offsets(self, name, make):
        bad = self.f.copy(self.f.result, name + ".h5")
        with h5py.File(bad, "r+") as f:
            replace_dataset(f, self.OFFSETS, data=make(f[self.OFFSETS][...].astype(np.uint64)))
        return bad

    def test_row_starts_one_short(self):
        bad = self.offsets("offsets-short", lambda v: v[:-1])
        self.assert_refused(bad, ["report"], self.OFFSETS, r"has \d+ rows but /detection/pages/url has \d+")

    def test_decreasing_row_starts(self):
        bad = self.offsets("offsets-decreasing", lambda v: v[::-1].copy())
        self.assert_refused(bad, ["report"], self.OFFSETS, r"row starts decrease \(\d+ then \d+\)")

    def test_row_starts_of_2_62(self):
        def huge(v):
            v[1:] = 1 << 62
            return v
        bad = self.offsets("offsets-huge", huge)
        self.assert_refused(bad, ["report"], self.OFFSETS,
                            r"holds row start 4611686018427387904 past the end of /detection/pages/label_ids")

    def test_label_ids_past_the_labels_table(self):
        bad = self.f.copy(self.f.result, "label-ids.h5")
        with h5py.File(bad, "r+") as f:
            ids = f["/detection/pages/label_ids"][...]
            ids[0] = 4294967280
            f["/detection/pages/label_ids"][...] = ids
        self.assert_refused(bad, ["report"], "/detection/pages/label_ids",
                            r"holds row 4294967280 of /detection/labels, which has \d+ rows")

    def test_provenance_label_past_the_labels_table(self):
        bad = self.f.copy(self.f.result, "provenance.h5")
        with h5py.File(bad, "r+") as f:
            ids = f["/detection/provenance/label"][...]
            ids[-1] = 4000000000
            f["/detection/provenance/label"][...] = ids
        self.assert_refused(bad, ["report"], "/detection/provenance/label",
                            r"holds row 4000000000 of /detection/labels, which has \d+ rows")


class WellFormed(Refusals):
    """The same commands on the untouched files still succeed (the checks refuse only what breaks a rule)."""

    def test_untouched_results_are_read(self):
        f = self.f
        for args, nranks in ((["inspect", f.result], None), (["report", f.result, "-o", f.tmp("ok.html")], None),
                             (["check", "--labels", f.labels, f.pages[0]], None),
                             (["detect", f.corpus, "--labels", f.labels, "-o", f.tmp("ok-d.h5")] + QUIET, 2),
                             (["merge", f.discovered, f.discovered + ".copy.h5", "-o", f.tmp("ok-m.h5")] + QUIET, 2)):
            if args[0] == "merge":
                shutil.copyfile(f.discovered, f.discovered + ".copy.h5")
            with self.subTest(command=args[0]):
                proc = ci.run_crd(args, nranks=nranks, check=False, timeout=TIMEOUT, mpi_quiet=True)
                self.assertEqual(proc.returncode, 0, ci.stderr_excerpt(proc.stderr))


if __name__ == "__main__":
    ci.main()
