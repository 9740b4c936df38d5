"""Tests of analysis/crd_results.py against files written by crd_fixture.py per docs/schema.md."""

import hashlib
import os
import re
import sys
import tempfile
import unittest
from pathlib import Path

import h5py
import numpy as np
import pandas as pd

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "analysis"))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import crd_fixture  # noqa: E402
from crd_results import CrdFileError, open_results  # noqa: E402


def hexsha1(data: bytes) -> str:
    return hashlib.sha1(data).hexdigest()


class ResultFiles(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory()
        cls.paths, cls.expected = {}, {}
        for command in ("run", "discover", "label", "detect"):
            path = os.path.join(cls.tmp.name, f"{command}.h5")
            cls.expected[command] = crd_fixture.write_result(path, command)
            cls.paths[command] = path
        cls.res = open_results(cls.paths["run"])
        cls.exp = cls.expected["run"]

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()


class RootAndRun(ResultFiles):
    def test_root_attributes(self):
        self.assertEqual(self.res.schema_version, 1)
        self.assertEqual(self.res.command, "run")
        self.assertEqual(self.res.attrs["nranks"], 4)
        self.assertEqual(self.res.attrs["crd_version"], "0.1.0")
        self.assertEqual(self.res.attrs["created"], "2024-05-01T12:00:00Z")
        self.assertEqual(self.res.attrs["config"], crd_fixture.CONFIG_TEXT)

    def test_config_is_parsed_with_leading_keys_in_crd_section(self):
        self.assertEqual(self.res.config_dict(), {
            "crd": {"inputs": "/data/corpus/sample.warc.gz"},
            "discover": {"chunk_threshold": "100", "file_threshold": "3",
                         "min_chunk_length": "8"},
            "detect": {"badness": "pages"},
        })
        self.assertEqual(self.res.config.getint("discover", "chunk_threshold"), 100)
        self.assertEqual(self.res.input_description(), "/data/corpus/sample.warc.gz")

    def test_counters_are_a_series_by_name(self):
        counters = self.res.counters
        self.assertEqual(counters.index.tolist(), sorted(self.exp["counters"]))
        self.assertEqual(counters.to_dict(), self.exp["counters"])
        self.assertEqual(counters.index.name, "name")
        self.assertEqual(counters["skipped.not_html"], 396)
        self.assertTrue(pd.api.types.is_integer_dtype(counters.dtype))

    def test_timings_and_errors(self):
        timings = self.res.timings
        self.assertEqual(timings.columns.tolist(), ["phase", "seconds"])
        self.assertEqual(list(timings.itertuples(index=False, name=None)), self.exp["timings"])
        errors = self.res.errors
        self.assertEqual(errors.columns.tolist(), ["file", "offset", "reason"])
        self.assertEqual(list(errors.itertuples(index=False, name=None)), self.exp["errors"])


class Discovery(ResultFiles):
    def test_labeled_chunks_exact(self):
        chunks = self.res.chunks
        self.assertEqual(chunks.columns.tolist(), ["hash", "count", "length", "sample",
                                                   "sample_url"])
        texts = [r[3] for r in self.exp["chunks"]]
        self.assertEqual(chunks["hash"].tolist(), [hexsha1(t) for t in texts])
        self.assertEqual(chunks["count"].tolist(), [r[1] for r in self.exp["chunks"]])
        self.assertEqual(chunks["length"].tolist(), [len(t) for t in texts])
        # Non-UTF-8 bytes are decoded with replacement characters, never an exception.
        self.assertEqual(chunks["sample"].tolist(),
                         [t.decode("utf-8", errors="replace") for t in texts])
        self.assertIn("<p>caf\ufffd men\ufffd in Latin-1", chunks["sample"].tolist())
        self.assertIn("b.example/caf\ufffd", chunks["sample_url"].tolist())

    def test_labeled_chunks_keep_file_order(self):
        chunks = self.res.chunks
        keys = list(zip(-chunks["count"], chunks["hash"]))
        self.assertEqual(keys, sorted(keys))  # count descending, then hash ascending
        self.assertEqual(chunks["count"].tolist(), [5000, 5000, 1200])

    def test_group_attributes(self):
        self.assertEqual(self.res.chunks_attrs, self.exp["chunks_attrs"])
        self.assertEqual(self.res.files_attrs["threshold"], 3)

    def test_histograms(self):
        for table, key in ((self.res.chunk_histogram, "chunk_histogram"),
                           (self.res.file_histogram, "file_histogram")):
            self.assertEqual(table.columns.tolist(), ["occurrences", "distinct"])
            self.assertEqual(dict(zip(table["occurrences"], table["distinct"])), self.exp[key])
            self.assertTrue(table["occurrences"].is_monotonic_increasing)

    def test_files(self):
        files = self.res.files
        self.assertEqual(files.columns.tolist(), ["hash", "count", "length", "sample_url"])
        self.assertEqual(files.iloc[0].tolist(),
                         [hexsha1(b"robots"), 40, 1234, "c.example/robots.txt"])


class Detection(ResultFiles):
    def test_pages_decode_csr_lists(self):
        pages = self.res.pages
        self.assertEqual(pages.columns.tolist(), ["url", "chunks", "labeled", "containment",
                                                  "flagged", "positions", "label_ids"])
        expected = self.exp["pages"]["pages"]
        self.assertEqual(pages["url"].tolist(), [p[0] for p in expected])
        self.assertEqual(pages["positions"].tolist(), [p[2] for p in expected])
        self.assertEqual(pages["label_ids"].tolist(), [p[3] for p in expected])
        head = pages.head(3)
        self.assertEqual(head["positions"].tolist(), [[0, 2], [], [0]])
        self.assertEqual(head["label_ids"].tolist(), [[1, 0], [], [2]])
        self.assertEqual(head["chunks"].tolist(), [4, 3, 1])
        np.testing.assert_array_equal(pages["containment"], self.exp["pages"]["containment"])
        np.testing.assert_array_equal(pages["flagged"], self.exp["pages"]["flagged"])
        self.assertEqual((pages["labeled"] == pages["positions"].map(len)).all(), True)

    def test_neighborhoods(self):
        hoods = self.res.neighborhoods
        self.assertEqual(hoods.columns.tolist(), ["prefix", "depth", "pages", "chunks",
                                                  "labeled", "badness", "flagged"])
        rows = self.exp["neighborhoods"]["rows"]
        self.assertEqual(list(hoods[["prefix", "depth", "pages", "chunks", "labeled"]]
                              .itertuples(index=False, name=None)), [tuple(r) for r in rows])
        np.testing.assert_array_equal(hoods["badness"], self.exp["neighborhoods"]["badness"])
        self.assertEqual(hoods["prefix"].iloc[0], "a.example")

    def test_labels_provenance_and_attributes(self):
        labels = self.res.detection_labels
        self.assertEqual(labels.columns.tolist(), ["hash", "length", "sample", "pages",
                                                   "neighborhoods", "occurrences"])
        self.assertEqual(labels["hash"].tolist(),
                         [r[0].hex() for r in self.exp["detection_labels"]])
        self.assertEqual(labels["hash"].tolist(), sorted(labels["hash"]))
        self.assertEqual(labels["pages"].tolist(), [12, 40, 3])
        prov = self.res.provenance
        self.assertEqual(list(prov.itertuples(index=False, name=None)),
                         [(i, u.decode()) for i, u in self.exp["provenance"]])
        self.assertEqual(self.res.detection_attrs, self.exp["detection_attrs"])

    def test_page_joins(self):
        under = self.res.pages_under("a.example")
        self.assertEqual(under["url"].tolist(), ["a.example/1", "a.example/2", "a.example/3"])
        self.assertTrue(self.res.pages_under("a.exam").empty)  # a prefix is whole components
        matches = self.res.page_matches("a.example/1")
        self.assertEqual(matches["position"].tolist(), [0, 2])
        self.assertEqual(matches["label_id"].tolist(), [1, 0])
        labels = self.res.detection_labels
        self.assertEqual(matches["hash"].tolist(), [labels["hash"][1], labels["hash"][0]])
        self.assertTrue(self.res.page_matches("a.example/2").empty)
        with self.assertRaises(KeyError):
            self.res.page_matches("nowhere.example/")


class Commands(ResultFiles):
    def test_discover_file_has_no_detection(self):
        r = open_results(self.paths["discover"])
        self.assertEqual(r.command, "discover")
        self.assertEqual(len(r.chunks), 3)
        for table in (r.pages, r.neighborhoods, r.detection_labels, r.provenance, r.labels):
            self.assertIsNone(table)
        self.assertEqual(r.detection_attrs, {})
        self.assertIsNone(r.pages_under("a.example"))

    def test_label_file(self):
        r = open_results(self.paths["label"])
        self.assertIsNone(r.chunks)
        self.assertIsNone(r.chunk_histogram)
        labels = r.labels
        self.assertEqual(labels.columns.tolist(), ["hash", "length", "sample", "sample_url",
                                                   "count"])
        texts = sorted([b"<p>Log in to your bank", b"<div>Forgot your password?"],
                       key=lambda t: hashlib.sha1(t).digest())
        self.assertEqual(labels["hash"].tolist(), [hexsha1(t) for t in texts])
        self.assertEqual(labels["sample"].tolist(), [t.decode() for t in texts])
        self.assertEqual(r.labels_attrs["labeled"], 2)

    def test_detect_file_has_no_discovery(self):
        r = open_results(self.paths["detect"])
        self.assertIsNone(r.chunks)
        self.assertIsNone(r.files)
        self.assertEqual(r.pages["url"].tolist(), self.res.pages["url"].tolist())
        self.assertEqual(r.counters.to_dict(), self.exp["counters"])


class ExactReads(ResultFiles):
    """What the tests read: stored bytes, round-tripping str, and the whole file as stored."""

    LATIN1 = b"<p>caf\xe9 men\xfc in Latin-1"

    def test_strings_as_stored_bytes(self):
        chunks = self.res.table("/discovery/chunks", decode=False)
        self.assertIn(self.LATIN1, chunks["sample"].tolist())
        self.assertEqual(chunks["hash"].tolist(), self.res.chunks["hash"].tolist())  # hashes stay hex

    def test_strings_that_round_trip(self):
        samples = self.res.table("/discovery/chunks", decode="surrogateescape")["sample"].tolist()
        self.assertIn(self.LATIN1, [t.encode("utf-8", "surrogateescape") for t in samples])

    def test_snapshot_is_the_file_as_stored(self):
        import crd_results
        datasets, attrs = self.res.snapshot()
        hashes = datasets["/discovery/chunks/hash"]
        self.assertEqual((hashes.dtype, hashes.shape), (np.dtype(np.uint8), (3, 20)))
        self.assertEqual(hashes[0].tobytes().hex(), self.res.chunks["hash"][0])
        self.assertIn(self.LATIN1, datasets["/discovery/chunks/sample"].tolist())
        self.assertEqual(attrs["/"]["nranks"], 4)
        self.assertIn("/run/timings/phase", datasets)
        self.assertEqual(attrs["/discovery/chunks"], self.res.chunks_attrs)
        datasets, attrs = self.res.snapshot(crd_results.JOB_TABLES, crd_results.JOB_ROOT_ATTRS)
        self.assertFalse([k for k in datasets if k.startswith("/run/timings")])
        self.assertNotIn("/run/timings", attrs)
        self.assertIn("/run/counters/name", datasets)
        self.assertEqual(set(crd_results.JOB_ROOT_ATTRS) & set(attrs["/"]), set())
        self.assertEqual(attrs["/"]["command"], "run")


class BadFiles(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.addCleanup(self.tmp.cleanup)

    def path(self, name):
        return os.path.join(self.tmp.name, name)

    def assert_rejected(self, path, message):
        with self.assertRaises(CrdFileError) as ctx:
            open_results(path)
        self.assertIn(message, str(ctx.exception))

    def test_text_file_is_not_a_crd_file(self):
        with open(self.path("notes.txt"), "w") as f:
            f.write("hello, this is not HDF5\n")
        self.assert_rejected(self.path("notes.txt"), "notes.txt is not a crd result file")

    def test_empty_file(self):
        open(self.path("empty.h5"), "wb").close()
        self.assert_rejected(self.path("empty.h5"), "is not a crd result file")

    def test_missing_file(self):
        self.assert_rejected(self.path("absent.h5"), "no such file")

    def test_hdf5_without_schema_version(self):
        with h5py.File(self.path("other.h5"), "w") as f:
            f.attrs["command"] = "run"
            f.create_dataset("x", data=np.arange(3))
        self.assert_rejected(self.path("other.h5"), "other.h5 is not a crd result file")

    def test_unsupported_schema_version(self):
        crd_fixture.write_result(self.path("v2.h5"), "discover")
        with h5py.File(self.path("v2.h5"), "a") as f:
            f.attrs["schema_version"] = np.int64(2)
        self.assert_rejected(self.path("v2.h5"), "schema version 2 not supported")

    def test_bad_csr_offsets(self):
        crd_fixture.write_result(self.path("csr.h5"), "detect")
        with h5py.File(self.path("csr.h5"), "a") as f:
            offsets = f["detection/pages/positions_offsets"]
            offsets[-1] = offsets[-1] + 5
        r = open_results(self.path("csr.h5"))
        with self.assertRaises(CrdFileError) as ctx:
            r.pages
        self.assertIn("offsets", str(ctx.exception))

    def test_columns_of_different_lengths(self):
        crd_fixture.write_result(self.path("ragged.h5"), "discover")
        with h5py.File(self.path("ragged.h5"), "a") as f:
            del f["discovery/chunks/count"]
            f["discovery/chunks/count"] = np.array([1, 2], dtype=np.uint64)
        with self.assertRaises(CrdFileError):
            open_results(self.path("ragged.h5")).chunks

    def test_empty_tables(self):
        crd_fixture.write_result(self.path("empty_tables.h5"), "discover")
        with h5py.File(self.path("empty_tables.h5"), "a") as f:
            del f["discovery/chunks"]
            g = f.create_group("discovery/chunks")
            g["hash"] = np.zeros((0, 20), dtype=np.uint8)
            g["count"] = np.zeros(0, dtype=np.uint64)
            g["sample"] = np.zeros(0, dtype="S1")
            p = f.create_group("detection/pages")
            p["url"] = np.zeros(0, dtype="S1")
            p["positions"] = np.zeros(0, dtype=np.uint32)
            p["positions_offsets"] = np.zeros(1, dtype=np.uint64)
        r = open_results(self.path("empty_tables.h5"))
        self.assertEqual(r.chunks.columns.tolist(), ["hash", "count", "sample"])
        self.assertEqual(len(r.chunks), 0)
        self.assertEqual(r.pages.columns.tolist(), ["url", "positions"])
        self.assertEqual(len(r.pages), 0)


class SchemaMatchesDocs(unittest.TestCase):
    """crd_results' one definition of the schema names what docs/schema.md documents."""

    @classmethod
    def setUpClass(cls):
        import crd_results
        cls.r = crd_results
        cls.doc = (Path(__file__).resolve().parents[2] / "docs" / "schema.md").read_text()

    def section(self, path):
        """The doc text about one table: from its bullet or heading (else its first mention) to the
        next bullet or heading of a group."""
        found = re.search(r"^(?:- |## )`%s/?`" % re.escape(path), self.doc, re.M) or \
            re.search(r"`%s/?`" % re.escape(path), self.doc)
        self.assertIsNotNone(found, path + " is not in docs/schema.md")
        end = re.compile(r"^(?:- `/|## )", re.M).search(self.doc, found.end())
        return self.doc[found.start():end.start() if end else len(self.doc)]

    def test_every_documented_group_is_known(self):
        # The path index lists datasets (test_schema_doc holds it to schema.hpp); here every group
        # the prose documents, and every indexed dataset's table, must be one crd_results knows.
        prose, index = self.doc.split("## Path index", 1)
        documented = {m.rstrip("/") for m in re.findall(r"`(/[a-z_/]+)`", prose)}
        groups = {"/run", self.r.DISCOVERY, self.r.DETECTION, self.r.NEARDUP, self.r.QUILTS,
                  self.r.COMPARE_HASHING, "/merge"}
        self.assertEqual(documented - groups, set(self.r.TABLES))
        indexed = {m.rsplit("/", 1)[0] for m in re.findall(r"^\| `(/[a-z_/]+)` \|", index, re.M)}
        self.assertEqual(indexed, set(self.r.TABLES))

    def test_columns_and_attributes_are_documented(self):
        for path, columns in self.r.TABLES.items():
            text = self.section(path)
            for name in [*columns, *self.r.LISTS.get(path, {}), *self.r.GROUP_ATTRS.get(path, {})]:
                self.assertIn("`%s`" % name, text, "%s: %s" % (path, name))
        detection = self.doc[self.doc.index("## `/detection`"):]
        for name in self.r.GROUP_ATTRS[self.r.DETECTION]:
            self.assertIn("`%s`" % name, detection, "/detection@" + name)
        neardup = self.doc[self.doc.index("## `/neardup`"):]
        for name in self.r.GROUP_ATTRS[self.r.NEARDUP]:
            self.assertIn("`%s`" % name, neardup, "/neardup@" + name)
        for name in self.r.ROOT_ATTRS:
            self.assertIn("| `%s` |" % name, self.doc, "root attribute " + name)

    def test_every_table_belongs_to_a_command(self):
        self.assertEqual(set(self.r.TABLES), set().union(*self.r.TABLES_OF.values()))


class PositionalInputs(unittest.TestCase):
    def test_inputs_are_the_words_that_are_neither_options_nor_their_values(self):
        from crd_results import _positional_inputs
        line = "run corpus/ a.warc.gz --config c.ini -o out.h5 --resume --tags=p,div @list.txt"
        self.assertEqual(_positional_inputs(line), ["corpus/", "a.warc.gz", "@list.txt"])
        self.assertEqual(_positional_inputs(""), [])


if __name__ == "__main__":
    unittest.main()
