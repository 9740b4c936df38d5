# The whole-program driver of the hostile reader tests (tests/hostile/test_archive_readers.py,
# test_round4_readers.py): crd run over hand-made archives, then what its result says was read
# (the pages and their chunk counts) and skipped (the counters and the errors table).
import crd_integ as ci


def read_with_crd_run(test, inputs, out, nranks=None, extra=(), timeout=600):
    """crd run INPUTS -o OUT at `nranks` (None: without mpirun), which must exit 0 (asserted on the
    TestCase `test`); (counters, errors, pages) of its result, as ci.run_summary gives them."""
    p = ci.run_crd(["run", inputs, "-o", out, "--progress-interval", "0"] + list(extra), nranks=nranks, check=False,
                   timeout=timeout)
    test.assertEqual(p.returncode, 0, ci.stderr_excerpt(p.stderr))
    counters, errors, pages, _ = ci.run_summary(out)
    return counters, errors, pages


def skipped(counters):
    """The skipped.* counters that are not zero: every record a reader gave up."""
    return {k: v for k, v in counters.items() if k.startswith("skipped.") and v}


class AtOneAndTwoRanks:
    """A mixin for a TestCase whose check(nranks) runs its case: once at 1 rank, once at 2."""

    def test_one_rank(self):
        self.check(1)

    def test_two_ranks(self):
        self.check(2)
