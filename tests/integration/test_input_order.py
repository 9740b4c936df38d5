# Results are deterministic for any input order — the same inputs given in reverse order,
# through an @LIST, and split differently over ranks give identical datasets.
import unittest

import crd_integ as ci


class InputOrder(unittest.TestCase):
    def test_reversed_and_listed_inputs_give_the_same_result(self):
        tmp = ci.TempDir("order")
        try:
            warcs = ci.sample_archives(tmp)
            inputs = [ci.corpus_package("debian-reference-en"), ci.corpus_package("sphinx-doc")] + warcs
            listing = tmp("inputs.txt")
            with open(listing, "w") as f:
                f.write("# the same inputs, shuffled\n")
                for path in inputs[1::2] + inputs[0::2]:
                    f.write(path + "\n")
            runs = {
                "forward": (inputs, 2),
                "reversed": (list(reversed(inputs)), 3),
                "list": (["@" + listing], 1),
            }
            results = {}
            for name, (args, nranks) in runs.items():
                out = tmp(name + ".h5")
                ci.run_crd(ci.quiet(["run"] + args + ["--chunk-threshold", "3", "-o", out]), nranks=nranks)
                results[name] = ci.comparable(out, drop_root=("nranks", "created", "command_line", "config"))
            base_datasets, base_attrs = results["forward"]
            self.assertGreater(len(base_datasets[ci.results.PAGES + "/url"]), 0)
            for name in ("reversed", "list"):
                datasets, attrs = results[name]
                ci.assert_same_datasets(self, datasets, base_datasets, msg="for " + name)
                self.assertEqual(attrs, base_attrs, name)
        finally:
            tmp.cleanup()


if __name__ == "__main__":
    ci.main()
