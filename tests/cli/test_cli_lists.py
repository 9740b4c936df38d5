# The command and option reference (docs/options.md), the man page (`crd --man`), every command's
# --help and the bash completion all agree with crd's command table and option registry. The
# reference's lists are generated (scripts/update_generated_docs.sh); this fails when they drift,
# when a command's --help lists other options than the registry says it reads, when the man page
# misses an option or does not render with `man -l`, or when the completion does not complete them.
#
#   test_cli_lists.py [unittest args]   (CRD_BINARY: the crd to check)
import os
import re
import shutil
import subprocess
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "support"))
import crd_integ as ci  # noqa: E402

OPTIONS_DOC = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "docs", "options.md")
HELP_OPTION = re.compile(r"^  (?:-\w \[ )?--([a-z][a-z-]*)")
LIST_ITEM = re.compile(r"^- `(?:-\w )?--([a-z-]+)[^`]*`: .*Read by ([a-z, -]+?)(?:;|\.$)")


def crd(*args):
    return ci.run_crd(list(args)).stdout


def generated_block(text, what):
    begin = "<!-- generated: crd --markdown %s (scripts/update_generated_docs.sh) -->\n" % what
    start = text.index(begin) + len(begin)
    return text[start:text.index("<!-- end generated -->\n", start)]


def commands():
    """The command names crd --help lists."""
    lines = crd("--help").split("commands:\n")[1].split("\n\n")[0].splitlines()
    return [line.split()[0] for line in lines]


def readers():
    """{option: {commands that read it}} from the generated option list."""
    out = {}
    for line in crd("--markdown", "options").splitlines():
        m = LIST_ITEM.match(line)
        if m:
            out[m.group(1)] = set(m.group(2).split(", ")) - {"no command"}
    return out


def complete(*words):
    """What bash completes for the command line `words` (the last word being typed)."""
    script = crd("--completion", "bash")
    line = " ".join("'%s'" % w for w in words)
    proc = subprocess.run(["bash", "-c", script + "\nCOMP_WORDS=(%s); COMP_CWORD=%d; _crd; printf '%%s\\n' "
                           "\"${COMPREPLY[@]}\"" % (line, len(words) - 1)],
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, check=True, cwd="/")
    return set(proc.stdout.split())


class Lists(unittest.TestCase):
    maxDiff = None

    def test_options_doc_lists_are_the_generated_ones(self):
        with open(OPTIONS_DOC) as f:
            text = f.read()
        for what in ("commands", "options"):
            with self.subTest(list=what):
                self.assertEqual(generated_block(text, what), crd("--markdown", what),
                                 "docs/options.md is stale: run scripts/update_generated_docs.sh")

    def test_man_page_names_every_command_and_option_and_renders(self):
        page = crd("--man")
        self.assertTrue(page.startswith(".TH CRD 1 "), page[:80])
        for name in commands():
            self.assertIn("\n.B %s\n" % name, page)
        for option in readers():
            self.assertIn("\\-\\-" + option.replace("-", "\\-") + "\\fR", page)  # \fB…--name\fR, minus signs
        if not shutil.which("man"):
            ci.skip("man is not installed")
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, "crd.1")
            with open(path, "w") as f:
                f.write(page)
            proc = subprocess.run(["man", "-l", path], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                  env=dict(os.environ, MANPAGER="cat", PAGER="cat", MANWIDTH="100", LC_ALL="C.UTF-8"))
        self.assertEqual(proc.returncode, 0, proc.stderr)
        self.assertEqual(proc.stderr.strip(), "", "man -l warns about the page")
        self.assertIn("--page-threshold auto|robust[:K]|binomial[:R[:ALPHA]]|betabinomial[:ALPHA[:CUT]]|X", proc.stdout)
        self.assertIn("crd - precise content-reuse detection", proc.stdout)

    def test_page_threshold_names_every_rule_it_takes(self):
        # detect takes binomial[:R[:ALPHA]] and betabinomial[:ALPHA[:CUT]] as well as auto, robust[:K] and a number.
        self.assertRegex(crd("detect", "--help"),
                         r"--page-threshold auto\|robust\[:K\]\|binomial\[:R\[:ALPHA\]\]\|betabinomial\[:ALPHA\[:CUT\]\]\|X")
        self.assertRegex(crd("detect", "--help"), r"--neighborhood-threshold auto\|robust\[:K\]\|X")

    def test_every_command_is_listed_and_documented(self):
        names = commands()
        self.assertEqual(len(names), 12, names)
        listed = crd("--markdown", "commands")
        for name in names:
            self.assertRegex(listed, r"crd %s " % re.escape(name))

    def test_each_help_lists_exactly_the_options_the_registry_says_it_reads(self):
        read_by = readers()
        self.assertGreater(len(read_by), 60)
        for option, cmds in read_by.items():
            self.assertTrue(cmds, "--%s is read by no command" % option)
        for name in commands():
            with self.subTest(command=name):
                help_text = crd(name, "--help")
                shown = {m.group(1) for m in map(HELP_OPTION.match, help_text.splitlines()) if m}
                expected = {o for o, cmds in read_by.items() if name in cmds} | {"help"}
                self.assertEqual(shown, expected, help_text)

    def test_bash_completion_completes_commands_options_and_choices(self):
        self.assertEqual(complete("crd", "dis"), {"discover"})
        self.assertEqual(complete("crd", "compare"), {"compare", "compare-hashing"})
        self.assertEqual(complete("crd", "discover", "--chunk-t"), {"--chunk-threshold", "--chunk-top"})
        self.assertEqual(complete("crd", "discover", "--chunker", "w"), {"winnow", "winnow+scan"})
        self.assertEqual(complete("crd", "neardup", "--method", ""), {"minhash", "simhash", "combined"})
        self.assertEqual(complete("crd", "neardup", "--chunk"), set())  # neardup does not chunk
        self.assertEqual(complete("crd", "quilts", "--sweep-"), {"--sweep-m", "--sweep-c", "--sweep-theta"})
        for name in commands():
            with self.subTest(command=name):
                expected = {"--" + o for o, cmds in readers().items() if name in cmds} | {"--help"}
                got = {w for w in complete("crd", name, "--") if w.startswith("--")}
                self.assertEqual(got, expected)


if __name__ == "__main__":
    ci.main()
