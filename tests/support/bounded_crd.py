# crd for the hostile tests, run under an address-space limit so that a regression that trusts a
# hostile size fails the test (std::bad_alloc, one line) instead of taking the machine's memory; and
# the small site of prose those tests give the commands that need input.
import os
import resource
import subprocess
import unittest

import crd_integ as ci

LIMIT = 4 << 30  # bytes of address space per process; Open MPI and crd start in far less


def limit_address_space(limit=LIMIT):
    """A preexec_fn. Under a sanitizer (ci.SANITIZED) no address-space cap can be set (its shadow
    memory is reserved up front); there the exit statuses and the timeouts still show a regression."""
    def apply():
        if not ci.SANITIZED:
            resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    return apply


def run_bounded(args, nranks=None, timeout=120, cwd=None, env=None, limit=LIMIT):
    """crd (under mpirun -q when nranks is given, else without it) under the address-space limit;
    the CompletedProcess with text stdout/stderr, the bytes kept in raw_stdout/raw_stderr."""
    cmd = ([] if nranks is None else ci.mpi_prefix(nranks, quiet=True)) + [ci.crd_binary()] + list(args)
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=timeout,
                       preexec_fn=limit_address_space(limit), cwd=cwd, env=env)
    p.raw_stdout, p.raw_stderr = p.stdout, p.stderr
    p.stdout = p.stdout.decode("utf-8", "replace")
    p.stderr = p.stderr.decode("utf-8", "replace")
    return p


def write_site(root, pages=6):
    """A few small pages of prose that share paragraphs (so every command has work), under hosts
    h0..h2.example."""
    shared = ["<p>Paragraph %d of the shared text, long enough to hold a few shingles of words.</p>" % i
              for i in range(8)]
    for i in range(pages):
        os.makedirs(os.path.join(root, "h%d.example" % (i % 3)), exist_ok=True)
        with open(os.path.join(root, "h%d.example" % (i % 3), "p%d.html" % i), "w") as f:
            f.write("<html><body>" + "".join(shared[i % 3:]) + "<p>Page %d alone.</p></body></html>" % i)


class SiteCase(unittest.TestCase):
    """A test class over one small site of pages (cls.site, from write_site) in its own temporary
    directory, named PREFIX and the class's name."""
    PREFIX = "site-"

    @classmethod
    def setUpClass(cls):
        cls.tmp = ci.TempDir(cls.PREFIX + cls.__name__)
        cls.site = cls.tmp("site")
        write_site(cls.site)

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()
