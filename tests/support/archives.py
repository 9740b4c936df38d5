# One writer of web-archive records for the Python tests and benchmarks (tests/hostile,
# tests/integration, perf/make_warc.py): WARC/1.0 records (response, request, warcinfo, metadata,
# resource, any type) and ARC v1 records, written plain or one gzip member per record as crawlers
# write them. Every field can be left out or declared wrong, for the hostile-input tests.
# tests/io/archive_builder.cpp is its C++ counterpart for the unit tests.
#
# Byte strings throughout; URLs and other header values may also be given as str (UTF-8).
import zlib

WARC_DATE = b"2024-01-01T00:00:00Z"
ARC_DATE = b"20240101000000"
ARC_IP = b"192.0.2.1"  # TEST-NET-1 (RFC 5737): never a real host
HTML_HEADERS = b"Content-Type: text/html; charset=utf-8\r\n"
ARC_V1_FIELDS = b"URL IP-address Archive-date Content-type Archive-length"


def _b(value):
    return value.encode("utf-8") if isinstance(value, str) else value


# --- HTTP messages (the blocks of response and request records) ---

def http_response(body, status=b"200 OK", headers=HTML_HEADERS, content_length=False):
    """An HTTP/1.1 response: status line, `headers` (each line ending in CRLF), a Content-Length
    header for the body when content_length is true, blank line, body."""
    if content_length:
        headers = headers + b"Content-Length: %d\r\n" % len(body)
    return b"HTTP/1.1 " + _b(status) + b"\r\n" + headers + b"\r\n" + body


def http_request(uri, user_agent=b"crd-test/1.0"):
    """The GET request a crawler sent for `uri` (scheme://host/path...)."""
    uri = _b(uri)
    rest = uri.split(b"://", 1)[-1]
    host, slash, path = rest.partition(b"/")
    return (b"GET " + slash + path + b" HTTP/1.1\r\nHost: " + host + b"\r\nUser-Agent: " + _b(user_agent)
            + b"\r\nAccept: text/html\r\n\r\n")


# --- WARC/1.0 ---

def warc_record(warc_type, uri, block, content_type=None, length=None, extra=b"", record_id=None,
                date=WARC_DATE):
    """One WARC/1.0 record: named fields, blank line, block, CRLF CRLF. warc_type, uri, content_type
    and record_id are left out when None; `extra` is inserted verbatim (whole lines) before
    Content-Length; length is the Content-Length to declare (None: the block's size; "missing":
    no Content-Length field at all)."""
    head = b"WARC/1.0\r\n"
    if warc_type is not None:
        head += b"WARC-Type: " + _b(warc_type) + b"\r\n"
    if uri is not None:
        head += b"WARC-Target-URI: " + _b(uri) + b"\r\n"
    head += b"WARC-Date: " + _b(date) + b"\r\n"
    if record_id is not None:
        head += b"WARC-Record-ID: <urn:uuid:" + _b(record_id) + b">\r\n"
    if content_type is not None:
        head += b"Content-Type: " + _b(content_type) + b"\r\n"
    head += extra
    if length != "missing":
        head += b"Content-Length: %d\r\n" % (len(block) if length is None else length)
    return head + b"\r\n" + block + b"\r\n\r\n"


def warc_response(uri, body, record_id=None, status=b"200 OK", headers=HTML_HEADERS, content_length=False):
    """A response record holding an HTTP response with `body` (http_response's arguments)."""
    return warc_record("response", uri, http_response(body, status, headers, content_length),
                       b"application/http; msgtype=response", record_id=record_id)


def warc_request(uri, record_id=None):
    return warc_record("request", uri, http_request(uri), b"application/http; msgtype=request",
                       record_id=record_id)


def warc_fields(fields):
    """A block of `name: value` lines (application/warc-fields) from (name, value) pairs."""
    return b"".join(_b(k) + b": " + _b(v) + b"\r\n" for k, v in fields)


def warc_warcinfo(filename, fields=(("software", "crd tests"), ("format", "WARC File Format 1.0")),
                  record_id=None):
    """The warcinfo record that opens a crawler's WARC file."""
    return warc_record("warcinfo", None, warc_fields(fields), b"application/warc-fields",
                       extra=b"WARC-Filename: " + _b(filename) + b"\r\n", record_id=record_id)


def warc_metadata(uri, fields, record_id=None):
    """A metadata record about `uri` (as Common Crawl writes after each response)."""
    return warc_record("metadata", uri, warc_fields(fields), b"application/warc-fields", record_id=record_id)


# --- ARC v1 ---

def arc_header(url, length, content_type=b"text/html", ip=ARC_IP, date=ARC_DATE):
    """An ARC v1 header line: "URL IP-address Archive-date Content-type Archive-length\\n"."""
    return b" ".join((_b(url), _b(ip), _b(date), _b(content_type), b"%d" % length)) + b"\n"


def arc_record(url, content, content_type=b"text/html", length=None, ip=ARC_IP, date=ARC_DATE):
    """Header line, content, '\\n'. length: the Archive-length to declare (None: the content's)."""
    declared = len(content) if length is None else length
    return arc_header(url, declared, content_type, ip, date) + content + b"\n"


def arc_filedesc(name, origin=b"crd-test", date=ARC_DATE):
    """The filedesc record that opens an ARC v1 file (its content names the version and fields)."""
    content = b"1 0 " + _b(origin) + b"\n" + ARC_V1_FIELDS + b"\n"
    return arc_record(b"filedesc://" + _b(name), content, b"text/plain", date=date)


def arc_response(url, body, content_type=b"text/html", status=b"200 OK", headers=HTML_HEADERS,
                 content_length=False):
    """An ARC record holding an HTTP response with `body`."""
    return arc_record(url, http_response(body, status, headers, content_length), content_type)


# --- Files ---

def gzip_member(data, level=9):
    """`data` as one gzip member (zlib's header: mtime 0, so the output is reproducible). Level 9
    is gzip.compress's default, and at mtime 0 the bytes equal gzip.compress(data, mtime=0)'s."""
    member = zlib.compressobj(level, zlib.DEFLATED, 31)  # wbits 31: a gzip wrapper
    return member.compress(data) + member.flush()


class ArchiveFile:
    """A WARC or ARC file being written, record by record: plain, or one gzip member per record
    when `gzip_level` is given. `offsets` holds each record's offset on disk (for gzip, its
    member's), which is what crd reports in /run/errors."""

    def __init__(self, path, gzip_level=None):
        self.path = path
        self.gzip_level = gzip_level
        self.offsets = []
        self._f = open(path, "wb")
        self._size = 0

    def write(self, record):
        data = record if self.gzip_level is None else gzip_member(record, self.gzip_level)
        self.offsets.append(self._size)
        self._f.write(data)
        self._size += len(data)
        return data

    def close(self):
        self._f.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
        return False
