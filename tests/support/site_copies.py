"""A copied page as the paper's validation (§6.2) makes it: the original with a unique lead and
tail paragraph (the copier's advertisements), so the copy is not byte-identical yet shares every
chunk of the original. One definition for the tests and validation/paper_validation.py."""
import re


def advertised_copy(body, label, rel):
    """body (bytes) with "unique lead/tail of LABEL for REL" paragraphs just inside <body> and
    just before </body> (at the start and end when the page has neither)."""
    lead = b"<p>unique lead of %s for %s: buy now</p>" % (label.encode(), rel.encode())
    tail = b"<p>unique tail of %s for %s: call us</p>" % (label.encode(), rel.encode())
    m = re.search(rb"<body[^>]*>", body, re.I)
    j = m.end() if m else 0
    body = body[:j] + lead + body[j:]
    k = body.lower().rfind(b"</body>")
    k = len(body) if k < 0 else k
    return body[:k] + tail + body[k:]
