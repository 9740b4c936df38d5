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

enum class ChunkedResult { Ok, NotChunked, Bad, TooLarge };

// Undoes chunked transfer encoding. NotChunked: the first line is no chunk size at all (many
// recorders store the body de-chunked but keep the header); Bad: a chunk stream that breaks.
ChunkedResult decode_chunked(std::string_view in, std::uint64_t max_bytes, std::string& out) {
  out.clear();
  std::size_t pos = 0;
  for (bool first = true;; first = false) {
    const ChunkedResult bad = first ? ChunkedResult::NotChunked : ChunkedResult::Bad;
    std::string_view line;
    if (!next_line(in, pos, line)) return bad;
    line = trim(line.substr(0, line.find(';')));  // chunk extensions are ignored
    if (line.empty() || line.size() > 15) return bad;
    std::uint64_t size = 0;
    for (char c : line) {
      int v = hex_value(c);
      if (v < 0) return bad;
      size = size * 16 + static_cast<std::uint64_t>(v);
    }
    if (size == 0) return ChunkedResult::Ok;  // trailers after the last chunk carry nothing we keep
    if (size > in.size() - pos) return ChunkedResult::Bad;
    if (out.size() + size > max_bytes) return ChunkedResult::TooLarge;
    out.append(in.data() + pos, size);
    pos += size;
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
// (an empty outcome) with pos past the line.
PayloadOutcome read_status(std::string_view block, std::size_t& pos) {
  std::string_view status_line;
  if (!looks_like_http_response(block) || !next_line(block, pos, status_line)) return {"http.bad_response", true};
  // "HTTP/1.1 200 OK"; the reason phrase may be missing.
  std::size_t sp = status_line.find(' ');
  if (sp == std::string_view::npos) return {"http.bad_response", true};
  std::string_view code = trim(status_line.substr(sp + 1)).substr(0, 3);
  if (code.size() != 3 || !std::all_of(code.begin(), code.end(), [](char c) { return c >= '0' && c <= '9'; })) {
    return {"http.bad_response", true};
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

// A Content-Encoding's codings, lowercased, in the order applied ("identity" left out).
std::vector<std::string> content_codings(std::string_view content_encoding) {
  std::vector<std::string> codings;
  std::string ce = lowercase(content_encoding);
  for (std::size_t start = 0; start <= ce.size();) {
    std::size_t comma = std::min(ce.find(',', start), ce.size());
    std::string_view c = trim(std::string_view(ce).substr(start, comma - start));
    if (!c.empty() && c != "identity") codings.emplace_back(c);
    start = comma + 1;
  }
  return codings;
}

}  // namespace

PayloadOutcome decode_http_response(std::string_view block, std::uint64_t max_bytes, Document& doc,
                                    std::string_view* note) {
  std::size_t pos = 0;
  if (const PayloadOutcome status = read_status(block, pos); !status.ok()) return status;
  HttpHeaders h;
  if (!read_headers(block, pos, h)) return {"http.bad_response", true};

  std::string_view body = block.substr(pos);
  std::string decoded;
  bool too_large = false;
  if (lowercase(h.transfer_encoding).find("chunked") != std::string::npos) {
    switch (decode_chunked(body, max_bytes, decoded)) {
      case ChunkedResult::Ok:
        body = decoded;
        break;
      case ChunkedResult::NotChunked:
        if (note != nullptr) *note = "http.chunked_already_decoded";
        break;
      case ChunkedResult::Bad:
        return {"http.bad_chunked", true};
      case ChunkedResult::TooLarge:
        return {"record_too_large", true};
    }
  }
  // Codings are listed in the order applied: undo them last first.
  const std::vector<std::string> codings = content_codings(h.content_encoding);
  std::string inflated;
  for (auto it = codings.rbegin(); it != codings.rend(); ++it) {
    Compression kind;
    if (*it == "gzip" || *it == "x-gzip") {
      kind = Compression::Gzip;
    } else if (*it == "deflate") {
      kind = Compression::Deflate;
    } else {
      return {"http.unsupported_encoding", true};
    }
    if (!inflate_body(body, kind, max_bytes, inflated, too_large)) {
      return too_large ? PayloadOutcome{"record_too_large", true} : PayloadOutcome{"http.bad_encoding", true};
    }
    decoded.swap(inflated);
    body = decoded;
  }
  parse_media_type(h.content_type, doc.content_type, doc.charset);
  if (body.data() == decoded.data()) {
    doc.body = std::move(decoded);
  } else {
    doc.body.assign(body.data(), body.size());
  }
  return {};
}

}  // namespace crd::io::detail
