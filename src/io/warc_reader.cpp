// WARC record parsing: named fields, block, "\r\n\r\n" trailer, dispatch on WARC-Type.
#include "warc_reader.hpp"

#include <algorithm>
#include <cstring>
#include <optional>
#include <string_view>
#include <vector>

#include "ascii.hpp"
#include "crd/hash/digest.hpp"
#include "crd/hash/sha1.hpp"
#include "http_payload.hpp"
#include "record_scan.hpp"
#include "warc_segments.hpp"

namespace crd::io::detail {

bool looks_like_warc(std::string_view bytes) {
  return bytes.size() >= 6 && bytes.substr(0, 5) == "WARC/" && bytes[5] >= '0' && bytes[5] <= '9';
}

namespace {

// Owns its strings: the stream's buffer may move before the record is handled (ByteStream's rule).
struct WarcHeader {
  std::string type;  // lowercased
  std::optional<std::uint64_t> length;
  std::string target_uri;
  std::string content_type;
  std::string block_digest;  // "sha1:<base32 or hex>" when the writer recorded one
  bool truncated = false;    // WARC-Truncated: the recorder cut the block (length, time, ...)
  SegmentFields segments;
};

WarcHeader parse_header(std::string_view text) {
  WarcHeader h;
  std::size_t pos = text.find('\n');  // the version line
  while (pos != std::string_view::npos && pos + 1 < text.size()) {
    std::size_t start = pos + 1;
    pos = text.find('\n', start);
    std::string_view line = text.substr(start, pos == std::string_view::npos ? pos : pos - start);
    if (!line.empty() && (line.front() == ' ' || line.front() == '\t')) continue;  // continuation
    std::size_t colon = line.find(':');
    if (colon == std::string_view::npos) continue;
    std::string_view name = trim(line.substr(0, colon));
    std::string_view value = trim(line.substr(colon + 1));
    if (iequals(name, "WARC-Type")) {
      h.type.assign(value);
      for (char& c : h.type) c = ascii_lower(c);
    } else if (iequals(name, "Content-Length")) {
      h.length = parse_length(value);
    } else if (iequals(name, "WARC-Target-URI")) {
      if (value.size() >= 2 && value.front() == '<' && value.back() == '>') value = value.substr(1, value.size() - 2);
      h.target_uri.assign(trim(value));
    } else if (iequals(name, "Content-Type")) {
      h.content_type.assign(value);
    } else if (iequals(name, "WARC-Block-Digest")) {
      h.block_digest.assign(value);
    } else if (iequals(name, "WARC-Truncated")) {
      h.truncated = true;
    } else if (iequals(name, "WARC-Record-ID")) {
      h.segments.record_id.assign(value);
    } else if (iequals(name, "WARC-Segment-Number")) {
      h.segments.number = parse_length(value);
      if (!h.segments.number) h.segments.number = 0;  // present but unreadable: still a segment
    } else if (iequals(name, "WARC-Segment-Origin-ID")) {
      h.segments.origin_id.assign(value);
    } else if (iequals(name, "WARC-Segment-Total-Length")) {
      h.segments.total_length = parse_length(value);
    }
  }
  return h;
}

// The SHA-1 of a "sha1:" WARC digest label, in base32 (RFC 4648, as most writers use) or hex.
// Written here because neither OpenSSL nor zlib decodes base32, and it is ten lines.
std::optional<Digest> sha1_label(std::string_view label) {
  if (label.size() < 5 || !iequals(label.substr(0, 5), "sha1:")) return std::nullopt;
  label.remove_prefix(5);
  if (label.size() == 40) return digest_from_hex(label);
  if (label.size() != 32) return std::nullopt;
  Digest d;
  std::uint64_t bits = 0;
  int nbits = 0;
  std::size_t out = 0;
  for (char c : label) {
    const char l = ascii_lower(c);
    const int v = l >= 'a' && l <= 'z' ? l - 'a' : l >= '2' && l <= '7' ? l - '2' + 26 : -1;
    if (v < 0) return std::nullopt;
    bits = (bits << 5) | static_cast<std::uint64_t>(v);
    nbits += 5;
    if (nbits >= 8) {
      nbits -= 8;
      d.bytes[out++] = static_cast<std::uint8_t>(bits >> nbits);
    }
  }
  return d;
}

// Whether the record's own WARC-Block-Digest matches its block: what lets a record from a gzip
// member that failed its CRC be kept (a one-member file fails as a whole).
bool block_digest_matches(const WarcHeader& h, std::string_view block) {
  const std::optional<Digest> want = sha1_label(h.block_digest);
  return want && sha1(block) == *want;
}

// How far the search for header ends has got: no blank line ends before the stream position
// `clean_to`. A header with no blank line within kMaxHeaderBytes makes the reader resynchronise
// on the next "WARC/" mark, often a few bytes on, whose header search would scan the same bytes
// again: 10^6 lines of "WARC/1.0" took minutes (docs/hostile-input.md). With this each byte is scanned once.
struct HeaderScan {
  std::uint64_t clean_to = 0;
};

// Length of the named-field block through its blank line, or 0 when there is none within
// kMaxHeaderBytes of the record's start (see the caller for why).
std::size_t find_header_end(ByteStream& in, HeaderScan& scan) {
  const std::uint64_t start = in.position();
  std::size_t want = 4096;
  for (;;) {
    const std::size_t avail = in.fill(want);
    const std::size_t limit = std::min(avail, kMaxHeaderBytes);
    const char* d = in.data();
    std::size_t i =
        scan.clean_to > start ? static_cast<std::size_t>(std::min<std::uint64_t>(scan.clean_to - start, limit)) : 0;
    for (;;) {
      const void* hit = std::memchr(d + i, '\n', limit - i);
      if (hit == nullptr) {
        i = limit;
        break;
      }
      std::size_t j = static_cast<std::size_t>(static_cast<const char*>(hit) - d);
      // A blank line; some damaged files end lines with "\r\r\n", so allow any run of '\r'.
      std::size_t k = j + 1;
      while (k < limit && d[k] == '\r') ++k;
      if (k < limit && d[k] == '\n') {
        scan.clean_to = start + j;
        return k + 1;
      }
      if (k >= limit) {  // the blank line may continue past what is searched
        i = j;
        break;
      }
      i = j + 1;
    }
    scan.clean_to = start + i;
    if (avail < want || limit >= kMaxHeaderBytes) return 0;
    want *= 2;
  }
}

// Where, in a header block, a second line that starts like a record ("WARC/1.") begins; 0 when
// none does. A header never holds one: the lines before it are a record with no named fields
// (lines of "WARC/1.0" alone), and must not take the next record's fields as theirs.
std::size_t next_version_line(std::string_view block) {
  std::size_t p = block.find('\n');
  while (p != std::string_view::npos && p + 1 < block.size()) {
    if (looks_like_warc(block.substr(p + 1))) return p + 1;
    p = block.find('\n', p + 1);
  }
  return 0;
}

// Whether the header block's first line is a version line alone ("WARC/1.0": digits, '.', digits,
// then blanks), as writers write it. A longer one is a record whose lines end in CR only, or junk
// that began with the mark and has no newline: taking either as this record's version line would
// merge it, uncounted, into the record whose fields follow.
bool clean_version_line(std::string_view block) {
  std::string_view line = trim(block.substr(0, block.find('\n')));
  std::size_t i = 5;  // past "WARC/"
  auto digits = [&] {
    const std::size_t from = i;
    while (i < line.size() && line[i] >= '0' && line[i] <= '9') ++i;
    return i > from && i - from <= 4;
  };
  if (!digits() || i >= line.size() || line[i] != '.') return false;
  ++i;
  return digits() && i == line.size();
}

// Drops bytes up to the next "WARC/<digit>.", a break, or the end. The mark is looked for
// anywhere, not only at line starts, since garbage need not end with a newline. The current
// position is never taken (callers stand on a '\n', inside garbage, or on a rejected record).
void resync(ByteStream& in) {
  constexpr std::size_t kWindow = 1u << 16;
  constexpr std::size_t kMark = 7;  // "WARC/1."
  std::size_t from = 1;
  for (;;) {
    std::size_t avail = in.fill(kWindow);
    bool more = avail >= kWindow;
    const char* d = in.data();
    std::size_t i = std::min(from, avail);
    std::size_t keep_from = avail - std::min(avail, kMark - 1);  // a mark may straddle the refill
    for (;;) {
      const void* hit = ::memmem(d + i, avail - i, "WARC/", 5);
      if (hit == nullptr) break;
      std::size_t at = static_cast<std::size_t>(static_cast<const char*>(hit) - d);
      if (at + kMark > avail) {
        keep_from = at;
        break;
      }
      if (d[at + 5] >= '0' && d[at + 5] <= '9' && d[at + 6] == '.') {
        in.consume(at);
        return;
      }
      i = at + 1;
    }
    if (!more) {
      in.consume(avail);
      return;
    }
    in.consume(std::max<std::size_t>(keep_from, 1));
    from = 0;
  }
}

constexpr std::size_t kTrailerPeek = 16;
constexpr std::size_t kBadTrailer = static_cast<std::size_t>(-1);

// Length of the separator after a block ending at `end` in `d` (which holds at least
// kTrailerPeek bytes past it unless the data ends there). The standard one is "\r\n\r\n"; a
// short run of other CR/LF bytes (or none, when the block's own last line ended) is accepted when
// the next record or the end follows, as some writers and line-ending conversions produce. Anything else means
// Content-Length is wrong, and the next record may begin inside the declared block: kBadTrailer.
std::size_t trailer_length(std::string_view d, std::size_t end) {
  if (d.substr(end, 4) == "\r\n\r\n") return 4;
  std::size_t k = end;
  while (k < d.size() && (d[k] == '\r' || d[k] == '\n')) ++k;
  if (k == d.size()) return k - end;
  // No separator at all is fine when the block ended a line and a record starts right there.
  bool at_line_start = k > end || (end > 0 && d[end - 1] == '\n');
  if (at_line_start && looks_like_warc(d.substr(k))) return k - end;
  return kBadTrailer;
}

bool is_known_skipped_type(std::string_view t) {
  return t == "warcinfo" || t == "request" || t == "metadata" || t == "revisit" || t == "conversion" ||
         t == "continuation";
}

// `end`: the decoded position just past the record, for RecordSink's check of gzip members.
void handle_record(const WarcHeader& h, std::string_view block, RecordSink& sink, Document&& doc, std::uint64_t end,
                   bool own_check) {
  if (h.type == "response" || h.type == "resource") {
    if (h.target_uri.empty()) {
      sink.fail("warc.missing_uri", doc.offset);
      return;
    }
    doc.url.assign(h.target_uri);
    if (h.type == "resource") {
      parse_media_type(h.content_type, doc.content_type, doc.charset);
      if (block.size() > sink.options().max_record_bytes) {
        sink.fail("record_too_large", doc.offset);
        return;
      }
      doc.body.assign(block);
      sink.emit(std::move(doc), end, own_check);
      return;
    }
    std::string ctype, charset;
    parse_media_type(h.content_type, ctype, charset);
    if (ctype != "application/http" && !looks_like_http_response(block)) {
      sink.skip("warc.non_http");  // dns:, screenshots, and other non-HTTP captures
      return;
    }
    std::vector<std::string_view> notes;
    PayloadOutcome out = decode_http_response(block, sink.options().max_record_bytes, doc, &notes, h.truncated);
    if (!sink.accept(out, doc.offset)) return;
    for (std::string_view n : notes) sink.note(n);
    sink.emit(std::move(doc), end, own_check);
  } else if (h.type.empty()) {
    sink.fail("warc.bad_header", doc.offset);
  } else if (is_known_skipped_type(h.type)) {
    sink.skip("warc." + h.type);
  } else {
    sink.skip("warc.unknown_type");
  }
}

// A first segment held until its continuations come: its header and its document's place.
struct FirstSegment {
  WarcHeader header;
  Document doc;
};
using Joiner = SegmentJoiner<FirstSegment>;

// A record of a segmented chain (see warc_segments.hpp). A chain is used whole, as the record
// its first segment is; never a part of it.
void handle_segment(WarcHeader&& h, std::string_view block, RecordSink& sink, Document&& doc, std::uint64_t end,
                    Joiner& joiner) {
  if (h.type != "continuation") {
    if (h.type != "response" && h.type != "resource") {
      handle_record(h, block, sink, std::move(doc), end, false);  // skipped by its type anyway
    } else if (!joiner.start(h.segments, FirstSegment{h, std::move(doc)}, block)) {
      sink.skip("warc.segmented");
    }
    return;
  }
  FirstSegment first;
  std::string joined;
  const Joiner::Continued c = joiner.add(h.segments, block, first, joined);
  switch (c.step) {
    case Joiner::Step::Held:
      return;
    case Joiner::Step::Unknown:  // its first segment is in another input (or was not held)
      sink.skip("warc.segmented");
      return;
    case Joiner::Step::Broken:  // out of order, or a total length that is not the sum
      sink.fail("warc.segmented", doc.offset);
      for (std::uint64_t i = 1; i < c.segments; ++i) sink.skip("warc.segmented");
      return;
    case Joiner::Step::Complete:
      sink.note("warc.segments_joined");
      handle_record(first.header, joined, sink, std::move(first.doc), end, false);
      return;
  }
}

void read_record(ByteStream& in, RecordSink& sink, const std::string& source, HeaderScan& scan, Joiner& joiner) {
  const std::uint64_t rec_pos = in.position();
  const std::uint64_t rec_disk = in.disk_offset();
  sink.record();
  std::size_t hlen = find_header_end(in, scan);
  if (hlen == 0) {
    if (in.break_pending()) {
      report_break(in, sink);  // damage cut the record: it is lost under the break's reason
    } else if (in.available() >= kMaxHeaderBytes) {
      sink.fail("warc.bad_header", rec_disk);
      resync(in);
    } else {
      sink.fail("warc.truncated", rec_disk);
      in.consume(in.available());
    }
    return;
  }
  if (!clean_version_line(std::string_view(in.data(), hlen))) {
    sink.fail("warc.bad_header", rec_disk);
    resync(in);  // the next mark, wherever it is: CR-only lines and junk hold no '\n' before it
    return;
  }
  if (const std::size_t next = next_version_line(std::string_view(in.data(), hlen)); next > 0) {
    sink.fail("warc.bad_header", rec_disk);
    in.consume(next);
    return;
  }
  WarcHeader h = parse_header(std::string_view(in.data(), hlen));
  if (!h.length) {
    sink.fail("warc.bad_length", rec_disk);
    in.consume(hlen - 1);
    resync(in);
    return;
  }
  const std::uint64_t len = *h.length;
  if (len > sink.options().max_record_bytes) {
    skip_long_record(
        in, sink, rec_disk, hlen, len, hlen - 1, 64, "warc.bad_length",
        [](std::string_view after) { return trailer_length(after, 1) != kBadTrailer; }, [&] { resync(in); });
    return;
  }
  std::size_t total = hlen + static_cast<std::size_t>(len);
  if (in.fill(total + kTrailerPeek) < total) {
    lose_short_record(in, sink, rec_disk, hlen - 1, "warc.bad_length", "warc.truncated", [&] { resync(in); });
    return;
  }
  std::size_t tail = trailer_length(std::string_view(in.data(), in.available()), total);
  if (tail == kBadTrailer) {
    sink.fail("warc.bad_length", rec_disk);
    in.consume(hlen - 1);
    resync(in);
    return;
  }
  total += tail;
  // A record whose member has not passed its check yet (or failed it right at the record's end)
  // is kept only if its own digest vouches for it.
  const bool intact = record_intact(in, total);  // the last fill: views are taken after it
  const std::string_view block(in.data() + hlen, static_cast<std::size_t>(len));
  const bool own_check = (!intact || rec_pos + total > in.verified_through()) && block_digest_matches(h, block);
  if (!intact && !own_check) {
    report_break(in, sink);
    return;
  }
  Document doc;
  doc.source = source;
  doc.offset = rec_disk;
  doc.stream_offset = rec_pos;
  if (h.segments.segmented() || h.type == "continuation") {
    handle_segment(std::move(h), block, sink, std::move(doc), rec_pos + total, joiner);
  } else {
    handle_record(h, block, sink, std::move(doc), rec_pos + total, own_check);
  }
  in.consume(total);
}

}  // namespace

void read_warc(ByteStream& in, RecordSink& sink, const std::string& source) {
  HeaderScan scan;
  Joiner joiner(sink.options().max_record_bytes);
  while (next_record_start(in, sink)) {
    std::size_t avail = in.fill(6);
    if (looks_like_warc(std::string_view(in.data(), avail))) {
      read_record(in, sink, source, scan, joiner);
      continue;
    }
    if (avail < 6 && in.break_pending()) {
      report_break(in, sink);  // a fragment left by damage, counted under the damage
      continue;
    }
    sink.fail("garbage", in.disk_offset());
    resync(in);
  }
  for (std::uint64_t n = joiner.abandon(); n > 0; --n) sink.skip("warc.segmented");  // chains never completed
}

}  // namespace crd::io::detail
