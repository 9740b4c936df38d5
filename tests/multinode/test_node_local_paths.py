# Paths that exist on every node under the same name but are node-local (/tmp, a local
# scratch disk). An output there fails before any work with one line (it hung in H5Fcreate); a
# node-local --work-dir resumes on the same nodes and refuses, with one line naming the node and
# the path, to resume where a rank's checkpoints are on another node.
import os
import multinode_case as mc

OPTIONS = ["--chunk-threshold", "3"]


class NodeLocalPaths(mc.NodesCase):
    NODE_NAMES = ("nodeA", "nodeB", "nodeC")

    def assert_one_line_failure(self, rc, err, seconds, pattern):
        self.assertNotEqual(rc, 0)
        lines = err.strip().splitlines()
        self.assertEqual(len(lines), 1, err)
        self.assertRegex(lines[0], pattern)
        self.assertLess(seconds, 60, "it fails before any work")

    def test_output_in_node_local_tmp_fails_before_any_work(self):
        for name in self.NODE_NAMES:
            os.makedirs(self.nodes.on_node(name, "/tmp/results"), exist_ok=True)
        for ranks_per_node in (1, 2):
            with self.subTest(ranks_per_node=ranks_per_node):
                rc, _, err, seconds = self.crd_across(["run"] + self.inputs + OPTIONS + ["-o", "/tmp/results/out.h5"],
                                                      ranks_per_node, nodes=("nodeA", "nodeB"), timeout=120)
                self.assert_one_line_failure(
                    rc, err, seconds,
                    r"^crd run: .*output '/tmp/results/out.h5': rank %d: on node nodeB, output directory "
                    r"'/tmp/results' is not the one rank 0 \(node nodeA\) writes to" % ranks_per_node)
                self.assertEqual(rc, 2)
                for name in self.NODE_NAMES:
                    self.assertEqual(os.listdir(self.nodes.on_node(name, "/tmp/results")), [],
                                     "no result, temporary or probe left on " + name)

    def test_output_directory_on_rank_0s_node_only(self):
        os.makedirs(self.nodes.on_node("nodeA", "/tmp/only-a"))
        rc, _, err, seconds = self.crd_across(["discover"] + self.inputs + OPTIONS + ["-o", "/tmp/only-a/out.h5"],
                                              1, nodes=("nodeA", "nodeB"), timeout=120)
        self.assert_one_line_failure(rc, err, seconds, r"rank 1: on node nodeB, output directory '/tmp/only-a'")
        self.assertEqual(os.listdir(self.nodes.on_node("nodeA", "/tmp/only-a")), [])

    def test_shared_output_directory_passes(self):
        out = self.shared("shared-out.h5")
        rc, _, err, _ = self.crd_across(["discover"] + self.inputs + OPTIONS + ["-o", out], 1, nodes=("nodeA", "nodeB"))
        self.assertEqual(rc, 0, err)
        self.assertTrue(os.path.exists(out))
        self.assertFalse([f for f in os.listdir(self.shared()) if f.startswith(".crd-shared-probe")], "probe removed")

    def test_node_local_work_dir(self):
        work = os.path.join(self.nodes.scratch, "work")  # the same path on every node, a disk each
        out = self.shared("work.h5")
        ref = self.shared("work-ref.h5")
        self.crd_one_rank(["run"] + self.inputs + OPTIONS + ["-o", ref])
        args = ["run"] + self.inputs + OPTIONS + ["-o", out, "--work-dir", work]
        # Rank 1 (nodeB) dies after its discover checkpoint: both nodes hold checkpoints.
        rc, _, err, _ = self.crd_across(args, 1, nodes=("nodeA", "nodeB"), env=dict(os.environ, CRD_FAULT="1:after_discover"))
        self.assertNotEqual(rc, 0)
        on = {n: sorted(f for _, _, fs in os.walk(self.nodes.node_dir(n, "scratch")) for f in fs) for n in self.NODE_NAMES}
        self.assertTrue(on["nodeA"] and all(f.startswith("rank-0-of-2.") for f in on["nodeA"]), on)
        self.assertTrue(on["nodeB"] and all(f.startswith("rank-1-of-2.") for f in on["nodeB"]), on)
        (job,) = os.listdir(os.path.join(self.nodes.node_dir("nodeA", "scratch"), "work"))
        job_dir = os.path.join(work, job)

        # Resubmitted to another set of nodes, or to the same nodes in another rank order: refused.
        for nodes, rank, now, then in ((("nodeA", "nodeC"), 1, "nodeC", "nodeB"),
                                       (("nodeB", "nodeA"), 0, "nodeB", "nodeA")):
            with self.subTest(nodes=nodes):
                rc, _, err, seconds = self.crd_across(args + ["--resume"], 1, nodes=nodes)
                self.assert_one_line_failure(
                    rc, err, seconds,
                    r"^crd run: fatal: cannot resume: rank %d on node %s finds no checkpoints in %s "
                    r"\(the last run had it on node %s\); a node-local --work-dir needs the same nodes"
                    % (rank, now, job_dir, then))
                self.assertEqual(rc, 1)
                self.assertFalse(os.path.exists(out))

        # On the same nodes, in the same order: resumes, and equals an uninterrupted run.
        rc, _, err, _ = self.crd_across(args + ["--resume"], 1, nodes=("nodeA", "nodeB"))
        self.assertEqual(rc, 0, err)
        self.assert_same_result(out, ref)
        for n in self.NODE_NAMES:
            left = [f for _, _, fs in os.walk(self.nodes.node_dir(n, "scratch")) for f in fs]
            self.assertEqual(left, [], "checkpoints removed after the result on " + n)



if __name__ == "__main__":
    mc.main()
