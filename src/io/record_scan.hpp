// Helpers shared by the WARC and ARC readers for moving between records of a ByteStream.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <optional>
#include <string_view>
#include <utility>

#include "byte_stream.hpp"
#include "record_sink.hpp"

namespace crd::io::detail {

// Largest header block (WARC named fields, ARC header line) accepted before calling it garbage.
inline constexpr std::size_t kMaxHeaderBytes = 256u << 10;

// Takes the pending break and counts it: the record it cut (`cut_record`: the caller was reading
// one), and any held document from a member that failed, are lost under the break's reason.
inline void report_break(ByteStream& in, RecordSink& sink, bool cut_record = true) {
  sink.lose_to_break(in.take_break(), cut_record);
}

// Moves to where the next record should start: takes and counts breaks, drops blank lines
// between records. False when the stream is used up.
inline bool next_record_start(ByteStream& in, RecordSink& sink) {
  for (;;) {
    std::size_t avail = in.fill(1);
    if (avail == 0) {
      if (!in.break_pending()) return false;
      report_break(in, sink, /*cut_record=*/false);
      continue;
    }
    const char* d = in.data();
    std::size_t i = 0;
    while (i < avail && (d[i] == '\n' || d[i] == '\r')) ++i;
    in.consume(i);
    if (i < avail) return true;
  }
}

// After a whole record of `total` bytes is buffered: false when a break that damages the bytes
// before it (gzip CRC error, truncated trailer) sits right at its end, so it must not be used.
inline bool record_intact(ByteStream& in, std::size_t total) {
  return !(in.fill(total + 1) == total && in.break_pending() && in.pending_break().damages_preceding);
}

// Length of the first line (through '\n') among the buffered bytes, looking at most `limit`
// bytes ahead; 0 when there is none (end of data, a break, or a line longer than the limit).
// Never more than `limit`, whatever is buffered, so the outcome does not depend on buffer sizes.
inline std::size_t find_line(ByteStream& in, std::size_t limit) {
  std::size_t want = std::min<std::size_t>(4096, limit);
  std::size_t searched = 0;
  for (;;) {
    const std::size_t avail = std::min(in.fill(want), limit);
    const void* nl = std::memchr(in.data() + searched, '\n', avail - searched);
    if (nl != nullptr) return static_cast<std::size_t>(static_cast<const char*>(nl) - in.data()) + 1;
    searched = avail;
    if (avail < want || want >= limit) return 0;
    want = std::min(want * 2, limit);
  }
}

// A record declares more bytes than the stream holds before its end or the next break: the
// boundary check for a declared end past the end of the file. Neither a gzip stream's end nor (for
// a corrupted digit) the true length is known, so the bytes there are looked at instead, in raw
// files, per-record and one-member gzip alike (hostile input: a 9 prefixed to one length dropped every
// record after it). When another record header follows in them (`resync()`, called once
// `scan_from` bytes are consumed, leaves data() on it, or consumes everything), the length is
// wrong: this record alone is lost (`bad_length`) and reading goes on from that header. Otherwise
// the record was cut: by damage (counted under the break's reason) or by the end (`truncated`).
template <typename Resync>
void lose_short_record(ByteStream& in, RecordSink& sink, std::uint64_t rec_disk, std::size_t scan_from,
                       std::string_view bad_length, std::string_view truncated, Resync&& resync) {
  in.consume(scan_from);
  resync();
  if (in.available() > 0) {
    sink.fail(bad_length, rec_disk);
  } else if (in.break_pending()) {
    report_break(in, sink);
  } else {
    sink.fail(truncated, rec_disk);
  }
}

// A record declares more than --max-record-bytes (header of `header_len` bytes, then `len`). A true
// length is skipped without buffering the block; a false one (a corrupted digit) must cost this
// record only. So the declared end is checked first: `is_boundary` gets the block's last byte and
// up to `peek` bytes after it. Raw files read there directly. gzip decodes there, stopping at the
// member's end (a record never outlasts its member), and when the length proves wrong goes back
// (ByteStream::mark, rewind) to resynchronise after the header: a one-member file has no member
// end to stop the skip. A declared end past the end of the stream (once seen) is wrong without decoding.
// A wrong length is `bad_length` even at the end of the file: a length this large is no cut record.
template <typename Boundary, typename Resync>
void skip_long_record(ByteStream& in, RecordSink& sink, std::uint64_t rec_disk, std::size_t header_len,
                      std::uint64_t len, std::size_t scan_from, std::size_t peek, std::string_view bad_length,
                      Boundary&& is_boundary, Resync&& resync) {
  const std::uint64_t end = in.position() + header_len + len;
  if (!in.gzip()) {
    const std::string after = in.peek_at(end - 1, peek);
    if (!after.empty() && is_boundary(std::string_view(after))) {
      in.consume(header_len);
      in.discard(len);
      sink.fail("record_too_large", rec_disk);
      return;
    }
  } else if (end <= in.known_end()) {
    in.consume(scan_from);
    in.mark();
    in.consume(header_len - scan_from);
    if (in.discard_in_member(len - 1) == len - 1) {
      const std::size_t avail = std::min(in.fill(peek), peek);
      if (avail > 0 && is_boundary(std::string_view(in.data(), avail))) {
        in.forget_mark();
        in.consume(1);
        sink.fail("record_too_large", rec_disk);
        return;
      }
    }
    if (!in.rewind()) {  // past the bound on decoding twice: the bytes skipped are lost with it
      sink.fail(bad_length, rec_disk);
      return;
    }
    scan_from = 0;
  }
  lose_short_record(in, sink, rec_disk, scan_from, bad_length, bad_length, std::forward<Resync>(resync));
}

// A decimal record length: digits only (no sign, no spaces), at most 18 after any leading zeros,
// so it cannot overflow. Leading zeros are kept by some writers' fixed-width fields, and warcio
// reads them ("0000000000000000001234").
inline std::optional<std::uint64_t> parse_length(std::string_view v) {
  if (v.empty()) return std::nullopt;
  while (v.size() > 1 && v.front() == '0') v.remove_prefix(1);
  if (v.size() > 18) return std::nullopt;
  std::uint64_t n = 0;
  for (char c : v) {
    if (c < '0' || c > '9') return std::nullopt;
    n = n * 10 + static_cast<std::uint64_t>(c - '0');
  }
  return n;
}

inline std::string_view chomp(std::string_view line) {
  while (!line.empty() && (line.back() == '\n' || line.back() == '\r')) line.remove_suffix(1);
  return line;
}

}  // namespace crd::io::detail
