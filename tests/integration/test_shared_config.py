# One config file shared by a whole pipeline. A config may hold any crd option: each
# command reads its own, ignores those of other commands (said once, under --verbose, by rank 0)
# and refuses a name that is no crd option, naming the closest one. Before the registry, discover
# refused `min-sources` (quilts') and neardup refused `keep-counts`, while `method` and
# `page-threshold` were accepted by discover without a word.
import os
import unittest

import crd_integ as ci

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
PRESETS = ("quickstart.ini", "neardup-henzinger.ini", "quilts-najork.ini")


def preset_lines():
    """configs/'s pipeline presets as one file: each option once (the first preset's value)."""
    seen, lines = set(), []
    for name in PRESETS:
        with open(os.path.join(ROOT, "configs", name)) as f:
            for line in f:
                key = line.split("=")[0].strip()
                if line.startswith("#") or not line.strip() or key in seen:
                    continue
                seen.add(key)
                lines.append(line.strip())
    return lines


def effective(path):
    return set(ci.open_results(path).attrs["config"].splitlines())


class SharedConfig(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = t = ci.TempDir("shared-config")
        os.makedirs(t("site", "host"))
        for i in range(3):
            with open(t("site", "host", "page%d.html" % i), "w") as f:
                f.write("<p>a paragraph shared by every page of this site</p><p>page %d of three</p>" % i)
        cls.config = t("shared.ini")
        with open(cls.config, "w") as f:
            f.write("\n".join(preset_lines() + ["page-threshold = 0.3", "keep-counts = true"]) + "\n")

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def crd(self, command, out, *extra, nranks=None, check=True):
        return ci.run_crd([command, self.tmp("site"), "--config", self.config, "-o", self.tmp(out)] + list(extra),
                          nranks=nranks, check=check, timeout=120)

    def test_one_config_serves_discover_neardup_quilts_and_detect(self):
        self.crd("discover", "d.h5")
        d = effective(self.tmp("d.h5"))
        self.assertIn("chunk-threshold = 20", d)
        self.assertIn("keep-counts = true", d)
        self.assertIn("gram-words = 5", d)  # --chunker winnow's K: discover reads it too
        for other in ("method", "min-sources", "page-threshold", "sweep-m"):
            self.assertFalse(any(line.startswith(other + " =") for line in d), other)
        self.crd("neardup", "n.h5")
        self.assertIn("method = combined", effective(self.tmp("n.h5")))
        self.crd("quilts", "q.h5")
        q = effective(self.tmp("q.h5"))
        self.assertIn("sweep-m = 10,20,50,100,200", q)
        self.assertIn("foreign-sourced = domain", q)
        self.crd("detect", "t.h5", "--labels", self.tmp("d.h5"))
        t = effective(self.tmp("t.h5"))
        self.assertIn("page-threshold = 0.3", t)
        self.assertIn("min-chunk-length = 20", t)

    def test_verbose_names_the_ignored_options_once(self):
        for nranks in (None, 2):
            with self.subTest(nranks=nranks):
                out = "v%s.h5" % nranks
                proc = self.crd("discover", out, "--verbose", nranks=nranks)
                lines = [line for line in proc.stderr.splitlines() if "ignoring" in line]
                self.assertEqual(len(lines), 1, proc.stderr)
                for name in ("method", "min-sources", "page-threshold", "sweep-theta"):
                    self.assertIn(name, lines[0])
                self.assertNotIn("chunk-threshold", lines[0])
                quiet = self.crd("discover", "q%s.h5" % nranks, nranks=nranks)
                self.assertNotIn("ignoring", quiet.stderr)

    def test_a_name_no_command_knows_is_refused_with_the_closest(self):
        bad = self.tmp("typo.ini")
        with open(bad, "w") as f:
            f.write("chunk-threshold = 3\ngrm-words = 5\n")
        proc = ci.run_crd(["discover", self.tmp("site"), "--config", bad, "-o", self.tmp("typo.h5")], check=False)
        self.assertEqual(proc.returncode, 2, proc.stderr)
        self.assertEqual(len(proc.stderr.splitlines()), 1, proc.stderr)
        self.assertIn("unknown option 'grm-words' (did you mean --gram-words?)", proc.stderr)
        self.assertFalse(os.path.exists(self.tmp("typo.h5")))


if __name__ == "__main__":
    ci.main()
