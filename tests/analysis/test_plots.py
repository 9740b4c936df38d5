"""Tests of analysis/plot_results.py (PNG figures, CLI) and analysis/explore.ipynb (headless run)."""

import contextlib
import io
import json
import os
import subprocess
import sys
import tempfile
import unittest
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.image  # noqa: E402
import numpy as np  # noqa: E402

ANALYSIS = Path(__file__).resolve().parents[2] / "analysis"
sys.path.insert(0, str(ANALYSIS))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import crd_fixture  # noqa: E402
import plot_results  # noqa: E402
from crd_results import open_results  # noqa: E402

RESULT_FIGURES = ["chunk_frequency", "file_frequency", "neighborhood_badness",
                  "page_containment"]


def run_cli(*argv):
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = plot_results.main(list(argv))
    return code, out.getvalue().split(), err.getvalue()


class Fixture(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory()
        cls.paths = {}
        for command in ("run", "discover", "label"):
            cls.paths[command] = os.path.join(cls.tmp.name, f"{command}.h5")
            crd_fixture.write_result(cls.paths[command], command)
        cls.csv = os.path.join(cls.tmp.name, "perf.csv")
        with open(cls.csv, "w") as f:
            f.write("ranks,seconds,phase\n")
            for ranks, total, shuffle in ((1, 100, 20), (2, 52, 12), (4, 27, 8), (8, 15, 6)):
                f.write(f"{ranks},{total},total\n{ranks},{total * 1.03},total\n")
                f.write(f"{ranks},{shuffle},shuffle\n")

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def out_dir(self, name):
        return os.path.join(self.tmp.name, name)

    def assert_real_image(self, path):
        self.assertTrue(os.path.isfile(path), path)
        image = matplotlib.image.imread(path)
        height, width = image.shape[:2]
        self.assertGreaterEqual(width, 300, path)
        self.assertGreaterEqual(height, 200, path)
        colors = np.unique(image.reshape(-1, image.shape[2]), axis=0)
        self.assertGreater(len(colors), 20, f"{path}: only {len(colors)} distinct colors")


class ResultPlots(Fixture):
    def test_run_file_gives_all_four_figures(self):
        out = self.out_dir("figs_run")
        code, printed, _ = run_cli(self.paths["run"], "--out", out)
        self.assertEqual(code, 0)
        self.assertEqual(printed, [os.path.join(out, f"run_{n}.png") for n in RESULT_FIGURES])
        for path in printed:
            self.assert_real_image(path)

    def test_discover_file_has_only_frequency_figures(self):
        out = self.out_dir("figs_discover")
        code, printed, _ = run_cli(self.paths["discover"], "--out", out)
        self.assertEqual(code, 0)
        self.assertEqual([os.path.basename(p) for p in printed],
                         ["discover_chunk_frequency.png", "discover_file_frequency.png"])
        self.assertEqual(sorted(os.listdir(out)), sorted(os.path.basename(p) for p in printed))

    def test_label_file_has_no_figures(self):
        code, printed, err = run_cli(self.paths["label"], "--out", self.out_dir("figs_label"))
        self.assertEqual(code, 0)
        self.assertEqual(printed, [])
        self.assertIn("no figure data", err)

    def test_frequency_figure_marks_threshold_and_log_axes(self):
        fig = plot_results.plot_frequency_occurrence(open_results(self.paths["run"]), "chunk")
        ax = fig.axes[0]
        self.assertEqual((ax.get_xscale(), ax.get_yscale()), ("log", "log"))
        vertical = [line for line in ax.get_lines() if len(set(line.get_xdata())) == 1]
        self.assertEqual([line.get_xdata()[0] for line in vertical], [100])
        self.assertIn("/data/corpus/sample.warc.gz", ax.get_title())
        plot_results.plt.close(fig)

    def test_badness_figure_threshold_is_mean_plus_sigma(self):
        r = open_results(self.paths["run"])
        fig = plot_results.plot_neighborhood_badness(r)
        ax, cdf_ax = fig.axes
        threshold = r.detection_attrs["neighborhood_threshold"]
        xs = [line.get_xdata()[0] for line in ax.get_lines()]
        self.assertEqual(xs, [threshold])
        cdf = cdf_ax.get_lines()[0].get_ydata()
        self.assertAlmostEqual(cdf[-1], 1.0)
        self.assertTrue(np.all(np.diff(cdf) >= 0))
        plot_results.plt.close(fig)

    def test_not_a_crd_file_fails_cleanly(self):
        bad = os.path.join(self.tmp.name, "bad.h5")
        with open(bad, "w") as f:
            f.write("not hdf5")
        code, printed, err = run_cli(bad, "--out", self.out_dir("figs_bad"))
        self.assertEqual(code, 1)
        self.assertEqual(printed, [])
        self.assertIn("is not a crd result file", err)

    def test_command_line_with_agg_backend(self):
        out = self.out_dir("figs_cli")
        proc = subprocess.run([sys.executable, str(ANALYSIS / "plot_results.py"),
                               self.paths["discover"], "--out", out, "--scaling", self.csv],
                              capture_output=True, text=True, timeout=120)
        self.assertEqual(proc.returncode, 0, proc.stderr)
        written = proc.stdout.split()
        self.assertEqual(len(written), 3)
        for path in written:
            self.assert_real_image(path)


class ScalingPlot(Fixture):
    def test_scaling_from_csv(self):
        out = self.out_dir("figs_scaling")
        code, printed, _ = run_cli("--scaling", self.csv, "--out", out)
        self.assertEqual(code, 0)
        self.assertEqual(printed, [os.path.join(out, "perf_scaling.png")])
        self.assert_real_image(printed[0])

    def test_speedup_uses_median_of_repeats(self):
        table = plot_results.read_scaling(self.csv)
        total = table[table["phase"] == "total"]
        self.assertEqual(total["ranks"].tolist(), [1, 2, 4, 8])
        self.assertAlmostEqual(total["median"].iloc[0], 101.5)
        fig = plot_results.plot_scaling(self.csv)
        speedup_ax = fig.axes[1]
        ideal = [line for line in speedup_ax.get_lines() if line.get_label() == "ideal"][0]
        self.assertEqual(list(ideal.get_ydata()), [1, 2, 4, 8])
        plot_results.plt.close(fig)

    def test_csv_without_phase_and_bad_csv(self):
        plain = os.path.join(self.tmp.name, "plain.csv")
        with open(plain, "w") as f:
            f.write("ranks,seconds\n1,10\n2,6\n")
        self.assertEqual(plot_results.read_scaling(plain)["phase"].tolist(), ["total", "total"])
        broken = os.path.join(self.tmp.name, "broken.csv")
        with open(broken, "w") as f:
            f.write("nodes,time\n1,10\n")
        code, _, err = run_cli("--scaling", broken, "--out", self.out_dir("figs_broken"))
        self.assertEqual(code, 1)
        self.assertIn("missing column", err)


class Notebook(Fixture):
    def execute(self, result_path):
        probe = subprocess.run([sys.executable, "-m", "nbconvert", "--version"],
                               capture_output=True, text=True)
        if probe.returncode != 0:
            self.skipTest("jupyter nbconvert is not installed for "
                          f"{sys.executable} (scripts/install_deps.sh --notebook)")
        out = tempfile.mkdtemp(dir=self.tmp.name)
        env = {**os.environ, "CRD_RESULT": result_path, "PYDEVD_DISABLE_FILE_VALIDATION": "1"}
        proc = subprocess.run([sys.executable, "-m", "nbconvert", "--to", "notebook",
                               "--execute", "--ExecutePreprocessor.timeout=240",
                               "--output-dir", out, str(ANALYSIS / "explore.ipynb")],
                              capture_output=True, text=True, timeout=300, env=env)
        self.assertEqual(proc.returncode, 0, proc.stderr[-3000:])
        with open(os.path.join(out, "explore.ipynb")) as f:
            cells = json.load(f)["cells"]
        outputs = [o for c in cells if c["cell_type"] == "code" for o in c["outputs"]]
        self.assertEqual([o for o in outputs if o["output_type"] == "error"], [])
        text = "".join("".join(o.get("text", "")) + "".join(o.get("data", {}).get("text/plain", ""))
                       for o in outputs)
        images = sum("image/png" in o.get("data", {}) for o in outputs)
        return text, images

    def test_notebook_on_run_result(self):
        text, images = self.execute(self.paths["run"])
        self.assertEqual(images, len(RESULT_FIGURES))
        self.assertIn("skipped.not_html", text)
        self.assertIn("Copyright 2024 Example Corp.", text)
        self.assertIn("pages matched labeled chunks", text)

    def test_notebook_on_discover_result(self):
        text, images = self.execute(self.paths["discover"])
        self.assertEqual(images, 2)
        self.assertIn("no /detection in this file", text)


if __name__ == "__main__":
    unittest.main()
