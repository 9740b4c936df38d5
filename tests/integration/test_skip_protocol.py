# crd_integ's skip protocol. A test that calls ci.skip() inside a test method or
# setUpClass is reported skipped (not an error), and the program exits 77 (CTest's
# SKIP_RETURN_CODE) only when nothing ran to completion; a failure still exits 1.
import os
import subprocess
import sys
import tempfile
import textwrap
import unittest

import crd_integ as ci

HERE = os.path.dirname(os.path.abspath(__file__))
SUPPORT = os.path.join(HERE, "..", "support")  # crd_integ

PROGRAMS = {
    # name: (body of the test module, expected exit code)
    "skip_in_method": ("""
        class T(unittest.TestCase):
            def test_a(self):
                ci.skip("no data")
        """, ci.SKIP),
    "skip_in_set_up_class": ("""
        class T(unittest.TestCase):
            @classmethod
            def setUpClass(cls):
                ci.skip("no data")
            def test_a(self):
                pass
            def test_b(self):
                pass
        """, ci.SKIP),
    "skip_through_a_locator": ("""
        os.environ["CRD_SHARED_DIR"] = "/nonexistent"
        class T(unittest.TestCase):
            def test_a(self):
                ci.warc_sample_files()
        """, ci.SKIP),
    "one_passes_one_skips": ("""
        class T(unittest.TestCase):
            def test_a(self):
                ci.skip("no data")
            def test_b(self):
                self.assertEqual(1, 1)
        """, 0),
    "one_fails_one_skips": ("""
        class T(unittest.TestCase):
            def test_a(self):
                ci.skip("no data")
            def test_b(self):
                self.assertEqual(1, 2)
        """, 1),
    "skip_before_main": ("""
        ci.skip("tool absent")
        """, ci.SKIP),
}


class SkipProtocol(unittest.TestCase):
    def run_program(self, body):
        with tempfile.TemporaryDirectory(prefix="crd-skip-") as tmp:
            path = os.path.join(tmp, "prog.py")
            with open(path, "w") as f:
                f.write("import os, sys, unittest\nsys.path.insert(0, %r)\nimport crd_integ as ci\n" % SUPPORT)
                f.write(textwrap.dedent(body))
                f.write("\nif __name__ == '__main__':\n    ci.main()\n")
            return subprocess.run([sys.executable, path], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                  timeout=60)

    def test_exit_codes(self):
        for name, (body, expected) in PROGRAMS.items():
            with self.subTest(name):
                proc = self.run_program(body)
                out = proc.stdout.decode("utf-8", "replace")
                self.assertEqual(proc.returncode, expected, out)
                if expected == ci.SKIP:
                    self.assertIn("SKIP:", out)
                    self.assertNotIn("Traceback", out)


if __name__ == "__main__":
    ci.main()
