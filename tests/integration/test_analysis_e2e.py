# Analysis, end to end: a real crd run result goes through analysis/plot_results.py and the
# analysis/explore.ipynb notebook (executed headless with nbconvert); the figures must be real
# images, not blank canvases.
import os
import subprocess
import sys
import unittest

import crd_integ as ci

try:
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.image
    import numpy as np
except ImportError:
    ci.skip("matplotlib/numpy not importable by " + sys.executable)


def nbconvert_available():
    probe = subprocess.run([sys.executable, "-m", "nbconvert", "--version"], stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE)
    return probe.returncode == 0


class AnalysisEndToEnd(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.source = ci.source_dir()
        cls.tmp = ci.TempDir("analysis")
        cls.result = cls.tmp("run.h5")
        inputs = [ci.corpus_package("debian-reference-en"), ci.sphinx_html()]
        ci.run_crd(ci.quiet(["run"] + inputs + ["-o", cls.result, "--chunk-threshold", "5", "--file-threshold", "2"]),
                   nranks=2)
        cls.env = dict(os.environ, MPLBACKEND="Agg", CRD_RESULT=cls.result, PYDEVD_DISABLE_FILE_VALIDATION="1")

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def assert_real_image(self, path):
        self.assertTrue(os.path.isfile(path), path)
        self.assertGreater(os.path.getsize(path), 5000, path)
        img = matplotlib.image.imread(path)
        self.assertGreaterEqual(img.shape[0], 200, path)
        self.assertGreaterEqual(img.shape[1], 200, path)
        pixels = img.reshape(-1, img.shape[-1]) if img.ndim == 3 else img.reshape(-1, 1)
        distinct = len(np.unique(pixels, axis=0))
        self.assertGreater(distinct, 20, "%s has only %d distinct colours" % (path, distinct))
        # Not a blank canvas: a real share of pixels differ from the background (the mode).
        values, counts = np.unique(pixels, axis=0, return_counts=True)
        self.assertGreater(1 - counts.max() / len(pixels), 0.01, path)

    def test_plot_results(self):
        out = self.tmp("figures")
        proc = subprocess.run([sys.executable, os.path.join(self.source, "analysis", "plot_results.py"), self.result,
                               "--out", out], stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=self.env,
                              timeout=300)
        self.assertEqual(proc.returncode, 0, proc.stderr.decode(errors="replace"))
        written = [l for l in proc.stdout.decode().splitlines() if l.endswith(".png")]
        pngs = sorted(n for n in os.listdir(out) if n.endswith(".png"))
        self.assertGreaterEqual(len(pngs), 3, "chunk and file frequency, page/neighborhood figures: %s" % pngs)
        self.assertEqual(sorted(os.path.basename(w) for w in written), pngs, "printed paths = files written")
        for name in pngs:
            with self.subTest(figure=name):
                self.assert_real_image(os.path.join(out, name))

    def test_notebook_executes(self):
        if not nbconvert_available():
            self.skipTest("jupyter nbconvert is not installed for " + sys.executable)
        notebook = os.path.join(self.source, "analysis", "explore.ipynb")
        out = self.tmp("explore.out.ipynb")
        proc = subprocess.run([sys.executable, "-m", "nbconvert", "--to", "notebook", "--execute", notebook,
                               "--output", out, "--ExecutePreprocessor.timeout=300"],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=self.env, timeout=600,
                              cwd=self.source)
        self.assertEqual(proc.returncode, 0, proc.stderr.decode(errors="replace")[-3000:])
        import json
        with open(out) as f:
            nb = json.load(f)
        code = [c for c in nb["cells"] if c["cell_type"] == "code"]
        self.assertTrue(code)
        errors = [o for c in code for o in c.get("outputs", []) if o.get("output_type") == "error"]
        self.assertEqual(errors, [])
        images = [o for c in code for o in c.get("outputs", []) if "image/png" in o.get("data", {})]
        self.assertGreater(len(images), 0, "the notebook draws figures from the result")
        text = "".join("".join(o.get("text", "")) + "".join(o.get("data", {}).get("text/plain", ""))
                       for c in code for o in c.get("outputs", []))
        self.assertIn(os.path.basename(self.result), text + json.dumps(nb), "the notebook read CRD_RESULT")


if __name__ == "__main__":
    if not nbconvert_available():
        ci.skip("jupyter nbconvert is not installed for " + sys.executable)
    ci.main()
