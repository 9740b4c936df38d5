// ARC record parsing: header fields counted from the end (URLs may hold spaces), content length,
// '\n' separator, and a look at the next line to catch wrong lengths.
#include "arc_reader.hpp"

#include <optional>
#include <vector>

#include "ascii.hpp"
#include "http_payload.hpp"
#include "record_scan.hpp"

namespace crd::io::detail {
namespace {

constexpr std::size_t kPeekBytes = 64u << 10;

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

// v1: "URL IP date type length"; v2 adds result code, checksum, location, offset and filename
// before the length. Fields are counted from the end so a URL with spaces stays whole. A line is
// a header when its date field is all digits and its URL has a scheme; the length is checked apart
// so a header with a bad length is reported as such rather than as garbage.
bool parse_header(std::string_view line, int version, ArcHeader& h) {
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
  if (n < after_url + 1) return false;
  std::string_view date = f[n - after_url + 1];
  if (!all_digits(date) || date.size() < 8 || date.size() > 20) return false;
  if (f[0].find(':') == std::string_view::npos) return false;
  h.url.clear();
  for (std::size_t i = 0; i < n - after_url; ++i) {
    if (i > 0) h.url.push_back(' ');
    h.url.append(f[i]);
  }
  h.content_type.assign(f[n - after_url + 2]);
  std::string_view len = f[n - 1];
  h.length = parse_length(len);
  return true;
}

bool looks_like_header(std::string_view line, int version) {
  ArcHeader h;
  return parse_header(line, version, h);
}

// Drops lines until one that looks like a record header, the end, or a break.
void resync(ByteStream& in, int version) {
  for (;;) {
    std::size_t len = find_line(in, kPeekBytes);
    if (len == 0) {
      std::size_t avail = in.available();
      in.consume(avail);
      if (avail < kPeekBytes) return;  // end of data or a break
      continue;                        // an overlong line: keep going
    }
    if (looks_like_header(std::string_view(in.data(), len), version)) return;
    in.consume(len);
  }
}

// Whether `d`, the bytes right after a record's content, is a record boundary: the end of data,
// or '\n' (blank lines allowed) and then another header. Some older crawlers wrote no '\n' after
// the content, so a header right at the end of the content is accepted too.
bool is_boundary(std::string_view d, int version) {
  std::size_t p = 0;
  while (p < d.size() && (d[p] == '\n' || d[p] == '\r')) ++p;
  if (p == d.size()) return true;
  const std::size_t nl = d.find('\n', p);
  return looks_like_header(d.substr(p, nl == std::string_view::npos ? nl : nl - p), version);
}

// The record of `total` bytes must be followed by a boundary (above).
bool boundary_ok(ByteStream& in, std::size_t total, int version) {
  const std::size_t avail = in.fill(total + kPeekBytes);
  return is_boundary(std::string_view(in.data() + total, avail - total), version);
}

// `end`: the decoded position just past the record, for RecordSink's check of gzip members.
void handle_content(const ArcHeader& h, std::string_view content, RecordSink& sink, Document&& doc,
                    std::uint64_t end) {
  if (looks_like_http_response(content)) {
    std::string_view note;
    PayloadOutcome out = decode_http_response(content, sink.options().max_record_bytes, doc, &note);
    if (!sink.accept(out, doc.offset)) return;
    if (doc.content_type.empty()) {
      std::string ignored_charset;
      parse_media_type(h.content_type, doc.content_type, ignored_charset);
    }
    doc.url = h.url;
    if (!note.empty()) sink.note(note);
    sink.emit(std::move(doc), end);
  } else if (istarts_with(h.url, "http:") || istarts_with(h.url, "https:")) {
    sink.fail("http.bad_response", doc.offset);
  } else {
    sink.skip("arc.non_http");  // dns:, ftp: and other captures without an HTTP response
  }
}

// A record declares more than --max-record-bytes: skipped without buffering when the length is
// true, and without taking the rest of the file with it when a digit is corrupted (see the WARC
// reader's skip_long_record: the member's end in gzip, a boundary check in raw files).
void skip_long_record(ByteStream& in, RecordSink& sink, std::uint64_t rec_disk, std::size_t line_len,
                      std::uint64_t len, int version) {
  if (in.gzip()) {
    skip_long_record_in_member(in, sink, rec_disk, line_len, len, "arc.bad_length");
    return;
  }
  // The content's last byte, then what follows: nothing at all means the declared end lies past
  // the end of the file, and the length is wrong.
  const std::string after = in.peek_at(in.position() + line_len + len - 1, kPeekBytes);
  if (!after.empty() && is_boundary(std::string_view(after).substr(1), version)) {
    in.consume(line_len);
    in.discard(len);
    sink.fail("record_too_large", rec_disk);
    return;
  }
  sink.fail("arc.bad_length", rec_disk);
  in.consume(line_len);
  resync(in, version);
}

}  // namespace

bool looks_like_arc(std::string_view bytes) { return bytes.substr(0, 11) == "filedesc://"; }

void read_arc(ByteStream& in, RecordSink& sink, const std::string& source) {
  int version = 0;  // from the filedesc record; 0 = guess per line
  while (next_record_start(in, sink)) {
    const std::uint64_t rec_pos = in.position();
    const std::uint64_t rec_disk = in.disk_offset();
    std::size_t line_len = find_line(in, kPeekBytes);
    ArcHeader h;
    if (line_len == 0 || !parse_header(std::string_view(in.data(), line_len), version, h)) {
      if (line_len == 0 && in.break_pending()) {
        report_break(in, sink);
        continue;
      }
      sink.fail("garbage", rec_disk);
      if (line_len == 0) {
        in.consume(in.available());
      } else {
        in.consume(line_len);
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
      skip_long_record(in, sink, rec_disk, line_len, len, version);
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
