# Real result files to corrupt with h5py, for the hostile tests of what reads results
# (tests/hostile/test_hdf5_inputs.py, test_round4_result_files.py): a small corpus whose sites share
# paragraphs, its labels (crd label of an expert page holding the shared ones), a discover
# --keep-counts result and one more result, made once per test module.
import os
import shutil

import crd_integ as ci

QUIET = ["--progress-interval", "0"]
SHARED = ["Shared paragraph number %d is copied across every site of this small corpus, word for word." % i
          for i in range(8)]


def page(title, paragraphs):
    body = "".join("<p>%s</p>\n" % p for p in paragraphs)
    return "<html><head><title>%s</title></head><body><div>%s</div>\n%s</body></html>\n" % (title, title, body)


def write_corpus(root, pages, shared):
    """Three sites of `pages` pages, page n holding the first shared(n) paragraphs of SHARED (so
    chunks repeat) and three of its own, under root/corpus; and an expert page holding every shared
    paragraph (so crd label labels them), under root/expert."""
    for site in ("a.example", "b.example", "c.example"):
        for n in range(pages):
            own = ["Paragraph %d of page %d on %s, written only here." % (k, n, site) for k in range(3)]
            path = os.path.join(root, "corpus", site, "page%d.html" % n)
            os.makedirs(os.path.dirname(path), exist_ok=True)
            with open(path, "w") as f:
                f.write(page("%s %d" % (site, n), SHARED[: shared(n)] + own))
    path = os.path.join(root, "expert", "expert.example", "index.html")
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(page("expert", SHARED))


def replace_dataset(f, name, **kwargs):
    """Replaces dataset `name` of the open file `f` by h5py.create_dataset(name, **kwargs)."""
    del f[name]
    f.create_dataset(name, **kwargs)


class ResultFiles:
    """tmp (a ci.TempDir), corpus, pages, labels (L.h5), discovered (D.h5: discover --keep-counts
    with every chunk) and result (R.h5: what `make_result` writes). copy() gives a file to corrupt."""

    def __init__(self, scratch, pages, shared):
        self.tmp = ci.TempDir(scratch)
        write_corpus(self.tmp(), pages, shared)
        self.corpus = self.tmp("corpus")
        self.pages = sorted(os.path.join(dp, n) for dp, _, ns in os.walk(self.corpus) for n in ns)
        self.labels = self.tmp("L.h5")
        ci.run_crd(["label", self.tmp("expert"), "-o", self.labels] + QUIET)
        self.discovered = self.tmp("D.h5")
        ci.run_crd(["discover", self.corpus, "--keep-counts", "--chunk-threshold", "0", "-o", self.discovered] + QUIET)
        self.result = self.tmp("R.h5")
        self.make_result(self.result)

    def make_result(self, out):
        raise NotImplementedError

    def copy(self, source, name):
        out = self.tmp(name)
        shutil.copyfile(source, out)
        return out


class OnePerModule:
    """A fixture made on first use and shared by a module's test classes; the module's
    tearDownModule calls cleanup()."""

    def __init__(self, make):
        self.make, self.made = make, None

    def __call__(self):
        if self.made is None:
            self.made = self.make()
        return self.made

    def cleanup(self):
        if self.made is not None:
            self.made.tmp.cleanup()
