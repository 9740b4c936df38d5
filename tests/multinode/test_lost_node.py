# Issue 34: a node lost in the middle of a job. Rank 2 (on nodeB) freezes itself at a fault point
# (CRD_FAULT=2:POINT:stop) while the other ranks go on into the next phase and wait for it; then
# every process of nodeB (its orted and both ranks) is killed. mpirun must end the job within a
# bounded time, leaving neither a result nor a temporary, and --resume on the same nodes (the
# checkpoints are on each node's local scratch) must give the uninterrupted result.
import os
import time

import multinode_case as mc

OPTIONS = ["--chunk-threshold", "3"]
# point -> the phase the surviving ranks are in when nodeB is lost
PHASES = {"scan": "scan", "after_scan": "exchange", "after_detect": "write"}
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
        for point, phase in PHASES.items():
            with self.subTest(phase=phase):
                out_dir = self.shared("lost-" + phase)
                os.makedirs(out_dir)
                out = os.path.join(out_dir, "out.h5")
                work = os.path.join(self.nodes.scratch, "work-" + phase)
                args = [self.crd] + mc.ci.quiet(["run"] + self.inputs + OPTIONS + ["-o", out, "--work-dir", work])
                env = dict(os.environ, CRD_FAULT="2:%s:stop" % point, CRD_SIM_NODES=self.nodes.root)
                job = self.nodes.popen("nodeA", self.nodes.mpirun_cmd(args, 2), env=env)
                try:
                    deadline = time.monotonic() + 120
                    while not frozen(self.nodes.pids_on("nodeB")):
                        self.assertIsNone(job.poll(), "the job ended before rank 2 reached " + point)
                        self.assertLess(time.monotonic(), deadline, "rank 2 never reached " + point)
                        time.sleep(0.05)
                    time.sleep(0.5)  # the other ranks go on into the phase
                    start = time.monotonic()
                    self.nodes.kill_node("nodeB")
                    _, err = job.communicate(timeout=BOUND_SECONDS)
                    seconds = time.monotonic() - start
                finally:
                    if job.poll() is None:
                        self.nodes.kill_node("nodeA")
                        job.communicate()
                print("nodeB lost in the %s phase: the job ended %.1f s later" % (phase, seconds))
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
