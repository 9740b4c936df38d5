# The slurm/*.sbatch templates with --nodes=2 under a local Slurm of two slurmd nodes
# (scripts/slurm_local.sh with CRD_SLURM_NODES, each slurmd inside its simulated node): srun
# --mpi=pmix starts the ranks on both nodes, and every result equals the same command at 1 rank.
# The work dir is the templates' default, the node-local /tmp of each node.
import os
import shutil
import socket
import subprocess
import unittest

import multinode_case as mc

CONFIG = ["--chunk-threshold", "3"]
# Open MPI across the nodes, as under mpirun (sim_nodes.py): TCP over loopback only.
MPI_ENV = {"OMPI_MCA_pml": "ob1", "OMPI_MCA_btl": mc.sim_nodes.BTL_BETWEEN_NODES, "OMPI_MCA_btl_tcp_if_include": "lo",
           "OMPI_MCA_oob_tcp_if_include": "lo", "OMPI_MCA_mpi_yield_when_idle": "1"}


def free_ports(count):
    for base in range(26000, 60000, 10):
        try:
            socks = [socket.socket() for _ in range(count)]
            for i, s in enumerate(socks):
                s.bind(("127.0.0.1", base + i))
            return base
        except OSError:
            pass
        finally:
            for s in socks:
                s.close()
    raise RuntimeError("no free ports")


class SlurmAcrossNodes(mc.NodesCase):
    @classmethod
    def setUpClass(cls):
        for tool in ("sbatch", "srun", "/usr/sbin/slurmctld", "/usr/sbin/slurmd", "/usr/sbin/munged"):
            if not shutil.which(tool):
                raise unittest.SkipTest("%s not installed (scripts/install_deps.sh --slurm)" % tool)
        super().setUpClass()
        cls.src = mc.ci.source_dir()
        cls.cluster = cls.shared("slurm")
        os.makedirs(cls.cluster)
        os.chmod(cls.root, 0o755)  # munged runs as user munge and keeps its socket below
        cls.env = dict(os.environ, CRD_SLURM_PORT=str(free_ports(1 + len(mc.NODES))), CRD_SIM_NODES=cls.nodes.root,
                       CRD_SLURM_NODE_EXEC=mc.sim_nodes.RSH_AGENT,
                       CRD_SLURM_NODES=" ".join("%s=%s" % (n, cls.nodes.address[n]) for n in mc.NODES))
        for name in ("SLURM_JOB_ID", "SLURM_JOBID", "SLURM_NTASKS", "SLURM_NPROCS", "SLURM_JOB_NUM_NODES", "SLURM_NNODES"):
            cls.env.pop(name, None)
        try:
            subprocess.run([os.path.join(cls.src, "scripts", "slurm_local.sh"), "start", cls.cluster], env=cls.env,
                           check=True, timeout=120)
        except BaseException:
            cls.tearDownClass()
            raise
        cls.env.update(MPI_ENV, SLURM_CONF=os.path.join(cls.cluster, "slurm.conf"), CRD=cls.crd,
                       CRD_ARGS="--progress-interval 0 " + " ".join(CONFIG))

    @classmethod
    def tearDownClass(cls):
        subprocess.run([os.path.join(mc.ci.source_dir(), "scripts", "slurm_local.sh"), "stop", cls.shared("slurm")],
                       env=getattr(cls, "env", None), timeout=120)
        super().tearDownClass()

    def submit(self, name, script, variables, *args):
        """sbatch --wait --nodes=2, 2 tasks per node: the job's exit status; its log is NAME.out."""
        log = self.shared(name + ".out")
        proc = subprocess.run(["sbatch", "--wait", "-O", "--nodes=2", "--ntasks-per-node=2", "--chdir", self.shared(),
                               "--output", log, os.path.join(self.src, "slurm", script)] + list(args),
                              env=dict(self.env, **variables), stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                              timeout=240)
        with open(log) as f:
            text = f.read()
        self.assertEqual(proc.returncode, 0, proc.stdout.decode(errors="replace") + text)
        return text

    def test_templates_on_two_nodes(self):
        inputs = self.inputs[0]
        # blind-run: crd run on both nodes, 4 ranks.
        ref = self.shared("run-ref.h5")
        self.crd_one_rank(["run", inputs] + CONFIG + ["-o", ref])
        log = self.submit("run", "blind-run.sbatch", {"OUTPUT": self.shared("run.h5")}, inputs)
        self.assertIn("4 ranks on 2 node(s)", log)
        self.assert_same_result(self.shared("run.h5"), ref)

        # label-detect: label the corpus, then detect on it.
        self.crd_one_rank(["label", inputs, "-o", self.shared("labels-ref.h5")])
        self.crd_one_rank(["detect", inputs, "--labels", self.shared("labels-ref.h5"), "-o", self.shared("detect-ref.h5")])
        self.submit("label", "label-detect.sbatch", {"EXPERT": inputs, "CRAWL": inputs, "LABELS": self.shared("labels.h5"),
                                                     "OUTPUT": self.shared("detect.h5"),
                                                     "LABEL_ARGS": "--progress-interval 0",
                                                     "DETECT_ARGS": "--progress-interval 0"})
        self.assert_same_result(self.shared("labels.h5"), self.shared("labels-ref.h5"))
        self.assert_same_result(self.shared("detect.h5"), self.shared("detect-ref.h5"))

        # strong-scaling: 2 and 4 ranks (srun -n k spreads them over both nodes), each equal to 1 rank.
        self.submit("scaling", "strong-scaling.sbatch", {"INPUTS": inputs, "RANKS": "2 4",
                                                         "OUT_DIR": self.shared("scaling")})
        for k in (2, 4):
            self.assert_same_result(self.shared("scaling", "np%d-r1.h5" % k), ref)
        for name in mc.NODES:
            left = [f for f in os.listdir(self.nodes.on_node(name, "/tmp"))
                    if f.startswith("crd-") and f not in self.nodes.kept_in_tmp()]
            self.assertEqual(left, [], "the node-local work dirs are removed on " + name)


if __name__ == "__main__":
    mc.main()
