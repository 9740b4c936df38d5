# crd quilts under --memory. On the python3.11-doc package at 1 and 2 ranks, a budget
# well below an unbudgeted run's peak makes stages 2–5 run in passes over the gram space; the
# /quilts datasets are identical to the unbudgeted run's, and the peak RSS stays within the budget
# plus the shuffle round and the process's own base (the RSS of a run over one page), as for
# discover (docs/memory.md). A budget the documents' gram sets do not fit fails before the search
# with one line naming a rank count, and so does a sweep whose holder classes would not fit
# (the adversarial --sweep-m 5000 grew to 7 GB per rank before the classes).
import os
import unittest

import crd_integ as ci

SHUFFLE = 16 * 1024
SLACK = 8 << 20  # I/O and allocator buffers outside the model, fixed (test_out_of_core.py's)
BUDGET = 64 << 20


def options(extra=()):
    return ["--shuffle-buffer", str(SHUFFLE), "--reader-thread", "off", "--progress-interval", "0"] + list(extra)


def quilts(path):
    datasets, _ = ci.comparable(path, drop_root=("nranks", "created", "command_line", "config"))
    return {k: v for k, v in datasets.items() if k.startswith("/quilts")}


class QuiltsMemory(unittest.TestCase):
    maxDiff = None

    @classmethod
    def setUpClass(cls):
        cls.input = ci.corpus_package("python3.11-doc")
        cls.tmp = ci.TempDir("quilts_memory")
        ci.run_crd(["quilts", cls.input, "-o", cls.tmp("ref.h5")] + options(["--sweep-m", "5000"]), nranks=1)
        one = cls.tmp("one")
        os.makedirs(one)
        with open(os.path.join(one, "page.html"), "w") as f:
            f.write("<p>%s</p>" % " ".join("w%d" % i for i in range(2000)))
        cls.base = {}
        for n in (1, 2):
            ci.run_crd(["quilts", one, "-o", cls.tmp("base%d.h5" % n)] + options(), nranks=n)
            cls.base[n] = ci.open_results(cls.tmp("base%d.h5" % n)).resources.to_dict()["memory.peak_rss_max"]

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def test_passes_give_the_same_quilts_within_the_budget(self):
        ref = ci.open_results(self.tmp("ref.h5"))
        self.assertGreater(ref.resources.to_dict()["memory.peak_rss_max"], self.base[1] + BUDGET, "the budget must bind")
        ref_passes = ref.resources.to_dict()["counting.passes"]
        for n in (1, 2):
            out = self.tmp("budget%d.h5" % n)
            ci.run_crd(["quilts", self.input, "-o", out, "--memory", str(BUDGET)] + options(["--sweep-m", "5000"]),
                       nranks=n)
            r = ci.open_results(out)
            self.assertGreater(r.resources.to_dict()["counting.passes"], ref_passes, "np=%d" % n)
            ci.assert_same_datasets(self, quilts(out), quilts(self.tmp("ref.h5")), "at np=%d" % n)
            pages = r.table("/quilts/pages")
            self.assertGreater(int(pages["quilted"].sum()), 0)
            if not ci.SANITIZED:
                self.assertLessEqual(r.resources.to_dict()["memory.peak_rss_max"],
                                     self.base[n] + BUDGET + 2 * SHUFFLE + SLACK, "np=%d" % n)

    def test_a_budget_the_documents_do_not_fit_fails_with_one_line(self):
        ci.assert_fails_with_one_line(
            self, ["quilts", self.input, "-o", self.tmp("tiny.h5"), "--memory", "2M"] + options(), 2,
            r"--memory .* too small: .*run with at least \d+ ranks or raise --memory", 300)
        self.assertFalse(os.path.exists(self.tmp("tiny.h5")))


if __name__ == "__main__":
    ci.main()
