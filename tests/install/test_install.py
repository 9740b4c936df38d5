# Issue 30: crd installs like HPC software. `cmake --install BUILD --prefix P` lays out bin/, the
# presets, the Slurm templates, the Python reader and notebook, the docs and an Lmod modulefile;
# the installed crd gives the build tree's result; a reinstall keeps the user's own files; a moved
# prefix still finds its presets; the .deb unpacks and runs; `module load crd` twice puts one
# entry on PATH.
#
#   test_install.py BUILD_DIR [unittest args]
import os
import shutil
import subprocess
import sys
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "support"))
import crd_integ as ci  # noqa: E402

BUILD = os.path.abspath(sys.argv.pop(1)) if len(sys.argv) > 1 and not sys.argv[1].startswith("-") else None
LMOD_INIT = "/usr/share/lmod/lmod/init/bash"
SAME_JOB = ("nranks", "created", "command_line", "config")  # what differs between two runs of one job


def options_read(path):
    """The result's config attribute (the effective options) without the output's name."""
    lines = ci.open_results(path).attrs["config"].splitlines()
    return [line for line in lines if not line.startswith("output =")]


def install(prefix):
    subprocess.run(["cmake", "--install", BUILD, "--prefix", prefix], check=True, stdout=subprocess.PIPE)


def run(cmd, **kw):
    proc = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, **kw)
    if proc.returncode != 0:
        raise AssertionError("%s failed (%d):\n%s%s" % (cmd, proc.returncode, proc.stdout, proc.stderr))
    return proc


def job(crd, out, config, env=None, cwd=None):
    """One small crd run (the project's sample archives) with --config `config`."""
    return run([crd, "run", SAMPLES_DIR, "--config", config, "--progress-interval", "0", "-o", out],
               env=env, cwd=cwd)


def clean_env(**extra):
    env = {k: v for k, v in os.environ.items() if k not in ("CRD_HOME",)}
    env.update(extra)
    return env


class Installed(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        if not BUILD or not os.path.isfile(os.path.join(BUILD, "cmake_install.cmake")):
            ci.skip("no build directory given (run through ctest)")
        global SAMPLES_DIR
        cls.tmp = ci.TempDir("install")
        SAMPLES_DIR = os.path.dirname(ci.sample_archives(cls.tmp)[0])
        cls.prefix = cls.tmp("prefix")
        install(cls.prefix)
        cls.reference = cls.tmp("reference.h5")
        job(ci.crd_binary(), cls.reference, os.path.join(ci.source_dir(), "configs", "quickstart.ini"), env=clean_env())

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def p(self, *parts):
        return os.path.join(self.prefix, *parts)

    def assert_same_result(self, path):
        a = ci.comparable(path, drop_root=SAME_JOB)
        b = ci.comparable(self.reference, drop_root=SAME_JOB)
        ci.assert_same_datasets(self, a[0], b[0])
        self.assertEqual(a[1], b[1])
        self.assertEqual(options_read(path), options_read(self.reference))

    def test_layout(self):
        for rel in ("bin/crd", "share/crd/configs/quickstart.ini", "share/crd/configs/commoncrawl-blind.ini",
                    "share/crd/slurm/blind-run.sbatch", "share/crd/slurm/label-detect.sbatch",
                    "share/crd/slurm/strong-scaling.sbatch", "share/crd/analysis/crd_results.py",
                    "share/crd/analysis/plot_results.py", "share/crd/analysis/explore.ipynb",
                    "share/doc/crd/README.md", "share/doc/crd/docs/schema.md", "share/doc/crd/docs/install.md"):
            self.assertTrue(os.path.isfile(self.p(rel)), rel)
        self.assertTrue(os.access(self.p("bin/crd"), os.X_OK))
        self.assertTrue(os.access(self.p("share/crd/slurm/blind-run.sbatch"), os.X_OK))
        modulefiles = os.listdir(self.p("share/modulefiles/crd"))
        self.assertEqual(len(modulefiles), 1, modulefiles)
        self.assertRegex(modulefiles[0], r"^\d+\.\d+\.\d+\.lua$")

    def test_bash_completion_is_installed_and_completes_commands_and_options(self):
        # Issue 32: generated from the command table by the crd built; bash-completion finds it here.
        path = self.p("share/bash-completion/completions/crd")
        with open(path) as f:
            self.assertEqual(f.read(), run([self.p("bin/crd"), "--completion", "bash"]).stdout)
        for words, expected in ((["crd", "neard"], "neardup"), (["crd", "neardup", "--min-b"], "--min-b-similarity")):
            script = 'source "%s"; COMP_WORDS=(%s); COMP_CWORD=%d; _crd; echo "${COMPREPLY[@]}"' % (
                path, " ".join(words), len(words) - 1)
            self.assertEqual(run(["bash", "-c", script]).stdout.split(), [expected])

    def test_slurm_templates_use_crd_from_path_and_nothing_of_the_source_tree(self):
        source = os.path.realpath(ci.source_dir())
        for name in os.listdir(self.p("share/crd/slurm")):
            with open(self.p("share/crd/slurm", name)) as f:
                text = f.read()
            self.assertNotIn(source, text, name)
            self.assertIn('crd="${CRD:-crd}"', text, name)
            self.assertNotRegex(text, r"(build|scripts)/crd|\$\(dirname", name)

    def test_installed_crd_with_an_installed_preset_gives_the_build_trees_result(self):
        out = self.tmp("installed.h5")
        job(self.p("bin/crd"), out, self.p("share/crd/configs/quickstart.ini"), env=clean_env())
        self.assert_same_result(out)

    def test_version_names_the_commit_and_build_type_and_results_record_them(self):
        text = run([self.p("bin/crd"), "--version"]).stdout.strip()
        r = ci.open_results(self.reference)
        version, commit, build_type = (r.attrs[k] for k in ("crd_version", "crd_git_commit", "crd_build_type"))
        self.assertEqual(text, "crd %s (commit %s, %s build)" % (version, commit, build_type))
        self.assertRegex(version, r"^\d+\.\d+\.\d+$")
        # The commit the build was configured from (HEAD may have moved since): one of the repository's.
        git = subprocess.run(["git", "-C", ci.source_dir(), "cat-file", "-e", commit + "^{commit}"],
                             stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        in_git = subprocess.run(["git", "-C", ci.source_dir(), "rev-parse", "HEAD"], stdout=subprocess.DEVNULL,
                                stderr=subprocess.DEVNULL).returncode == 0
        if in_git:
            self.assertRegex(commit, r"^[0-9a-f]{12}$")
            self.assertEqual(git.returncode, 0, "%s is no commit of %s" % (commit, ci.source_dir()))
        else:
            self.assertEqual(commit, "unknown")
        self.assertNotEqual(build_type, "")

    def test_reinstalling_keeps_the_users_own_files(self):
        prefix = self.tmp("reinstall")
        install(prefix)
        own = {os.path.join(prefix, "share/crd/configs/mine.ini"): "chunk-threshold = 7\n",
               os.path.join(prefix, "bin/my-tool"): "#!/bin/sh\n",
               os.path.join(prefix, "share/modulefiles/crd/local.lua"): "-- the site's own\n"}
        for path, text in own.items():
            with open(path, "w") as f:
                f.write(text)
        install(prefix)
        for path, text in own.items():
            with open(path) as f:
                self.assertEqual(f.read(), text, path)
        self.assertTrue(os.path.isfile(os.path.join(prefix, "bin/crd")))

    def test_a_moved_prefix_finds_its_presets_by_name(self):
        moved = self.tmp("moved", "elsewhere")
        shutil.copytree(self.prefix, moved, symlinks=True)
        # Through the executable's location (no CRD_HOME), from a directory holding no preset.
        out = self.tmp("moved.h5")
        job(os.path.join(moved, "bin/crd"), out, "quickstart", env=clean_env(), cwd=self.tmp.path)
        self.assert_same_result(out)  # the same options too: the preset read is quickstart.ini
        # Through CRD_HOME, which comes first.
        home = self.tmp("home")
        os.makedirs(os.path.join(home, "configs"))
        with open(os.path.join(home, "configs", "quickstart.ini"), "w") as f:
            f.write("chunk-threshold = 123\n")
        out = self.tmp("home.h5")
        job(os.path.join(moved, "bin/crd"), out, "quickstart", env=clean_env(CRD_HOME=home), cwd=self.tmp.path)
        self.assertIn("chunk-threshold = 123", options_read(out))
        # A name found nowhere is one clear usage error.
        proc = subprocess.run([os.path.join(moved, "bin/crd"), "run", SAMPLES_DIR, "--config", "no-such-preset",
                               "-o", self.tmp("x.h5")], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                              text=True, env=clean_env(), cwd=self.tmp.path)
        self.assertEqual(proc.returncode, 2, proc.stderr)
        self.assertIn("no-such-preset", proc.stderr)

    def test_lmod_module_sets_path_and_crd_home_once(self):
        if not os.path.isfile(LMOD_INIT):
            self.skipTest("Lmod is not installed (apt-get install lmod; scripts/install_deps.sh --slurm)")
        script = """
            source %s
            module use %s
            module load crd
            module load crd
            echo "PATH=$PATH"
            echo "CRD_HOME=$CRD_HOME"
            echo "CRD=$(command -v crd)"
            crd --help >/dev/null && echo HELP_OK
        """ % (LMOD_INIT, self.p("share/modulefiles"))
        env = clean_env(PATH="/usr/bin:/bin", MODULEPATH="", LMOD_SYSTEM_DEFAULT_MODULES="")
        out = run(["bash", "--noprofile", "--norc", "-c", script], env=env).stdout
        lines = dict(line.split("=", 1) for line in out.splitlines() if "=" in line)
        self.assertEqual(lines["PATH"].split(":").count(self.p("bin")), 1, lines["PATH"])
        self.assertEqual(lines["PATH"].split(":")[0], self.p("bin"))
        self.assertEqual(lines["CRD_HOME"], self.p("share/crd"))
        self.assertEqual(lines["CRD"], self.p("bin/crd"))
        self.assertIn("HELP_OK", out)


class VersionOutsideGit(unittest.TestCase):
    def test_sources_without_git_say_unknown(self):
        # A release tarball: cmake/Version.cmake run on a copy of the sources with no .git.
        tmp = ci.TempDir("nogit")
        try:
            script = os.path.join(ci.source_dir(), "cmake", "Version.cmake")
            proc = run(["cmake", "-DPROJECT_SOURCE_DIR=" + tmp.path, "-DCMAKE_BUILD_TYPE=Release", "-P", script])
            self.assertIn("commit=unknown build_type=Release", proc.stderr)
            proc = run(["cmake", "-DPROJECT_SOURCE_DIR=" + ci.source_dir(), "-P", script])
            self.assertRegex(proc.stderr, r"commit=[0-9a-f]{12} build_type=unknown")
        finally:
            tmp.cleanup()


class DebianPackage(unittest.TestCase):
    def test_deb_unpacks_and_runs_a_job(self):
        if not BUILD:
            ci.skip("no build directory given (run through ctest)")
        if not shutil.which("cpack") or not shutil.which("dpkg-deb"):
            ci.skip("cpack or dpkg-deb absent")
        tmp = ci.TempDir("deb")
        try:
            global SAMPLES_DIR
            SAMPLES_DIR = os.path.dirname(ci.sample_archives(tmp)[0])
            deb = run(["bash", os.path.join(ci.source_dir(), "scripts", "package.sh"), BUILD]).stdout.split()[-1]
            fields = run(["dpkg-deb", "-f", deb, "Package", "Depends"]).stdout
            self.assertIn("Package: crd", fields)
            depends = [d.strip() for d in fields.split("Depends:", 1)[1].split(",")]
            for runtime in ("libopenmpi3", "libhdf5-openmpi-103-1", "libgumbo1", "libicu72", "libpsl5",
                            "libtlsh0", "libfuzzy2", "libboost-program-options1.74.0"):
                self.assertIn(runtime, depends)
            self.assertEqual([d for d in depends if d.endswith("-dev")], [])
            root = tmp("root")
            run(["dpkg-deb", "-x", deb, root])
            crd = os.path.join(root, "usr", "bin", "crd")
            self.assertRegex(run([crd, "--version"]).stdout, r"^crd \d+\.\d+\.\d+ \(commit \S+, \S+ build\)")
            out = tmp("deb.h5")
            job(crd, out, "quickstart", env=clean_env(), cwd=tmp.path)  # the preset from root/usr/share/crd
            self.assertGreater(ci.open_results(out).counters["documents"], 0)
        finally:
            tmp.cleanup()


def packages_of(libs):
    """{soname: the Debian package holding it, or None}, with one ldconfig and one dpkg call."""
    paths = {}
    for line in run(["ldconfig", "-p"]).stdout.splitlines():
        parts = line.split()
        if parts and parts[0] in libs and "=>" in parts and parts[0] not in paths:
            path, real = parts[-1], os.path.realpath(parts[-1])
            # Debian 12 merges /lib into /usr/lib; dpkg knows each file under one of the two names.
            paths[parts[0]] = {path, real, real.replace("/usr/lib/", "/lib/", 1), path.replace("/lib/", "/usr/lib/", 1)}
    owner = {}
    every = sorted(set().union(*paths.values())) if paths else []
    for line in subprocess.run(["dpkg", "-S"] + every, capture_output=True, text=True).stdout.splitlines():
        if ": " in line and not line.startswith("diversion"):
            pkg, path = line.split(": ", 1)
            owner[path] = pkg.split(",")[0].split(":")[0]
    return {lib: next((owner[p] for p in sorted(paths.get(lib, ())) if p in owner), None) for lib in libs}


class DebianDepends(unittest.TestCase):
    def test_depends_name_exactly_the_linked_libraries(self):
        """The .deb's Depends (CRD_DEBIAN_DEPENDS in cmake/Install.cmake) lists the package of every
        library crd links directly (objdump's NEEDED), and no library package crd does not link
        (openmpi-bin, the launcher, is the one package that is no library)."""
        if not BUILD:
            ci.skip("no build directory given (run through ctest)")
        if not shutil.which("objdump") or not shutil.which("dpkg"):
            ci.skip("objdump or dpkg absent")
        text = open(os.path.join(ci.source_dir(), "cmake", "Install.cmake")).read()
        listed = text.split("set(CRD_DEBIAN_DEPENDS", 1)[1].split(")", 1)[0].split()
        needed = [line.split()[1] for line in run(["objdump", "-p", os.path.join(BUILD, "crd")]).stdout.splitlines()
                  if line.strip().startswith("NEEDED")]
        linked = set(packages_of(needed).values())
        self.assertNotIn(None, linked, needed)
        self.assertEqual(sorted(linked - set(listed)), [], "linked but not in Depends")
        self.assertEqual(sorted(set(listed) - linked - {"openmpi-bin"}), [], "in Depends but not linked")


if __name__ == "__main__":
    ci.main()
