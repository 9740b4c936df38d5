# The frame of the multi-node tests: simulated nodes (tests/support/sim_nodes.py) started once per
# test module and always stopped, a scratch directory on the shared file system, a small corpus,
# and a 1-rank reference run to compare with.
import os
import shutil
import sys
import unittest

_HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(_HERE, "..", "support"))
import crd_integ as ci  # noqa: E402
import sim_nodes  # noqa: E402

NODES = ("nodeA", "nodeB")


def comparable(path):
    # What describes the particular job (rank count, time, command line) is left out.
    return ci.comparable(path, drop_root=("nranks", "created", "command_line", "config"))


class NodesCase(unittest.TestCase):
    """Starts NODE_NAMES (default NODES) once for the class; self.nodes, self.shared(…) (a path on
    the shared file system)."""

    NODE_NAMES = NODES

    @classmethod
    def setUpClass(cls):
        why = sim_nodes.why_not_possible()
        if why:
            raise unittest.SkipTest(why)
        cls.crd = ci.crd_binary()
        cls.inputs = [ci.corpus_package("debian-reference-en")]
        cls.root = sim_nodes.shared_tempdir("nodes-")
        cls.nodes = sim_nodes.SimNodes(cls.NODE_NAMES, os.path.join(cls.root, "cluster"))
        cls.nodes.start()

    @classmethod
    def tearDownClass(cls):
        cls.nodes.stop()
        if not os.environ.get("CRD_KEEP_TMP"):
            shutil.rmtree(cls.root, ignore_errors=True)

    @classmethod
    def shared(cls, *parts):
        return os.path.join(cls.root, *parts)

    def crd_across(self, args, ranks_per_node=2, nodes=NODES, timeout=180, **kw):
        """crd ARGS with mpirun over `nodes`: (returncode, stdout, stderr, seconds)."""
        return self.nodes.mpirun([self.crd] + ci.quiet(args), ranks_per_node, nodes, timeout=timeout, **kw)

    def crd_one_rank(self, args):
        ci.run_crd(ci.quiet(args))

    def assert_same_result(self, path, reference):
        datasets, attrs = comparable(path)
        ref_datasets, ref_attrs = comparable(reference)
        ci.assert_same_datasets(self, datasets, ref_datasets, msg="(%s against %s)" % (path, reference))
        self.assertEqual(attrs, ref_attrs)


def main():
    ci.main()
