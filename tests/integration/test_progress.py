# Long phases report progress on stderr from rank 0 only — the job's bytes and documents
# done / total, rate and ETA, as timestamped lines when stderr is not a terminal — and the numbers
# are the whole job's (gathered from every rank), not an estimate.
import re
import unittest

import crd_integ as ci

LINE = re.compile(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ crd scan: (~?)([\d.]+)% (~?)(\d+)/(\d+) MB, (~?)(\d+) docs, "
                  r"[\d.]+ MB/s, \d+ docs/s, ETA \d+ s$")


class Progress(unittest.TestCase):
    def test_lines_from_rank0_with_job_totals(self):
        tmp = ci.TempDir("progress")
        try:
            out = tmp("p.h5")
            proc = ci.run_crd(["discover", ci.corpus_package("python3.11-doc"), ci.corpus_package("sphinx-doc"),
                               "--progress-interval", "0.01", "-o", out], nranks=3)
            lines = [l for l in proc.stderr.splitlines() if " crd scan: " in l]
            self.assertGreaterEqual(len(lines), 1, proc.stderr)
            for line in lines:
                m = LINE.match(line)
                self.assertIsNotNone(m, "unexpected progress line: %r" % line)
                self.assertEqual(m.group(1) + m.group(3) + m.group(6), "", "job totals, not estimates")
            values = [(int(LINE.match(l).group(4)), int(LINE.match(l).group(7))) for l in lines]
            self.assertEqual(values, sorted(values), "progress never goes backwards")
            counters = ci.open_results(out).counters
            final = LINE.match(lines[-1])
            self.assertEqual(final.group(2), "100.0")
            self.assertEqual(int(final.group(7)), counters["documents"])
            self.assertEqual(int(final.group(4)), round(counters["input.bytes"] / 1e6))
            self.assertTrue(all(int(LINE.match(l).group(4)) <= int(LINE.match(l).group(5)) for l in lines))
        finally:
            tmp.cleanup()


if __name__ == "__main__":
    ci.main()
