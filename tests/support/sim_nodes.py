# Simulated cluster nodes on one machine, for tests of jobs that span nodes.
#
# Each node is a long-lived "holder" process in its own UTS namespace (its hostname) and mount
# namespace: a private tmpfs on /tmp and /dev/shm, a private /etc/hosts (bind-mounted, so the
# machine's file is never touched) that maps every node name to its own loopback address
# (127.0.0.2, 127.0.0.3, ...), and a node-local scratch directory: the same path, SCRATCH, on every
# node, backed by a different directory on each. Everything else (the build, the inputs, the
# directory the results go to) is the machine's file system, shared by all nodes like a cluster's
# parallel file system. A clone may live under /tmp, which each node replaces: the shared paths
# under it (the build tree, the sources, the corpus, the nodes' root) are bound back in on every
# node (kept_under_tmp). No network namespace is made: the nodes share the machine's loopback
# interface, and Open MPI is told to use only `lo` (loopback addresses only, never another).
#
# Processes enter a node with `nsenter --target HOLDER --uts --mount`. mpirun runs on the first
# node (as on a cluster's first allocated node) and starts the other nodes' orted through
# sim_rsh.sh, its rsh agent. A node is "lost" by killing every process in its UTS namespace.
#
# Needs root, util-linux's unshare/nsenter and mount. skip_unless_possible() tells why not.
import ctypes
import os
import shutil
import signal
import subprocess
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
RSH_AGENT = os.path.join(HERE, "sim_rsh.sh")
PR_SET_PDEATHSIG = 1

# Open MPI across the simulated nodes: the ob1 messaging layer with TCP between nodes (shared
# memory cannot cross them: every node has its own /dev/shm and the ranks of another orted are
# never "local"), loopback only for the MPI traffic and for the daemons' own connections. Every
# node claims 2 slots of the machine's 2 cores, so Open MPI does not see the oversubscription and
# its waiting ranks would spin: mpi_yield_when_idle makes them yield (a 2 x 2 discover took 37 s
# on a loaded machine without it, 2-4 s with it).
BTL_BETWEEN_NODES = "tcp,self,vader"
MCA_LOOPBACK = ["--mca", "pml", "ob1", "--mca", "btl_tcp_if_include", "lo", "--mca", "oob_tcp_if_include", "lo",
                "--mca", "mpi_yield_when_idle", "1"]


def _die_with_parent():
    # The holders and mpirun die with the test process, even when it is killed (CTest timeout).
    ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGKILL)


def why_not_possible():
    """Why nodes cannot be simulated here ("" if they can)."""
    if os.geteuid() != 0:
        return "simulated nodes need root (unshare --mount --uts)"
    for tool in ("unshare", "nsenter", "mount", "mpirun", "orted"):
        if not shutil.which(tool):
            return "%s not found" % tool
    probe = subprocess.run(["unshare", "--uts", "--mount", "--propagation", "private", "sh", "-c",
                            "hostname probe && mount -t tmpfs tmpfs /tmp"],
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    if probe.returncode != 0:
        return "unshare --uts --mount fails here: %s" % probe.stdout.decode(errors="replace").strip()
    return ""


def _uts_ns(pid):
    try:
        return os.readlink("/proc/%d/ns/uts" % pid)
    except OSError:
        return None


def without_launch_noise(err):
    """mpirun's stderr without the line it may print when an agent's child has exec'd before the
    parent's setpgid (a race of mpirun's rsh launcher, harmless): "[nodeA:…] plm:rsh: Warning:
    setpgid(…) failed in parent with errno=Permission denied(13)"."""
    text = err.decode(errors="replace") if isinstance(err, bytes) else err
    return "".join(line for line in text.splitlines(True) if "plm:rsh: Warning: setpgid(" not in line)


def kept_under_tmp(paths):
    """The directories among `paths` (real paths) under /tmp, without those inside another: what a
    node binds back over its own /tmp so that every node still sees them."""
    under = sorted({os.path.realpath(p) for p in paths if p and os.path.isdir(p)})
    under = [p for p in under if p.startswith("/tmp/")]
    return [p for p in under if not any(p.startswith(q + "/") for q in under if q != p)]


def shared_paths(root):
    """What every node must see: the nodes' root, the build tree (crd), the sources (this rsh
    agent, the Slurm scripts) and the corpus."""
    binary = os.environ.get("CRD_BINARY")
    return [root, os.path.dirname(binary) if binary else None, os.environ.get("CRD_SOURCE_DIR"),
            os.environ.get("CRD_CORPUS_DIR"), os.path.dirname(HERE)]


class SimNodes:
    """names: the node names. root: a directory on the shared file system; it holds each node's
    hosts file and scratch backing, and SCRATCH. Under /tmp, which every node replaces, it and the
    other shared paths (shared_paths) are bound back in on each node."""

    def __init__(self, names, root):
        self.names = list(names)
        self.root = root
        self.kept = kept_under_tmp(shared_paths(root))
        self.scratch = os.path.join(root, "scratch")  # node-local: the same path, one disk per node
        self.address = {n: "127.0.0.%d" % (i + 2) for i, n in enumerate(self.names)}
        self.holders = {}

    def __enter__(self):
        self.start()
        return self

    def __exit__(self, *exc):
        self.stop()

    def start(self):
        os.makedirs(self.scratch, exist_ok=True)
        hosts = os.path.join(self.root, "hosts")
        with open(hosts, "w") as f:
            f.write("127.0.0.1\tlocalhost\n")
            for n in self.names:
                f.write("%s\t%s\n" % (self.address[n], n))
        try:
            for n in self.names:
                self._start_node(n, hosts)
        except BaseException:
            self.stop()
            raise

    def _start_node(self, name, hosts):
        backing = self.node_dir(name, "scratch")
        os.makedirs(backing, exist_ok=True)
        # The machine's /tmp stays reachable under the node's fresh /dev/shm while the node's own
        # tmpfs covers /tmp, long enough to bind the shared paths back; nothing is left on the machine.
        keep = "/dev/shm/.crd-machine-tmp"
        rebind = "".join("mkdir -p %s; mount --bind %s%s %s; " % (p, keep, p[len("/tmp"):], p) for p in self.kept)
        setup = ("set -e; hostname %s; mount -t tmpfs -o size=64m tmpfs /dev/shm; mkdir %s; mount --bind /tmp %s; "
                 "mount -t tmpfs -o size=256m tmpfs /tmp; %sumount %s; rmdir %s; mount --bind %s /etc/hosts; "
                 "mount --bind %s %s; echo ready; exec sleep infinity") % (
                     name, keep, keep, rebind, keep, keep, hosts, backing, self.scratch)
        holder = subprocess.Popen(["unshare", "--uts", "--mount", "--propagation", "private", "sh", "-c", setup],
                                  stdout=subprocess.PIPE, stderr=subprocess.PIPE, preexec_fn=_die_with_parent)
        self.holders[name] = holder
        line = holder.stdout.readline()
        if line.strip() != b"ready":
            raise RuntimeError("node %s did not start: %s" % (name, holder.stderr.read().decode(errors="replace")))
        with open(self.node_dir(name, "pid"), "w") as f:
            f.write("%d\n" % holder.pid)

    def kept_in_tmp(self):
        """The names in a node's /tmp that are the machine's (the shared paths bound back in)."""
        return {p[len("/tmp/"):].split("/")[0] for p in self.kept}

    def node_dir(self, name, *parts):
        return os.path.join(self.root, "nodes", name, *parts)

    def pids_on(self, name):
        """Every process in the node (its UTS namespace), the holder excepted."""
        holder = self.holders[name].pid
        ns = _uts_ns(holder)
        found = []
        for entry in os.listdir("/proc"):
            if entry.isdigit() and int(entry) != holder and _uts_ns(int(entry)) == ns:
                found.append(int(entry))
        return found

    def kill_node(self, name, wait=10):
        """Loses the node: SIGKILL to every process on it (its orted and ranks, or mpirun), again
        until none is left (a dying orted may still start one) or `wait` seconds have passed."""
        killed = []
        deadline = time.monotonic() + wait
        while True:
            pids = self.pids_on(name)
            if not pids or time.monotonic() > deadline:
                return killed
            for pid in pids:
                try:
                    os.kill(pid, signal.SIGKILL)
                    killed.append(pid)
                except ProcessLookupError:
                    pass
            time.sleep(0.05)

    def enter(self, name):
        """The command prefix that runs a program on node `name`."""
        return ["nsenter", "--target", str(self.holders[name].pid), "--uts", "--mount", "--"]

    def on_node(self, name, path):
        """The machine's path to `path` as node `name` sees it (its /tmp, its scratch)."""
        return "/proc/%d/root%s" % (self.holders[name].pid, os.path.abspath(path))

    def popen(self, name, cmd, env=None):
        return subprocess.Popen(self.enter(name) + list(cmd), stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                env=env, preexec_fn=_die_with_parent)

    def mpirun_cmd(self, cmd, ranks_per_node=2, nodes=None, extra=(), btl=BTL_BETWEEN_NODES):
        nodes = list(nodes or self.names)
        hosts = ",".join("%s:%d" % (n, ranks_per_node) for n in nodes)
        flags = ["--allow-run-as-root"] if os.geteuid() == 0 else []
        return (["mpirun", "-q", "--oversubscribe", "--bind-to", "none", "--host", hosts,
                 "-np", str(ranks_per_node * len(nodes)), "--mca", "plm_rsh_agent", RSH_AGENT]
                + ["--mca", "btl", btl] + MCA_LOOPBACK + list(extra) + flags + list(cmd))

    def mpirun(self, cmd, ranks_per_node=2, nodes=None, extra=(), env=None, timeout=120, btl=BTL_BETWEEN_NODES):
        """Runs `cmd` with mpirun on the first of `nodes`: (returncode, stdout, stderr, seconds)."""
        nodes = list(nodes or self.names)
        run_env = dict(os.environ if env is None else env)
        run_env["CRD_SIM_NODES"] = self.root  # read by sim_rsh.sh
        start = time.monotonic()
        proc = self.popen(nodes[0], self.mpirun_cmd(cmd, ranks_per_node, nodes, extra, btl), env=run_env)
        try:
            out, err = proc.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:
            for n in self.names:
                self.kill_node(n)
            out, err = proc.communicate()
            raise AssertionError("mpirun across %s did not end within %d s:\n%s" %
                                 (nodes, timeout, err.decode(errors="replace")[-3000:]))
        return proc.returncode, out.decode(errors="replace"), without_launch_noise(err), time.monotonic() - start

    def stop(self):
        """Kills every process on every node, then the holders: the namespaces and their tmpfs go."""
        for n, holder in self.holders.items():
            if holder.poll() is None:
                self.kill_node(n)
        for holder in self.holders.values():
            if holder.poll() is None:
                holder.kill()
            holder.wait()
            for stream in (holder.stdout, holder.stderr):
                stream.close()
        self.holders = {}


def shared_tempdir(prefix):
    """A scratch directory on the shared file system: beside the crd binary (the build tree), since
    /tmp is node-local. CRD_SIM_NODES_TMP overrides."""
    base = os.environ.get("CRD_SIM_NODES_TMP") or os.path.join(os.path.dirname(os.environ["CRD_BINARY"]),
                                                                "sim-nodes-tmp")
    os.makedirs(base, exist_ok=True)
    return tempfile.mkdtemp(prefix=prefix, dir=base)
