# crd across simulated nodes (2 nodes x 2 ranks, mpirun with an rsh agent, TCP over
# loopback between nodes) gives results identical, dataset by dataset, to one rank's.
import os
import re
import threading

import multinode_case as mc
import site_copies

COMMANDS = {
    "discover": ["--chunk-threshold", "3"],
    "run": ["--chunk-threshold", "3"],
    "neardup": [],
    "quilts": [],
}

# A table each command fills on these inputs, so equal results are not equally empty ones.
FOUND = {"discover": "/discovery/chunks/hash", "run": "/detection/pages/url", "neardup": "/neardup/pairs/page_a",
         "quilts": "/quilts/pages/url"}


class AcrossNodes(mc.NodesCase):
    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        # Near and exact copies of a few chapters beside the corpus, so that neardup and quilts
        # have pairs and sources to find, and discover copies to count.
        copies = cls.shared("copies")
        source = os.path.join(cls.inputs[0], "usr", "share", "debian-reference")
        for name in sorted(f for f in os.listdir(source) if f.endswith(".html"))[:3]:
            with open(os.path.join(source, name), "rb") as f:
                body = f.read()
            for label in ("mirror1", "mirror2"):
                os.makedirs(os.path.join(copies, label), exist_ok=True)
                with open(os.path.join(copies, label, name), "wb") as f:
                    f.write(site_copies.advertised_copy(body, label, name))
        cls.inputs = cls.inputs + [copies]

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
        # collective instead of ending, so its nodes are killed once the error is seen (or after
        # a while, which fails the test).
        out = self.shared("vader.h5")
        cmd = self.nodes.mpirun_cmd([self.crd] + mc.ci.quiet(["discover"] + self.inputs + ["-o", out]), 2,
                                    btl="self,vader")
        job = self.nodes.popen(mc.NODES[0], cmd, env=dict(os.environ, CRD_SIM_NODES=self.nodes.root))
        watchdog = threading.Timer(60, lambda: [self.nodes.kill_node(n) for n in mc.NODES])
        watchdog.start()
        seen = []
        try:
            for line in job.stderr:
                seen.append(line.decode(errors="replace"))
                if re.search(r"Error in MPI_Isend\(.*\(-12\)", seen[-1]):
                    break
        finally:
            watchdog.cancel()
            for name in mc.NODES:
                self.nodes.kill_node(name)
            job.communicate()
        self.assertRegex(seen[-1] if seen else "", r"Error in MPI_Isend\(.*\(-12\)", "".join(seen))
        self.assertFalse(os.path.exists(out))
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
                self.assertGreater(len(mc.comparable(ref)[0][FOUND[command]]), 0, "the reference finds something")


if __name__ == "__main__":
    mc.main()
