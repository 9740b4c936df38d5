// HTTP payload decoding: status, headers, chunked transfer coding, content codings.
#include "http_payload.hpp"

#include <algorithm>
#include <cstdint>
#include <vector>

#include "ascii.hpp"
#include "inflater.hpp"

namespace crd::io::detail {
namespace {

// One line without its terminator; advances pos past "\n". False when no '\n' remains.
bool next_line(std::string_view text, std::size_t& pos, std::string_view& line) {
  if (pos >= text.size()) return false;
  std::size_t nl = text.find('\n', pos);
  if (nl == std::string_view::npos) return false;
  line = text.substr(pos, nl - pos);
  while (!line.empty() && line.back() == '\r') line.remove_suffix(1);  // "\r\r\n" in damaged files
  pos = nl + 1;
  return true;
}

int hex_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  c = ascii_lower(c);
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  return -1;
}

struct HttpHeaders {
  std::string_view content_type;
  std::string_view transfer_encoding;
  std::string_view content_encoding;
};

}  // namespace

void parse_media_type(std::string_view value, std::string& type, std::string& charset) {
  std::size_t semi = value.find(';');
  type = lowercase(trim(value.substr(0, semi)));
  charset.clear();
  while (semi != std::string_view::npos) {
    std::size_t start = semi + 1;
    semi = value.find(';', start);
    std::string_view param = trim(value.substr(start, semi == std::string_view::npos ? semi : semi - start));
    std::size_t eq = param.find('=');
    if (eq == std::string_view::npos || !iequals(trim(param.substr(0, eq)), "charset")) continue;
    std::string_view v = trim(param.substr(eq + 1));
    if (v.size() >= 2 && (v.front() == '"' || v.front() == '\'') && v.back() == v.front()) {
      v = v.substr(1, v.size() - 2);
    }
    charset = lowercase(trim(v));
  }
}

bool looks_like_http_response(std::string_view block) { return block.substr(0, 5) == "HTTP/"; }

namespace {

enum class ChunkedResult { Ok, NotChunked, Bad, Cut, TooLarge };

// Undoes chunked transfer encoding. NotChunked: the first line is no chunk size at all (many
// recorders store the body de-chunked but keep the header); Bad: a chunk stream that breaks; Cut:
// one that stops short (a chunk runs past the end, or the end comes before the last chunk), with
// what was received in `out` (a recorder that hit its size limit writes WARC-Truncated).
ChunkedResult decode_chunked(std::string_view in, std::uint64_t max_bytes, std::string& out) {
  out.clear();
  std::size_t pos = 0;
  for (bool first = true;; first = false) {
    const ChunkedResult bad = first ? ChunkedResult::NotChunked : ChunkedResult::Bad;
    std::string_view line;
    if (!next_line(in, pos, line)) return first ? bad : ChunkedResult::Cut;
    line = trim(line.substr(0, line.find(';')));  // chunk extensions are ignored
    if (line.empty() || line.size() > 15) return bad;
    std::uint64_t size = 0;
    for (char c : line) {
      int v = hex_value(c);
      if (v < 0) return bad;
      size = size * 16 + static_cast<std::uint64_t>(v);
    }
    if (size == 0) return ChunkedResult::Ok;  // trailers after the last chunk carry nothing we keep
    const bool cut = size > in.size() - pos;
    if (cut) size = in.size() - pos;
    if (out.size() + size > max_bytes) return ChunkedResult::TooLarge;
    out.append(in.data() + pos, size);
    pos += size;
    if (cut || pos == in.size()) return ChunkedResult::Cut;
    if (in.substr(pos, 2) == "\r\n") {
      pos += 2;
    } else if (in.substr(pos, 1) == "\n") {
      pos += 1;
    } else {
      return ChunkedResult::Bad;
    }
  }
}

enum class Compression { Gzip, Deflate };

// Inflates a gzip (one or more members), zlib or raw deflate body; false if it does not inflate.
bool inflate_body(std::string_view in, Compression kind, std::uint64_t max_bytes, std::string& out, bool& too_large) {
  out.clear();
  too_large = false;
  // deflate is meant to be zlib-wrapped, but servers often send it raw.
  const Inflater::Wrapper attempts[2] = {kind == Compression::Gzip ? Inflater::Wrapper::Gzip : Inflater::Wrapper::Zlib,
                                         Inflater::Wrapper::Raw};
  const int n_attempts = kind == Compression::Gzip ? 1 : 2;
  for (int a = 0; a < n_attempts; ++a) {
    out.clear();
    Inflater inflater(attempts[a]);
    const auto* next = reinterpret_cast<const unsigned char*>(in.data());
    std::size_t left = in.size();
    bool ok = false;
    const std::size_t limit = max_bytes >= SIZE_MAX ? SIZE_MAX : static_cast<std::size_t>(max_bytes) + 1;
    std::size_t cap = std::min(std::max<std::size_t>(in.size() * 4, 16384), limit);
    std::size_t used = 0;
    out.resize(cap);
    for (;;) {
      if (used == cap) {
        if (cap >= limit) {
          too_large = true;
          break;
        }
        cap = cap > limit / 2 ? limit : cap * 2;
        out.resize(cap);
      }
      const Inflater::Step step = inflater.step(next, left, out.data() + used, cap - used);
      used += step.produced;
      next += step.used;
      left -= step.used;
      if (step.status == Inflater::Status::End) {
        // Another gzip member may follow; anything else after the end is ignored.
        if (kind == Compression::Gzip && left >= 2 && next[0] == 0x1f && next[1] == 0x8b) {
          if (inflater.zlib()) {
            inflater.redo_with_zlib(0);  // a body redone by zlib stays with zlib
          } else {
            inflater.reset();
          }
          continue;
        }
        ok = true;
        break;
      }
      if (step.status != Inflater::Status::More) {
        if (inflater.zlib()) break;  // damaged data
        inflater.redo_with_zlib(0);  // ISA-L refused: zlib's word decides, as before ISA-L
        next = reinterpret_cast<const unsigned char*>(in.data());
        left = in.size();
        used = 0;
        continue;
      }
      if (used == cap) continue;                        // output full: grow it
      if (step.used == 0 && step.produced == 0) break;  // no progress: the input ended before the stream
    }
    out.resize(used);
    if (out.size() > max_bytes) too_large = true;
    if (ok && !too_large) return true;
    if (too_large) return false;
  }
  return false;
}

// Reads the status line: a bad response or a non-2xx status is the outcome; a 2xx one returns ok
// (an empty outcome) with pos past the line. A 1xx one sets `interim`: its headers and another
// response follow. The code is exactly three digits (RFC 9112, section 4), so "2000" is no 200.
PayloadOutcome read_status(std::string_view block, std::size_t& pos, bool& interim) {
  interim = false;
  std::string_view status_line;
  if (!looks_like_http_response(block.substr(pos)) || !next_line(block, pos, status_line)) {
    return {"http.bad_response", true};
  }
  // "HTTP/1.1 200 OK"; the reason phrase may be missing.
  std::size_t sp = status_line.find(' ');
  if (sp == std::string_view::npos) return {"http.bad_response", true};
  std::string_view rest = trim(status_line.substr(sp + 1));
  std::string_view code = rest.substr(0, 3);
  if (code.size() != 3 || !std::all_of(code.begin(), code.end(), [](char c) { return c >= '0' && c <= '9'; }) ||
      (rest.size() > 3 && rest[3] != ' ' && rest[3] != '\t')) {
    return {"http.bad_response", true};
  }
  if (code[0] == '1') {
    interim = true;
    return {};
  }
  if (code[0] != '2') return {"http.non_2xx", false};  // whatever its headers look like
  return {};
}

// Reads the header lines up to the empty one (pos then at the body); false when it never comes.
bool read_headers(std::string_view block, std::size_t& pos, HttpHeaders& h) {
  std::string_view line;
  while (next_line(block, pos, line)) {
    if (line.empty()) return true;
    std::size_t colon = line.find(':');
    if (colon == std::string_view::npos) continue;  // tolerate junk header lines
    std::string_view name = trim(line.substr(0, colon));
    std::string_view value = trim(line.substr(colon + 1));
    if (iequals(name, "content-type")) {
      h.content_type = value;
    } else if (iequals(name, "transfer-encoding")) {
      h.transfer_encoding = value;
    } else if (iequals(name, "content-encoding")) {
      h.content_encoding = value;
    }
  }
  return false;
}

// A coding list's codings (Content-Encoding, Transfer-Encoding), lowercased, in the order applied
// ("identity" left out).
std::vector<std::string> coding_list(std::string_view header) {
  std::vector<std::string> codings;
  std::string ce = lowercase(header);
  for (std::size_t start = 0; start <= ce.size();) {
    std::size_t comma = std::min(ce.find(',', start), ce.size());
    std::string_view c = trim(std::string_view(ce).substr(start, comma - start));
    if (!c.empty() && c != "identity") codings.emplace_back(c);
    start = comma + 1;
  }
  return codings;
}

// Compressions crd cannot undo: a body under one of them is no text. Any other name that is no
// compression crd knows ("none", "UTF-8", a charset written in the wrong header) compresses
// nothing, and the body is read as it is (counted), as warcio does.
bool is_unsupported_compression(std::string_view c) {
  constexpr std::string_view kKnown[] = {"br",   "compress", "x-compress", "zstd", "bzip2",        "x-bzip2",
                                         "lzma", "xz",       "x-xz",       "sdch", "pack200-gzip", "exi"};
  return std::find(std::begin(kKnown), std::end(kKnown), c) != std::end(kKnown);
}

// What undoing one coding needs and gives: the body decoded so far (`body`, a view into the block
// or into `decoded`), the record's WARC-Truncated flag, and the notes to count.
struct Undo {
  std::uint64_t max_bytes;
  bool truncated;
  std::vector<std::string_view>* notes;
  std::string_view body;
  std::string decoded;
  std::string scratch;

  void note(std::string_view name) {
    if (notes != nullptr) notes->push_back(name);
  }
  void take_scratch() {
    decoded.swap(scratch);
    body = decoded;
  }

  PayloadOutcome chunked() {
    switch (decode_chunked(body, max_bytes, scratch)) {
      case ChunkedResult::Ok:
        take_scratch();
        return {};
      case ChunkedResult::NotChunked:
        note("http.chunked_already_decoded");
        return {};
      case ChunkedResult::Cut:
        if (!truncated) return {"http.bad_chunked", true};
        note("http.truncated_body_kept");  // WARC-Truncated: keep what the recorder received
        take_scratch();
        return {};
      case ChunkedResult::Bad:
        return {"http.bad_chunked", true};
      case ChunkedResult::TooLarge:
        return {"record_too_large", true};
    }
    return {"http.bad_chunked", true};
  }

  PayloadOutcome coding(std::string_view c) {
    if (c == "chunked") return chunked();
    Compression kind;
    if (c == "gzip" || c == "x-gzip") {
      // A body the recorder stored already decoded but with its header: no gzip magic.
      if (body.size() < 2 || static_cast<unsigned char>(body[0]) != 0x1f ||
          static_cast<unsigned char>(body[1]) != 0x8b) {
        note("http.encoding_already_decoded");
        return {};
      }
      kind = Compression::Gzip;
    } else if (c == "deflate") {
      kind = Compression::Deflate;
    } else if (is_unsupported_compression(c)) {
      return {"http.unsupported_encoding", true};
    } else {
      note("http.unknown_encoding_as_identity");
      return {};
    }
    bool too_large = false;
    if (!inflate_body(body, kind, max_bytes, scratch, too_large)) {
      return too_large ? PayloadOutcome{"record_too_large", true} : PayloadOutcome{"http.bad_encoding", true};
    }
    take_scratch();
    return {};
  }

  // Codings are listed in the order applied: undo them last first.
  PayloadOutcome all(const std::vector<std::string>& codings) {
    for (auto it = codings.rbegin(); it != codings.rend(); ++it) {
      if (PayloadOutcome out = coding(*it); !out.ok()) return out;
    }
    return {};
  }
};

// Most interim (1xx) responses one record may hold before its final one.
constexpr int kMaxInterimResponses = 8;

}  // namespace

PayloadOutcome decode_http_response(std::string_view block, std::uint64_t max_bytes, Document& doc,
                                    std::vector<std::string_view>* notes, bool truncated) {
  std::size_t pos = 0;
  HttpHeaders h;
  // "100 Continue" (or another 1xx) and its headers may come before the final response.
  for (int interim_seen = 0;; ++interim_seen) {
    bool interim = false;
    if (const PayloadOutcome status = read_status(block, pos, interim); !status.ok()) return status;
    h = HttpHeaders{};
    if (!read_headers(block, pos, h)) return {"http.bad_response", true};
    if (!interim) break;
    if (interim_seen == kMaxInterimResponses) return {"http.bad_response", true};
    if (!looks_like_http_response(block.substr(pos))) return {"http.non_2xx", false};  // no final response
    if (notes != nullptr) notes->push_back("http.interim_response");
  }

  // Transfer codings first (the outer layer), then content codings; each list last first.
  Undo undo{max_bytes, truncated, notes, block.substr(pos), {}, {}};
  if (PayloadOutcome out = undo.all(coding_list(h.transfer_encoding)); !out.ok()) return out;
  if (PayloadOutcome out = undo.all(coding_list(h.content_encoding)); !out.ok()) return out;
  parse_media_type(h.content_type, doc.content_type, doc.charset);
  if (undo.body.data() == undo.decoded.data()) {
    doc.body = std::move(undo.decoded);
  } else {
    doc.body.assign(undo.body.data(), undo.body.size());
  }
  return {};
}

}  // namespace crd::io::detail
