# Each command's --help lists exactly the options that command reads (check listed
# --reader-thread and --max-depth, which did nothing there), and each listed option is really
# parsed by it: a bad value is a usage error (exit 2, one stderr line naming the option or value;
# a --work-dir that cannot be created is, as ever, a fatal error: exit 1).
import os
import re
import unittest

import crd_integ as ci

CHUNKING = {"chunker", "tags", "boundary-match", "gram-words", "window"}
CORPUS = {"skip-missing", "max-depth", "max-repeat", "max-record-bytes", "reader-thread"} | CHUNKING
STOP = {"stop-chunks", "min-chunk-length"}
THRESHOLDS = {"chunk-threshold", "file-threshold", "chunk-top", "file-top"}
# Every command reads --config (a config may hold any crd option) and --verbose.
CONFIG = {"config", "verbose", "help"}
RUN_CONTROL = {"output", "shuffle-buffer", "work-dir", "resume", "memory", "progress-interval"} | CONFIG
SCORING = {"page-threshold", "min-labeled", "min-neighborhood-labeled", "neighborhood-threshold", "badness", "max-neighborhood-depth",
           "provenance-samples", "host-stop-pages", "exact-min-length",
           "host-stop-site-ratio", "neighborhood-min-flagged", "cross-host-stop-hosts", "cross-host-stop-cut"}
NEARDUP = {"method", "shingle-tokens", "minvalues", "supershingles", "min-b-similarity", "simhash-bits",
           "simhash-pieces", "min-c-similarity", "combined-c-similarity", "max-bucket", "max-pairs", "normalize-text",
           "boilerplate-pages", "min-shingles", "min-jaccard", "jaccard-sample"}
QUILTS = {"gram-words", "max-gram-documents", "min-sources", "min-patch-fraction", "min-source-share",
          "foreign-sourced", "max-page-grams", "sweep-m", "sweep-c", "sweep-theta", "exclude-pages"}
COMPARE = {"labels", "truth", "page-threshold", "min-labeled", "extrapolate-pages", "nilsimsa-threshold",
           "nilsimsa-sweep", "tlsh-threshold", "tlsh-sweep", "ssdeep-threshold", "ssdeep-sweep"}
EXPECTED = {
    "discover": CORPUS | {"sample-bytes", "keep-counts"} | THRESHOLDS | STOP | RUN_CONTROL,
    "label": CORPUS | {"sample-bytes"} | STOP | RUN_CONTROL,
    # detect's labels bring their samples: it keeps none of its own, so --sample-bytes does nothing.
    "detect": CORPUS | STOP | {"labels", "join", "replicate-max", "pairs"} | SCORING | RUN_CONTROL,
    "run": CORPUS | {"sample-bytes", "keep-counts"} | THRESHOLDS | STOP | SCORING | RUN_CONTROL,
    "check": CHUNKING | {"max-record-bytes", "labels", "page-threshold", "min-labeled", "show"} | STOP | CONFIG,
    # neardup tokenizes instead of chunking, and keeps no checkpoints (its sketches live in memory).
    "neardup": CORPUS - CHUNKING | NEARDUP | RUN_CONTROL - {"work-dir", "resume"},
    # quilts tokenizes like neardup and keeps no checkpoints (its grams live in memory).
    "quilts": CORPUS - CHUNKING | QUILTS | RUN_CONTROL - {"work-dir", "resume"},
    # compare-hashing chunks like detect but keeps no samples and no checkpoints (its sketches live in memory).
    "compare-hashing": CORPUS | STOP | COMPARE | RUN_CONTROL - {"work-dir", "resume"},
    # merge reads result files, not a corpus: only the labeling and run control (no checkpoints).
    "merge": THRESHOLDS | STOP | RUN_CONTROL - {"work-dir", "resume"},
    # compare reads documents in one process: chunking and stop options, no corpus cleaning or run control.
    "compare": CHUNKING | {"max-record-bytes", "labels", "granularity", "show", "max-sentence-bucket", "json"} | STOP | CONFIG,
    "inspect": {"top", "rank", "depth"} | CONFIG,
    "report": {"output", "top"} | CONFIG,
}
OPTION = re.compile(r"^  (?:-\w \[ )?--([a-z][a-z-]*)")


def listed(help_text):
    return {m.group(1) for m in map(OPTION.match, help_text.splitlines()) if m}


class CommandHelp(unittest.TestCase):
    maxDiff = None

    @classmethod
    def setUpClass(cls):
        cls.tmp = t = ci.TempDir("help")
        os.makedirs(t("site", "host"))
        with open(t("site", "host", "page.html"), "w") as f:
            f.write("<p>one paragraph of text</p><p>and another one</p>")
        os.makedirs(t("a_dir"))
        with open(t("truth.txt"), "w") as f:
            f.write("host\n")
        with open(t("notes.txt"), "w") as f:
            f.write("not a config\n")
        ci.run_crd(ci.quiet(["label", t("site"), "-o", t("L.h5")]), timeout=120)
        ci.run_crd(ci.quiet(["discover", t("site"), "--keep-counts", "-o", t("K.h5")]), timeout=120)
        # A value each option must refuse, and a word the one error line must hold ("output" is
        # given instead of the base command line's -o).
        cls.bad = {
            "skip-missing": (["--skip-missing=yes"], "skip-missing"),
            "keep-counts": (["--keep-counts=yes"], "keep-counts"),
            "chunker": (["--chunker", "regex"], "chunker"),
            "tags": (["--tags", ","], "tags"),
            "max-depth": (["--max-depth", "0"], "max-depth"),
            "max-repeat": (["--max-repeat", "-1"], "max-repeat"),
            "max-record-bytes": (["--max-record-bytes", "12abc"], "max-record-bytes"),
            "reader-thread": (["--reader-thread", "sometimes"], "reader-thread"),
            "sample-bytes": (["--sample-bytes", "0"], "sample-bytes"),
            "chunk-threshold": (["--chunk-threshold", "-1"], "chunk-threshold"),
            "file-threshold": (["--file-threshold", "-1"], "file-threshold"),
            "stop-chunks": (["--stop-chunks", t("no-stop.txt")], "no-stop.txt"),
            "min-chunk-length": (["--min-chunk-length", "-1"], "min-chunk-length"),
            "labels": (["--labels", t("notes.txt")], "notes.txt"),
            "join": (["--join", "sometimes"], "join"),
            "replicate-max": (["--replicate-max", "-1"], "replicate-max"),
            "page-threshold": (["--page-threshold", "high"], "page-threshold"),
            "min-labeled": (["--min-labeled", "-1"], "min-labeled"),
            "neighborhood-threshold": (["--neighborhood-threshold", "high"], "neighborhood-threshold"),
            "badness": (["--badness", "worst"], "badness"),
            "max-neighborhood-depth": (["--max-neighborhood-depth", "-2"], "max-neighborhood-depth"),
            "provenance-samples": (["--provenance-samples", "-1"], "provenance-samples"),
            "host-stop-pages": (["--host-stop-pages", "-1"], "host-stop-pages"),
            "exact-min-length": (["--exact-min-length", "-1"], "exact-min-length"),
            "host-stop-site-ratio": (["--host-stop-site-ratio", "0"], "host-stop-site-ratio"),
            "neighborhood-min-flagged": (["--neighborhood-min-flagged", "-1"], "neighborhood-min-flagged"),
            "cross-host-stop-hosts": (["--cross-host-stop-hosts", "-1"], "cross-host-stop-hosts"),
            "cross-host-stop-cut": (["--cross-host-stop-cut", "1.5"], "cross-host-stop-cut"),
            "show": (["--show", "-1"], "show"),
            "top": (["--top", "-1"], "top"),
            "output": (["-o", t("a_dir")], "a_dir"),  # report: -o names its input, below
            "config": (["--config", t("no-config.ini")], "no-config.ini"),
            "shuffle-buffer": (["--shuffle-buffer", "1K"], "shuffle-buffer"),
            "work-dir": (["--work-dir", t("notes.txt")], "notes.txt"),  # fatal, exit 1
            "resume": (["--resume"], "--resume needs --work-dir"),
            "memory": (["--memory", "lots"], "memory"),
            "progress-interval": (["--progress-interval", "-1"], "progress-interval"),
            "boundary-match": (["--boundary-match", "suffix"], "boundary-match"),
            "window": (["--window", "0"], "window"),
            "chunk-top": (["--chunk-top", "-1"], "chunk-top"),
            "file-top": (["--file-top", "-1"], "file-top"),
            "min-neighborhood-labeled": (["--min-neighborhood-labeled", "-1"], "min-neighborhood-labeled"),
            "rank": (["--rank", "worst"], "rank"),
            "depth": (["--depth", "-2"], "depth"),
            "truth": (["--truth", t("no-truth.txt")], "no-truth.txt"),
            "exclude-pages": (["--exclude-pages", t("no-exclude.txt")], "no-exclude.txt"),
            "extrapolate-pages": (["--extrapolate-pages", "-1"], "extrapolate-pages"),
            "nilsimsa-threshold": (["--nilsimsa-threshold", "129"], "nilsimsa-threshold"),
            "nilsimsa-sweep": (["--nilsimsa-sweep", "x"], "nilsimsa-sweep"),
            "tlsh-threshold": (["--tlsh-threshold", "-1"], "tlsh-threshold"),
            "tlsh-sweep": (["--tlsh-sweep", "x"], "tlsh-sweep"),
            "ssdeep-threshold": (["--ssdeep-threshold", "101"], "ssdeep-threshold"),
            "ssdeep-sweep": (["--ssdeep-sweep", "x"], "ssdeep-sweep"),
            "method": (["--method", "lsh"], "method"),
            "shingle-tokens": (["--shingle-tokens", "0"], "shingle-tokens"),
            "minvalues": (["--minvalues", "85"], "minvalues"),
            "supershingles": (["--supershingles", "0"], "supershingles"),
            "min-b-similarity": (["--min-b-similarity", "7"], "min-b-similarity"),
            "simhash-bits": (["--simhash-bits", "100"], "simhash-bits"),
            "simhash-pieces": (["--simhash-pieces", "3"], "simhash-pieces"),
            "min-c-similarity": (["--min-c-similarity", "-1"], "min-c-similarity"),
            "combined-c-similarity": (["--combined-c-similarity", "-1"], "combined-c-similarity"),
            "max-bucket": (["--max-bucket", "-5"], "max-bucket"),
            "max-sentence-bucket": (["--max-sentence-bucket", "-5"], "max-sentence-bucket"),
            "max-pairs": (["--max-pairs", "-1"], "max-pairs"),
            "normalize-text": (["--normalize-text=yes"], "normalize-text"),
            "boilerplate-pages": (["--boilerplate-pages", "x"], "boilerplate-pages"),
            "min-shingles": (["--min-shingles", "-1"], "min-shingles"),
            "min-jaccard": (["--min-jaccard", "1.5"], "min-jaccard"),
            "jaccard-sample": (["--jaccard-sample", "8"], "jaccard-sample"),
            "gram-words": (["--gram-words", "0"], "gram-words"),
            "max-gram-documents": (["--max-gram-documents", "1"], "max-gram-documents"),
            "min-sources": (["--min-sources", "-1"], "min-sources"),
            "min-patch-fraction": (["--min-patch-fraction", "1.5"], "min-patch-fraction"),
            "min-source-share": (["--min-source-share", "-0.1"], "min-source-share"),
            "foreign-sourced": (["--foreign-sourced", "ip"], "foreign-sourced"),
            "max-page-grams": (["--max-page-grams", "-1"], "max-page-grams"),
            "sweep-m": (["--sweep-m", "10,x"], "sweep-m"),
            "sweep-c": (["--sweep-c", "4,,8"], "sweep-c"),
            "sweep-theta": (["--sweep-theta", "0.5,2"], "sweep-theta"),
            "granularity": (["--granularity", "0"], "granularity"),
            "pairs": (["--pairs", "-1"], "pairs"),
            "json": (["--json=yes"], "json"),
            "verbose": (["--verbose=yes"], "verbose"),
        }

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def base(self, command, output=True, truth=True):
        """A command line that succeeds, so that the one bad option is what fails."""
        t = self.tmp
        out = ["-o", t("r.html" if command == "report" else "o.h5")] if output else []
        if command == "inspect":
            return ["inspect", t("L.h5")]
        if command == "report":
            return ["report", t("L.h5")] + out
        if command == "check":
            return ["check", "--labels", t("L.h5"), t("site", "host", "page.html")]
        if command == "merge":
            return ["merge", t("K.h5"), "--progress-interval", "0"] + out
        if command == "compare":
            # L.h5 is chunked by scan (crd label's default); compare's is sentence.
            return ["compare", t("site"), "--labels", t("L.h5"), "--chunker", "scan"]
        labels = ["--labels", t("L.h5")] if command in ("detect", "compare-hashing") else []
        if command == "compare-hashing" and truth:
            labels += ["--truth", t("truth.txt")]
        return [command, t("site"), "--progress-interval", "0"] + out + labels

    def test_help_lists_exactly_the_options_each_command_reads(self):
        for command, expected in EXPECTED.items():
            with self.subTest(command=command):
                proc = ci.run_crd([command, "--help"], timeout=60)
                self.assertEqual(listed(proc.stdout), expected, proc.stdout)
        check_help = ci.run_crd(["check", "--help"]).stdout
        for unused in ("--reader-thread", "--max-depth", "--max-repeat", "--skip-missing", "--sample-bytes"):
            self.assertNotIn(unused, check_help)

    def test_the_base_command_lines_succeed(self):
        for command in EXPECTED:
            with self.subTest(command=command):
                ci.run_crd(self.base(command), timeout=120)

    def test_every_listed_option_refuses_a_bad_value(self):
        for command, options in EXPECTED.items():
            for option in sorted(options - {"help"}):
                args, word = self.bad[option]
                if command == "report" and option == "output":
                    args, word = ["-o", self.tmp("L.h5")], "is the same file as"
                status, kind = (1, "fatal") if option == "work-dir" else (2, "error")
                with self.subTest(command=command, option=option):
                    proc = ci.run_crd(self.base(command, option != "output", option != "truth") + args, check=False,
                                      timeout=120)
                    lines = proc.stderr.splitlines()
                    self.assertEqual(proc.returncode, status, proc.stderr)
                    self.assertEqual(len(lines), 1, proc.stderr)
                    self.assertRegex(lines[0], r"^crd %s: %s: " % (command, kind))
                    self.assertIn(word, lines[0])

    def test_an_option_a_command_does_not_read_is_refused(self):
        for command, option in (("check", "--reader-thread"), ("check", "--max-depth"), ("detect", "--sample-bytes"),
                                ("inspect", "--chunker"), ("neardup", "--chunker"), ("neardup", "--work-dir"),
                                ("merge", "--chunker"), ("merge", "--resume"),
                                ("quilts", "--chunker")):
            with self.subTest(command=command, option=option):
                proc = ci.run_crd(self.base(command) + [option, "1"], check=False, timeout=60)
                self.assertEqual(proc.returncode, 2, proc.stderr)
                self.assertIn("unrecognised option '%s'" % option, proc.stderr)


if __name__ == "__main__":
    ci.main()
