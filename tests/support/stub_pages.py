# N pages that share a navigation block and a footer and differ in one class name, like the
# "No usage of X" stubs of OpenJDK's API documentation (thousands of near-empty pages on one host),
# written as one WARC: the group of near-duplicates that crd neardup must cluster in O(pages).
# Used by tests/integration/test_neardup_stubs.py (2×10^4 pages) and perf/neardup_stubs.sh (10^5).
#   /usr/bin/python3 tests/support/stub_pages.py N OUT.warc
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import archives  # noqa: E402

HOST = "docs.example.org"

NAV = """<header><nav><ul class="nav-list">
<li><a href="../../../index.html">Overview</a></li><li><a href="../package-summary.html">Package</a></li>
<li>Class</li><li class="rev">Use</li><li><a href="../package-tree.html">Tree</a></li>
<li><a href="../../../deprecated-list.html">Deprecated</a></li><li><a href="../../../index-files/index-1.html">Index</a></li>
<li><a href="../../../help-doc.html#use">Help</a></li></ul><div class="about">Java SE 21 &amp; JDK 21</div>
<div class="search"><a href="../../../search.html">SEARCH</a></div></nav></header>"""

FOOTER = """<footer><p class="legal"><a href="https://bugreport.java.com/">Report a bug or suggest an
enhancement</a><br> For further API reference and developer documentation see the Java SE Documentation,
which contains more detailed, developer-targeted descriptions with conceptual overviews, definitions of
terms, workarounds, and working code examples.<br> Java is a trademark or registered trademark of Oracle
and/or its affiliates in the US and other countries.<br> Copyright &copy; 1993, 2023, Oracle and/or its
affiliates, 500 Oracle Parkway, Redwood Shores, CA 94065 USA. All rights reserved.</p></footer>"""


def class_name(i):
    """A distinct, word-like class name for page i."""
    syllables = ["Ab", "Cor", "Del", "Fen", "Gram", "Hul", "Ix", "Jor", "Kel", "Lum", "Mor", "Nex"]
    name, n = "", i
    for _ in range(5):
        name += syllables[n % len(syllables)]
        n //= len(syllables)
    return name + str(i)


def page(i):
    """The class name is one term of the text (in attributes too, which are markup): a page's
    5-word shingles differ from another's in 5 of about 120."""
    name = class_name(i)
    return ("""<!DOCTYPE HTML><html lang="en"><head><title>Uses of Class (Java SE 21 &amp; JDK 21)</title>
<link rel="stylesheet" href="../../../stylesheet.css"></head><body class="class-use-page">%s<main>
<h1 class="title" title="Uses of Class java.awt.widgets.%s">Uses of Class</h1>
<p>No usage of java.awt.widgets.%s</p></main>%s</body></html>
""" % (NAV, name, name, FOOTER)).encode("utf-8")


def url(i):
    return "https://%s/api/java.desktop/java/awt/widgets/class-use/%s.html" % (HOST, class_name(i))


def write(n, path):
    with open(path, "wb") as out:
        out.write(archives.warc_warcinfo(os.path.basename(path)))
        for i in range(n):
            out.write(archives.warc_response(url(i), page(i)))


if __name__ == "__main__":
    write(int(sys.argv[1]), sys.argv[2])
