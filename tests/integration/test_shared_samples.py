# The real WARC/ARC samples under ../shared/data/warc-samples, as extra coverage of what
# test_sample_shapes.py checks on the project's own archives: crd run reads them at 1 and 2 ranks
# with identical results, counts their records and lists the damaged ones' errors. Skipped (77)
# without ../shared: a user's clone has none.
import unittest

import crd_integ as ci
from crd_integ import results as R


class SharedSamples(unittest.TestCase):
    def test_one_and_two_ranks_agree_on_the_real_samples(self):
        samples = ci.warc_sample_files()
        tmp = ci.TempDir("shared-samples")
        try:
            found = {}
            for n in (1, 2):
                out = tmp("np%d.h5" % n)
                ci.run_crd(ci.quiet(["run"] + samples + ["--chunk-threshold", "1", "-o", out]), nranks=n)
                found[n] = ci.comparable(out, drop_root=("nranks", "created", "command_line", "config"))
            datasets, attrs = found[1]
            ci.assert_same_datasets(self, found[2][0], datasets, msg="at np=2")
            self.assertEqual(found[2][1], attrs)
            r = ci.open_results(tmp("np1.h5"))
            self.assertGreater(r.counters["records"], 300)  # iana.warc.gz alone holds 343
            reasons = set(r.table(R.ERRORS)["reason"])
            self.assertIn("warc.bad_length", reasons)  # example.warc
            self.assertIn("arc.bad_length", reasons)   # bad.arc
            self.assertGreater(len(r.table(R.PAGES)["url"]), 20)
        finally:
            tmp.cleanup()


if __name__ == "__main__":
    ci.main()
