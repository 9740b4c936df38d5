// ARC record parsing: header fields counted from the end (URLs may hold spaces), content length,
// '\n' separator, and a look at the next line to catch wrong lengths.
#include "arc_reader.hpp"

#include <algorithm>
#include <cstring>
#include <optional>
#include <vector>

#include "ascii.hpp"
#include "http_payload.hpp"
#include "record_scan.hpp"

namespace crd::io::detail {
namespace {

constexpr std::size_t kPeekBytes = 64u << 10;
// A line after a record's content at least this long, with no end in the look, is a long header.
constexpr std::size_t kLongLine = 4096;

// Owns its strings: the stream's buffer may move before the record is handled (ByteStream's rule).
struct ArcHeader {
  std::string url;
  std::string content_type;
  std::optional<std::uint64_t> length;  // nullopt: the header is recognisable but its length is bad
};

bool all_digits(std::string_view s) {
  if (s.empty()) return false;
  for (char c : s) {
    if (c < '0' || c > '9') return false;
  }
  return true;
}

// Whether `url` starts with a URI scheme and its ':' (RFC 3986: a letter, then letters, digits,
// '+', '-' or '.'). Text glued before a header ("</html>http://...", from a record written without
// its '\n' separator) fails this.
bool has_scheme(std::string_view url) {
  if (url.empty() || !is_alpha(url[0])) return false;
  for (std::size_t i = 1; i < url.size(); ++i) {
    const char c = url[i];
    if (c == ':') return true;
    if (!is_alpha(c) && !(c >= '0' && c <= '9') && c != '+' && c != '-' && c != '.') return false;
  }
  return false;
}

// The schemes ARC writers record. Only these are looked for inside a line or right after a
// record's content, where a longer run of letters could have been cut anywhere ("p://" is a valid
// scheme, and what is left of "http://" after a length 3 bytes too long).
constexpr std::string_view kKnownSchemes[] = {"http:", "https:", "ftp:", "dns:", "filedesc:"};

bool has_known_scheme(std::string_view url) {
  for (std::string_view k : kKnownSchemes) {
    if (istarts_with(url, k)) return true;
  }
  return false;
}

// Offset in `s` of the first known scheme after its first byte, or npos.
std::size_t find_known_scheme(std::string_view s) {
  for (std::size_t colon = s.find(':'); colon != std::string_view::npos; colon = s.find(':', colon + 1)) {
    for (std::string_view k : kKnownSchemes) {
      if (colon + 1 > k.size() && istarts_with(s.substr(colon + 1 - k.size()), k)) return colon + 1 - k.size();
    }
  }
  return std::string_view::npos;
}

// v1: "URL IP date type length"; v2 adds result code, checksum, location, offset and filename
// before the length. Fields are counted from the end so a URL with spaces stays whole. A line ends
// like a header when its date field is all digits; the header starts where its URL does: at the
// line's start when that is a scheme, else (`inside`) at the first known scheme within the line,
// the next record of an ARC written without separators after content of the wrong length. The
// length is checked apart so a header with a bad length is reported as such rather than as
// garbage. Returns the header's offset in the line, or npos.
std::size_t find_header(std::string_view line, int version, bool inside, ArcHeader& h) {
  line = chomp(line);
  std::vector<std::string_view> f;
  std::size_t pos = 0;
  while (pos < line.size()) {
    std::size_t sp = line.find(' ', pos);
    if (sp == std::string_view::npos) sp = line.size();
    if (sp > pos) f.push_back(line.substr(pos, sp - pos));
    pos = sp + 1;
  }
  const std::size_t n = f.size();
  bool v2 = version == 2;
  if (version == 0 && n >= 10 && all_digits(f[n - 8]) && f[n - 8].size() >= 8) v2 = true;
  const std::size_t after_url = v2 ? 9 : 4;
  if (n < after_url + 1) return std::string_view::npos;
  std::string_view date = f[n - after_url + 1];
  if (!all_digits(date) || date.size() < 8 || date.size() > 20) return std::string_view::npos;
  const std::size_t url_end = static_cast<std::size_t>(f[n - after_url].data() - line.data());
  std::size_t at = 0;
  if (!has_scheme(line)) {
    at = inside ? find_known_scheme(line.substr(0, url_end)) : std::string_view::npos;
    if (at == std::string_view::npos) return at;
  }
  h.url.clear();
  for (std::size_t i = 0; i < n - after_url; ++i) {
    const std::size_t from = static_cast<std::size_t>(f[i].data() - line.data());
    if (from + f[i].size() <= at) continue;
    if (!h.url.empty()) h.url.push_back(' ');
    h.url.append(from < at ? f[i].substr(at - from) : f[i]);
  }
  h.content_type.assign(f[n - after_url + 2]);
  std::string_view len = f[n - 1];
  h.length = parse_length(len);
  return at;
}

bool parse_header(std::string_view line, int version, ArcHeader& h) {
  return find_header(line, version, /*inside=*/false, h) == 0;
}

// Drops bytes up to the next record header (at a line's start or inside a line, see find_header),
// the end, or a break. The current position is taken only if a header starts there.
void resync(ByteStream& in, int version) {
  for (;;) {
    std::size_t len = find_line(in, kPeekBytes);
    if (len == 0) {
      const std::size_t avail = in.available();
      if (avail < kPeekBytes) {  // end of data or a break
        in.consume(avail);
        return;
      }
      in.consume(kPeekBytes);  // an overlong line: what is left of it is looked at next
      continue;
    }
    ArcHeader h;
    const std::size_t at = find_header(std::string_view(in.data(), len), version, /*inside=*/true, h);
    if (at != std::string_view::npos) {
      in.consume(at);
      return;
    }
    in.consume(len);
  }
}

// Whether `d`, the bytes right after a record's content, is a record boundary: the end of data,
// or '\n' (blank lines allowed) and then another header. Some older crawlers wrote no '\n' after
// the content, so a header right at the end of the content is accepted too.
// A header glued to the content must name a known scheme: one that is merely valid may be the
// rest of the next header's URL after a length a few bytes too long ("p://...").
// The next record's header line ends at a '\r' too: its own lines may end in CR only. A line that
// starts with a known scheme after a line break and runs past the look (a URL of hundreds of KB)
// cannot be checked: it is taken as a boundary, and that record is then counted on its own
// (arc.bad_header). A bad record costs itself only, never the good one before it.
bool is_boundary(std::string_view d, int version) {
  std::size_t p = 0;
  while (p < d.size() && (d[p] == '\n' || d[p] == '\r')) ++p;
  if (p == d.size()) return true;
  const std::size_t nl = d.find_first_of("\r\n", p);
  if (nl == std::string_view::npos && p > 0 && d.size() - p >= kLongLine && has_known_scheme(d.substr(p))) return true;
  ArcHeader h;
  return parse_header(d.substr(p, nl == std::string_view::npos ? nl : nl - p), version, h) &&
         (p > 0 || has_known_scheme(h.url));
}

// Length of the header line at the stream's position through its end: "\n", "\r\n" (or "\r\r\n"),
// or a lone '\r' (a record written with CR-only line ends: its header is read, its HTTP lines are
// not, so it costs itself only). 0 when no line ends within kPeekBytes or the data ends first.
std::size_t header_line_length(ByteStream& in) {
  const std::size_t avail = std::min(in.fill(kPeekBytes + 2), kPeekBytes + 2);
  const char* d = in.data();
  const void* hit = std::memchr(d, '\n', std::min(avail, kPeekBytes));
  const std::size_t nl = hit == nullptr ? avail : static_cast<std::size_t>(static_cast<const char*>(hit) - d);
  const void* cr_hit = std::memchr(d, '\r', std::min(nl, kPeekBytes));
  if (cr_hit != nullptr) {
    const std::size_t cr = static_cast<std::size_t>(static_cast<const char*>(cr_hit) - d);
    std::size_t j = cr;
    while (j < avail && d[j] == '\r') ++j;
    if (j < avail && d[j] != '\n') return cr + 1;  // a lone CR ends the line
  }
  return hit == nullptr ? 0 : nl + 1;
}

// Skips the rest of an overlong line, through its '\n', the end, or a break.
void skip_line(ByteStream& in) {
  for (;;) {
    const std::size_t avail = in.fill(kPeekBytes);
    const void* nl = std::memchr(in.data(), '\n', avail);
    if (nl != nullptr) {
      in.consume(static_cast<std::size_t>(static_cast<const char*>(nl) - in.data()) + 1);
      return;
    }
    in.consume(avail);
    if (avail == 0 || in.break_pending()) return;
  }
}

// The record of `total` bytes must be followed by a boundary (above). The look is bounded, so a
// header line is looked for in kPeekBytes whatever more is buffered.
bool boundary_ok(ByteStream& in, std::size_t total, int version) {
  const std::size_t avail = in.fill(total + kPeekBytes);
  return is_boundary(std::string_view(in.data() + total, std::min(avail - total, kPeekBytes)), version);
}

// `end`: the decoded position just past the record, for RecordSink's check of gzip members.
void handle_content(const ArcHeader& h, std::string_view content, RecordSink& sink, Document&& doc, std::uint64_t end) {
  if (looks_like_http_response(content)) {
    std::vector<std::string_view> notes;
    PayloadOutcome out = decode_http_response(content, sink.options().max_record_bytes, doc, &notes);
    if (!sink.accept(out, doc.offset)) return;
    if (doc.content_type.empty()) {
      std::string ignored_charset;
      parse_media_type(h.content_type, doc.content_type, ignored_charset);
    }
    doc.url = h.url;
    for (std::string_view n : notes) sink.note(n);
    sink.emit(std::move(doc), end);
  } else if (istarts_with(h.url, "http:") || istarts_with(h.url, "https:")) {
    sink.fail("http.bad_response", doc.offset);
  } else {
    sink.skip("arc.non_http");  // dns:, ftp: and other captures without an HTTP response
  }
}

}  // namespace

bool looks_like_arc(std::string_view bytes) { return bytes.substr(0, 11) == "filedesc://"; }

void read_arc(ByteStream& in, RecordSink& sink, const std::string& source) {
  int version = 0;  // from the filedesc record; 0 = guess per line
  while (next_record_start(in, sink)) {
    const std::uint64_t rec_pos = in.position();
    const std::uint64_t rec_disk = in.disk_offset();
    std::size_t line_len = header_line_length(in);
    ArcHeader h;
    if (line_len == 0 || !parse_header(std::string_view(in.data(), line_len), version, h)) {
      if (line_len == 0 && in.break_pending()) {
        report_break(in, sink);
        continue;
      }
      if (line_len == 0 && in.available() > kPeekBytes && has_known_scheme(std::string_view(in.data(), 16))) {
        // A header line longer than the look (a URL of hundreds of KB): that record alone is lost.
        sink.record();
        sink.fail("arc.bad_header", rec_disk);
        skip_line(in);
        resync(in, version);
        continue;
      }
      sink.fail("garbage", rec_disk);
      // A header may start inside this line; its start is not one. A line cut at a lone CR can
      // fail here and pass resync's look (to the '\n'): step past its start then.
      const std::uint64_t before = in.position();
      resync(in, version);
      if (in.position() == before) {
        in.consume(1);
        resync(in, version);
      }
      continue;
    }
    sink.record();
    if (!h.length) {
      sink.fail("arc.bad_length", rec_disk);
      in.consume(line_len);
      resync(in, version);
      continue;
    }
    const std::uint64_t len = *h.length;
    if (len > sink.options().max_record_bytes) {
      skip_long_record(
          in, sink, rec_disk, line_len, len, line_len, kPeekBytes, "arc.bad_length",
          [&](std::string_view after) { return is_boundary(after.substr(1), version); }, [&] { resync(in, version); });
      continue;
    }
    const std::size_t total = line_len + static_cast<std::size_t>(len);
    if (in.fill(total) < total) {
      lose_short_record(in, sink, rec_disk, line_len, "arc.bad_length", "arc.truncated", [&] { resync(in, version); });
      continue;
    }
    if (!record_intact(in, total)) {
      report_break(in, sink);
      continue;
    }
    if (!boundary_ok(in, total, version)) {
      sink.fail("arc.bad_length", rec_disk);
      in.consume(line_len);
      resync(in, version);
      continue;
    }
    std::string_view content(in.data() + line_len, static_cast<std::size_t>(len));
    if (istarts_with(h.url, "filedesc:")) {
      // Its first line is "<major> <minor> <origin>"; the major version fixes the header layout.
      if (content.substr(0, 2) == "1 ") version = 1;
      if (content.substr(0, 2) == "2 ") version = 2;
      sink.skip("arc.filedesc");
    } else {
      Document doc;
      doc.source = source;
      doc.offset = rec_disk;
      doc.stream_offset = rec_pos;
      handle_content(h, content, sink, std::move(doc), rec_pos + total);
    }
    in.consume(total);
  }
}

}  // namespace crd::io::detail
