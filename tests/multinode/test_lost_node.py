# A node lost in the middle of a job. A rank of that node freezes itself at a fault point
# (CRD_FAULT=RANK:POINT:stop) while the other ranks go on into the next phase and wait for it; then
# every process of the node is killed: nodeB's orted and both ranks, or nodeA's mpirun and ranks
# 0 and 1. The job must end within a bounded time (every process of the other node gone), leaving
# neither a result nor a temporary, and --resume on the same nodes (the checkpoints are on each
# node's local scratch) must give the uninterrupted result.
import os
import time

import multinode_case as mc

OPTIONS = ["--chunk-threshold", "3"]
# (node lost, its rank that freezes, fault point, the phase the other ranks are in then)
CASES = [("nodeB", 2, "scan", "scan"), ("nodeB", 2, "after_scan", "exchange"), ("nodeB", 2, "after_detect", "write"),
         ("nodeA", 0, "after_detect", "write")]
BOUND_SECONDS = 60  # generous: measured 1-3 s after the kill (docs/cluster.md)


def frozen(pids):
    for pid in pids:
        try:
            with open("/proc/%d/stat" % pid) as f:
                if f.read().rsplit(")", 1)[1].split()[0] == "T":
                    return True
        except OSError:
            pass
    return False


class LostNode(mc.NodesCase):
    def test_losing_a_node_in_each_phase(self):
        ref = self.shared("ref.h5")
        self.crd_one_rank(["run"] + self.inputs + OPTIONS + ["-o", ref])
        for lost, rank, point, phase in CASES:
            with self.subTest(lost=lost, phase=phase):
                out_dir = self.shared("lost-%s-%s" % (lost, phase))
                os.makedirs(out_dir)
                out = os.path.join(out_dir, "out.h5")
                work = os.path.join(self.nodes.scratch, "work-%s-%s" % (lost, phase))
                args = [self.crd] + mc.ci.quiet(["run"] + self.inputs + OPTIONS + ["-o", out, "--work-dir", work])
                env = dict(os.environ, CRD_FAULT="%d:%s:stop" % (rank, point), CRD_SIM_NODES=self.nodes.root)
                job = self.nodes.popen("nodeA", self.nodes.mpirun_cmd(args, 2), env=env)
                other = [n for n in mc.NODES if n != lost]
                try:
                    deadline = time.monotonic() + 120
                    while not frozen(self.nodes.pids_on(lost)):
                        self.assertIsNone(job.poll(), "the job ended before rank %d reached %s" % (rank, point))
                        self.assertLess(time.monotonic(), deadline, "rank %d never reached %s" % (rank, point))
                        time.sleep(0.05)
                    time.sleep(0.5)  # the other ranks go on into the phase
                    start = time.monotonic()
                    self.nodes.kill_node(lost)
                    job.communicate(timeout=BOUND_SECONDS)
                    while any(self.nodes.pids_on(n) for n in other) and time.monotonic() - start < BOUND_SECONDS:
                        time.sleep(0.05)
                    seconds = time.monotonic() - start
                finally:
                    if job.poll() is None:
                        self.nodes.kill_node("nodeA")
                        job.communicate()
                print("%s lost in the %s phase: the job ended %.1f s later" % (lost, phase, seconds))
                self.assertLess(seconds, BOUND_SECONDS)
                self.assertNotEqual(job.returncode, 0)
                self.assertEqual(os.listdir(out_dir), [], "no result and no temporary is left")
                for name in mc.NODES:
                    self.assertEqual(self.nodes.pids_on(name), [], "no process is left on " + name)
                rc, _, err, _ = self.crd_across(["run"] + self.inputs + OPTIONS + ["-o", out, "--work-dir", work,
                                                 "--resume"])
                self.assertEqual(rc, 0, err)
                self.assert_same_result(out, ref)
                self.assertEqual(os.listdir(out_dir), ["out.h5"])


if __name__ == "__main__":
    mc.main()
