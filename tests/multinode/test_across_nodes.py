# Issue 34: crd across simulated nodes (2 nodes x 2 ranks, mpirun with an rsh agent, TCP over
# loopback between nodes) gives results identical, dataset by dataset, to one rank's.
import os

import multinode_case as mc

COMMANDS = {
    "discover": ["--chunk-threshold", "3"],
    "run": ["--chunk-threshold", "3"],
    "neardup": [],
    "quilts": [],
}


class AcrossNodes(mc.NodesCase):
    def test_ranks_run_on_their_own_nodes(self):
        rc, out, err, _ = self.nodes.mpirun(["sh", "-c", 'echo "$(hostname) $(getent hosts $(hostname)) '
                                             '$(stat -c %i /tmp) $(stat -c %i /dev/shm)"'], 2)
        self.assertEqual(rc, 0, err)
        lines = sorted(out.split("\n")[:-1])
        self.assertEqual(len(lines), 4, out)
        seen = {}
        for line in lines:
            name, address, resolved, tmp, shm = line.split()
            self.assertEqual(resolved, name)
            self.assertEqual(address, self.nodes.address[name])
            self.assertTrue(address.startswith("127."), "loopback addresses only")
            seen.setdefault(name, set()).add((tmp, shm))
        self.assertEqual(sorted(seen), list(mc.NODES))
        # Two ranks of a node share its /tmp and /dev/shm; the nodes' are different tmpfs.
        self.assertEqual([len(v) for v in seen.values()], [1, 1])
        marker = self.nodes.on_node("nodeA", "/tmp/only-on-nodeA")
        open(marker, "w").close()
        self.assertFalse(os.path.exists(self.nodes.on_node("nodeB", "/tmp/only-on-nodeA")))

    def test_shared_memory_cannot_cross_nodes(self):
        # Without TCP the ranks of different nodes cannot reach each other: Open MPI 4.1's first
        # send between them fails (OMPI_ERR_UNREACH, -12). The job then hangs in a non-blocking
        # collective instead of ending, so it is given a short time and its nodes are killed.
        with self.assertRaises(AssertionError) as caught:
            self.crd_across(["discover"] + self.inputs + ["-o", self.shared("vader.h5")], btl="self,vader",
                            timeout=20)
        self.assertRegex(str(caught.exception), r"Error in MPI_Isend\(.*\(-12\)")
        self.assertFalse(os.path.exists(self.shared("vader.h5")))
        for name in mc.NODES:
            self.assertEqual(self.nodes.pids_on(name), [], "the hung job's processes are gone")

    def test_two_nodes_equal_one_rank(self):
        for command, options in COMMANDS.items():
            with self.subTest(command=command):
                ref = self.shared("%s-ref.h5" % command)
                self.crd_one_rank([command] + self.inputs + options + ["-o", ref])
                out = self.shared("%s-2x2.h5" % command)
                rc, _, err, seconds = self.crd_across([command] + self.inputs + options + ["-o", out])
                self.assertEqual(rc, 0, err)
                print("%s at 2 nodes x 2 ranks: %.1f s" % (command, seconds))
                self.assert_same_result(out, ref)


if __name__ == "__main__":
    mc.main()
