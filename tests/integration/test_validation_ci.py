# The small version of validation/paper_validation.py (the paper's §6.2-6.4 on the Debian
# documentation corpus), asserting the paper's qualitative claims: every injected mirror host is
# flagged, no unrelated host is, and the fraction of flagged pages falls as mutations grow.
# The full run and its numbers are in docs/validation.md.
import os
import sys
import unittest

import crd_integ as ci

sys.path.insert(0, os.path.join(ci.source_dir(), "validation"))
import paper_validation as pv  # noqa: E402


class ValidationCi(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        corpus = ci.corpus_dir()
        cls.tmp = ci.TempDir("validation")
        cls.injection, cls.mutations, cls.summary = pv.run_all(
            ci.crd_binary(), corpus, cls.tmp("out"), scale="ci", nranks=2, mpirun=ci.mpi_prefix(2))

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def test_outputs_written(self):
        for name in ("injection.csv", "mutations.csv", "templates.csv", "summary.json"):
            self.assertTrue(os.path.getsize(self.tmp("out", name)) > 0, name)

    def test_every_injected_mirror_host_flagged_and_no_unrelated_host(self):
        T = pv.SCALES["ci"]["threshold"]
        for row in self.injection:
            self.assertEqual(row["unrelated_hosts_flagged"], 0, row)
            if row["d"] > T:  # every chunk of the site is then over the threshold
                # All but the few chunks the inserted first/last paragraphs cut (they occur in no copy).
                self.assertGreater(row["chunks_discovered"], 0.95, row)
                self.assertEqual(row["files_discovered"], 1.0, row)
                self.assertEqual(row["copy_hosts_flagged"], row["d"], row)
            else:
                self.assertEqual(row["files_discovered"], 0.0, "exact copies at d ≤ T stay unlabeled: %s" % row)
        discovered = [r["chunks_discovered"] for r in self.injection]
        self.assertEqual(discovered, sorted(discovered), "more copies, more of the site discovered")

    def test_unmutated_copies_flagged_and_unrelated_hosts_never(self):
        for t in self.summary["templates"]:
            self.assertEqual(t["site_flagged"], 1, t)
            self.assertEqual(t["unrelated_hosts_flagged"], 0, t)
            self.assertIn(t["mutation_run_unrelated_flagged"], (0, None), t)
        for row in self.mutations:
            if row["x"] == 0:
                self.assertEqual(row["host_flagged"], 1, row)

    def test_flagged_fraction_falls_as_mutations_grow(self):
        for labels in ("expert", "blind"):
            for kind in ("add", "modify"):
                curve = pv.mean_by([r for r in self.mutations if r["labels"] == labels], "flagged_fraction", kind=kind)
                values = list(curve.values())
                self.assertEqual(values, sorted(values, reverse=True), "%s/%s: %s" % (labels, kind, curve))
                self.assertGreater(values[0], values[-1], "%s/%s: %s" % (labels, kind, curve))
            containment = pv.mean_by([r for r in self.mutations if r["labels"] == labels], "mean_containment",
                                     kind="add")
            values = list(containment.values())
            self.assertEqual(values, sorted(values, reverse=True), "add dilutes containment: %s" % containment)

    def test_template_rule_lowers_unrelated_sphinx_hosts(self):
        by = {t["labels"]: t for t in self.summary["templates"]}
        self.assertGreater(by["expert"]["unrelated_pages_with_labels"], 0, "Sphinx templates shared with the site")
        self.assertEqual(by["expert-100"]["unrelated_pages_with_labels"], 0,
                         "the 100-byte rule leaves no labeled chunk on the unrelated Sphinx pages")
        self.assertEqual(by["expert-100"]["site_flagged"], 1)


if __name__ == "__main__":
    ci.main()
