# The tests' one reference for what near-duplicate detection measures: a text's k-word shingle set
# and the exact Jaccard of two sets, and a manual's navigation block that a test host repeats on
# every page (the template that --boilerplate-pages leaves out).
# Used by tests/integration/test_neardup_{boilerplate,main_content,ranks}.py.

MANUAL_NAV = "<nav><ul>" + "".join(
    "<li><a href=\"/s%d.html\">Section %d of the manual: %s</a></li>" % (i, i, topic)
    for i, topic in enumerate(["installing the system", "configuring the network", "managing packages",
                               "users and groups", "the boot process", "printing", "backups and recovery",
                               "system logs", "kernel modules", "security updates"])) + "</ul></nav>"


def shingle_set(words, k):
    """The set of k-word shingles of `words` (tuples of k consecutive words)."""
    return {tuple(words[i:i + k]) for i in range(len(words) - k + 1)}


def jaccard(a, b):
    """|a ∩ b| / |a ∪ b| of two shingle sets."""
    return len(a & b) / len(a | b)
