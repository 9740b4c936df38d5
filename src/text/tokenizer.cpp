// The Henzinger 2006 tokenizer: one pass over the markup into visible text, then terms out of the text.
// Every page crd quilts and crd neardup read goes through it, so it is written for speed:
// byte classes come from one table, the visible text goes into one buffer of the page's size (it is
// never longer), and the term callback is a template parameter, so tokenize hashes each term as it
// is found. tests/text/test_tokenizer.cpp pins the tokens to those of the first, plainer version.
#include "crd/text/tokenizer.hpp"

#include <algorithm>
#include <array>
#include <cstring>
#include <memory>
#include <optional>

#include "crd/text/fingerprint.hpp"
#include "crd/url/url_key.hpp"

namespace crd::text {
namespace {

enum ByteClass : std::uint8_t {
  kAlnum = 1,    // term bytes: ASCII letters and digits, and bytes >= 0x80 (so UTF-8 words stay whole)
  kSpace = 2,    // whitespace
  kUrlStop = 4,  // ends a URL in text: whitespace, quotes, angle brackets
  kUrlTrim = 8,  // trailing punctuation that is not part of a URL
  kMarkup = 16,  // starts markup in a page: '<' and '&'
  kTagStop = 32, // what the scan for a tag's end stops at: '>' and quotes
  kTagName = 64, // tag name bytes: alphanumeric and '-'
};
constexpr std::array<std::uint8_t, 256> kClass = [] {
  std::array<std::uint8_t, 256> c{};
  for (int b = 0; b < 256; ++b)
    if ((b >= '0' && b <= '9') || (b >= 'a' && b <= 'z') || (b >= 'A' && b <= 'Z') || b >= 0x80) c[b] |= kAlnum;
  for (const char b : std::string_view(" \t\n\r\f\v")) c[static_cast<unsigned char>(b)] |= kSpace | kUrlStop;
  for (const char b : std::string_view("\"'<>")) c[static_cast<unsigned char>(b)] |= kUrlStop;
  for (const char b : std::string_view(".,;:!?)]}")) c[static_cast<unsigned char>(b)] |= kUrlTrim;
  for (const char b : std::string_view(">\"'")) c[static_cast<unsigned char>(b)] |= kTagStop;
  for (int b = 0; b < 256; ++b)
    if ((c[b] & kAlnum) != 0 || b == '-') c[b] |= kTagName;
  c['<'] |= kMarkup;
  c['&'] |= kMarkup;
  return c;
}();
bool is(char c, std::uint8_t cls) { return (kClass[static_cast<unsigned char>(c)] & cls) != 0; }
bool is_alnum(char c) { return is(c, kAlnum); }
bool is_space(char c) { return is(c, kSpace); }
constexpr bool is_letter(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }  // isalpha in the C locale
constexpr char lower(char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; }

bool starts_with_nocase(std::string_view s, std::size_t at, std::string_view prefix) {
  if (s.size() - at < prefix.size()) return false;
  for (std::size_t i = 0; i < prefix.size(); ++i)
    if (lower(s[at + i]) != prefix[i]) return false;
  return true;
}

// A tag name, lowercased, as one number: its bytes from the lowest up; 0 for names longer than 8
// bytes, which are none of the names looked for. Names are alphanumeric or '-', never NUL, so two
// names of up to 8 bytes never share a number.
constexpr std::uint64_t tag_key(std::string_view name) {
  if (name.size() > 8) return 0;
  std::uint64_t key = 0;
  for (std::size_t i = 0; i < name.size(); ++i) key |= std::uint64_t{static_cast<unsigned char>(lower(name[i]))} << (8 * i);
  return key;
}

// Inline formatting: ignored rather than turned into whitespace (Henzinger 2006, §2).
bool is_formatting(std::uint64_t tag) {
  switch (tag) {
    case tag_key("a"): case tag_key("abbr"): case tag_key("b"): case tag_key("bdi"): case tag_key("bdo"):
    case tag_key("big"): case tag_key("cite"): case tag_key("code"): case tag_key("em"): case tag_key("font"):
    case tag_key("i"): case tag_key("kbd"): case tag_key("mark"): case tag_key("q"): case tag_key("s"):
    case tag_key("samp"): case tag_key("small"): case tag_key("span"): case tag_key("strike"):
    case tag_key("strong"): case tag_key("sub"): case tag_key("sup"): case tag_key("tt"): case tag_key("u"):
      return true;
    default:
      return false;
  }
}

// The value of attribute `name` inside a tag's text (after its name), unquoted; nullopt if absent.
std::optional<std::string_view> attribute(std::string_view attrs, std::string_view name) {
  std::size_t i = 0;
  while (i < attrs.size()) {
    while (i < attrs.size() && (is_space(attrs[i]) || attrs[i] == '/')) ++i;
    const std::size_t n0 = i;
    while (i < attrs.size() && !is_space(attrs[i]) && attrs[i] != '=' && attrs[i] != '>' && attrs[i] != '/') ++i;
    std::string_view attr_name = attrs.substr(n0, i - n0);
    while (i < attrs.size() && is_space(attrs[i])) ++i;
    std::string_view value;
    if (i < attrs.size() && attrs[i] == '=') {
      ++i;
      while (i < attrs.size() && is_space(attrs[i])) ++i;
      if (i < attrs.size() && (attrs[i] == '"' || attrs[i] == '\'')) {
        const char q = attrs[i++];
        const std::size_t v0 = i;
        while (i < attrs.size() && attrs[i] != q) ++i;
        value = attrs.substr(v0, i - v0);
        if (i < attrs.size()) ++i;
      } else {
        const std::size_t v0 = i;
        while (i < attrs.size() && !is_space(attrs[i]) && attrs[i] != '>') ++i;
        value = attrs.substr(v0, i - v0);
      }
    }
    if (attr_name.size() == name.size() && starts_with_nocase(attr_name, 0, name)) return value;
    if (attr_name.empty() && i == n0) ++i;  // a stray character: step over it
  }
  return std::nullopt;
}

std::string_view trim(std::string_view s) {
  while (!s.empty() && is_space(s.front())) s.remove_prefix(1);
  while (!s.empty() && is_space(s.back())) s.remove_suffix(1);
  return s;
}

std::string_view host_of_key(std::string_view key) { return key.substr(0, key.find('/')); }

// The img rule: the whole URL for another host, else the file name ("" = no term).
std::string_view image_term(std::string_view src, std::string_view page_host) {
  src = trim(src);
  if (src.empty()) return {};
  const std::size_t colon = src.find(':');
  const std::size_t slash = src.find('/');
  const bool has_scheme = colon != std::string_view::npos && (slash == std::string_view::npos || colon < slash);
  const bool absolute = has_scheme || src.substr(0, 2) == "//";
  if (absolute) {
    // "//host/x" has no scheme; give url_key one so it finds the host.
    const auto key = url::url_key(src.substr(0, 2) == "//" ? "http:" + std::string(src) : std::string(src));
    if (!key || host_of_key(*key) != page_host) return src;
  }
  std::string_view path = src.substr(0, std::min(src.find('?'), src.find('#')));
  return path.substr(path.rfind('/') == std::string_view::npos ? 0 : path.rfind('/') + 1);
}

// A URL's terms if one starts at text[i] (a word start): split at '/' and '.', its scheme's "://"
// and trailing punctuation dropped. Returns where the text goes on, or 0 if no URL starts there.
template <class OnTerm>
std::size_t url_terms(std::string_view text, std::size_t i, OnTerm& on_term) {
  const std::size_t n = text.size();
  std::size_t scheme = 0;
  if (starts_with_nocase(text, i, "http://")) scheme = 4;
  else if (starts_with_nocase(text, i, "https://")) scheme = 5;
  else if (!(starts_with_nocase(text, i, "www.") && n - i > 4 && is_alnum(text[i + 4]))) return 0;
  std::size_t end = i;
  while (end < n && !is(text[end], kUrlStop)) ++end;
  while (end > i && is(text[end - 1], kUrlTrim)) --end;
  std::size_t at = i;
  if (scheme != 0) {
    on_term(text.substr(i, scheme));
    at = i + scheme + 3;
  }
  while (at < end) {
    std::size_t piece = at;
    while (piece < end && text[piece] != '/' && text[piece] != '.') ++piece;
    if (piece > at) on_term(text.substr(at, piece - at));
    at = piece + 1;
  }
  return std::max(end, i + 1);
}

// Terms of a stretch of visible text: URLs split at '/' and '.', everything else alphanumeric runs.
template <class OnTerm>
void text_terms(std::string_view text, OnTerm& on_term) {
  const std::size_t n = text.size();
  std::size_t i = 0;
  while (i < n) {
    if (!is_alnum(text[i])) {
      ++i;
      continue;
    }
    // Only 'h' and 'w' can start a URL ("http://", "https://", "www."), and only at a word start.
    const char first = static_cast<char>(text[i] | 0x20);
    if ((first == 'h' || first == 'w') && (i == 0 || !is_alnum(text[i - 1]))) {
      if (const std::size_t next = url_terms(text, i, on_term); next != 0) {
        i = next;
        continue;
      }
    }
    std::size_t end = i;
    std::uint64_t h = kFnvBasis;
    do h = fnv_step(h, text[end++]);
    while (end < n && is_alnum(text[end]));
    on_term.word(text.substr(i, end - i), h);
    i = end;
  }
}

// Where a character reference starting at html[i] == '&' ends (one past its ';'), or 0 when the
// '&' starts none.
std::size_t character_reference_end(std::string_view html, std::size_t i) {
  const std::size_t n = html.size();
  std::size_t j = i + 1;
  if (j < n && html[j] == '#') ++j;
  const std::size_t name = j;
  while (j < n && j - name < 32 && is_alnum(html[j])) ++j;
  return j > name && j < n && html[j] == ';' ? j + 1 : 0;
}

// The tag's end: the first '>' from name0 outside quotes (html.size() when there is none). A quote
// opens a value only right after '='; a value is skipped whole, so a '>' in it ends nothing.
std::size_t tag_end(std::string_view html, std::size_t name0) {
  const std::size_t n = html.size();
  std::size_t j = name0;
  while (true) {
    while (j < n && !is(html[j], kTagStop)) ++j;
    if (j == n || html[j] == '>') return j;
    if (j > name0 && html[j - 1] == '=') {
      const void* close = std::memchr(html.data() + j + 1, html[j], n - j - 1);
      if (close == nullptr) return n;
      j = static_cast<std::size_t>(static_cast<const char*>(close) - html.data());
    }
    ++j;
  }
}

// A script or style element's body is markup: where its end tag ("</script" or "</style", any
// case, even of a longer name) ends, from i (just past its start tag).
std::size_t raw_text_end(std::string_view html, std::size_t i, std::string_view end_tag) {
  std::size_t k = html.find('<', i);
  while (k != std::string_view::npos && !starts_with_nocase(html, k, end_tag)) k = html.find('<', k + 1);
  const std::size_t gt = k == std::string_view::npos ? k : html.find('>', k);
  return gt == std::string_view::npos ? html.size() : gt + 1;
}

// Where the next markup byte ('<' or '&') is, from a position in the page. Markup is often near
// (a byte loop finds it), text often long (memchr finds it; where it found the later one is kept for
// next time).
class MarkupFinder {
 public:
  explicit MarkupFinder(std::string_view html) : html_(html) {}
  std::size_t next(std::size_t i) {
    const std::size_t n = html_.size();
    std::size_t markup = i;
    const std::size_t near = std::min(n, i + 32);
    while (markup < near && !is(html_[markup], kMarkup)) ++markup;
    if (markup == near && near < n) {
      if (next_lt_ < near) next_lt_ = next_of('<', near);
      if (next_amp_ < near) next_amp_ = next_of('&', near);
      markup = std::min(next_lt_, next_amp_);
    }
    return markup;
  }

 private:
  std::size_t next_of(char c, std::size_t from) const {
    const void* at = std::memchr(html_.data() + from, c, html_.size() - from);
    return at == nullptr ? html_.size() : static_cast<std::size_t>(static_cast<const char*>(at) - html_.data());
  }

  std::string_view html_;
  std::size_t next_lt_ = 0;
  std::size_t next_amp_ = 0;
};

// The page's terms in order. The visible text is written into one buffer: markup becomes at most
// one space and every other byte stands for itself, so the text is never longer than the page.
// At an image term the text so far is flushed first; the image tag's space ends every term and URL
// before it, so flushing changes no term.
template <class OnTerm>
void page_terms(std::string_view html, std::string_view page_host, OnTerm& on_term) {
  const std::size_t n = html.size();
  const auto buffer = std::make_unique_for_overwrite<char[]>(n);
  char* const text = buffer.get();
  std::size_t written = 0;
  std::size_t flushed = 0;
  const auto flush = [&] {
    text_terms(std::string_view(text + flushed, written - flushed), on_term);
    flushed = written;
  };
  // Text up to the next '<' or '&' is copied as it is.
  MarkupFinder markup_finder(html);
  std::size_t i = 0;
  while (i < n) {
    const std::size_t markup = markup_finder.next(i);
    std::memcpy(text + written, html.data() + i, markup - i);
    written += markup - i;
    i = markup;
    if (i == n) break;
    if (html[i] == '&') {  // a character reference is markup: whitespace
      if (const std::size_t end = character_reference_end(html, i); end != 0) {
        text[written++] = ' ';
        i = end;
      } else {
        text[written++] = html[i++];
      }
      continue;
    }
    if (i + 1 >= n) {
      text[written++] = html[i++];
      continue;
    }
    if (html[i + 1] == '!' && i + 3 < n && html[i + 2] == '-' && html[i + 3] == '-') {  // "<!--"
      const std::size_t end = html.find("-->", i + 4);
      i = end == std::string_view::npos ? n : end + 3;
      text[written++] = ' ';
      continue;
    }
    const char next = html[i + 1];
    const bool closing = next == '/';
    const std::size_t name0 = i + (closing ? 2 : 1);
    if (!(closing || next == '!' || next == '?' || (name0 < n && is_letter(html[name0])))) {
      text[written++] = html[i++];  // a lone '<' is text
      continue;
    }
    const std::size_t j = tag_end(html, name0);
    std::size_t name_end = name0;
    while (name_end < j && is(html[name_end], kTagName)) ++name_end;
    const std::uint64_t tag = tag_key(html.substr(name0, name_end - name0));
    const std::string_view attrs = html.substr(name_end, j - name_end);
    i = j < n ? j + 1 : n;
    if (!closing && (tag == tag_key("script") || tag == tag_key("style"))) {
      i = raw_text_end(html, i, tag == tag_key("script") ? "</script" : "</style");
      text[written++] = ' ';
      continue;
    }
    if (is_formatting(tag)) continue;
    text[written++] = ' ';
    if (!closing && tag == tag_key("img")) {
      if (const auto src = attribute(attrs, "src")) {
        const std::string_view term = image_term(*src, page_host);
        if (!term.empty()) {
          flush();
          on_term(term);
        }
      }
    }
  }
  flush();
}

// What page_terms calls: sink(term) for every term but the alphanumeric runs of the text, which
// come as sink.word(term, h), h the FNV-1a state after the run's bytes, hashed as they are found.
template <class F>
struct TermSink {
  F& f;
  void operator()(std::string_view t) { f(t); }
  void word(std::string_view t, std::uint64_t /*h*/) { f(t); }
};
struct TokenSink {
  std::vector<std::uint64_t>& out;
  void operator()(std::string_view t) { out.push_back(term_token(t)); }
  void word(std::string_view /*t*/, std::uint64_t h) { out.push_back(mix64(h)); }
};

struct TermListSink {
  TermList& out;
  void operator()(std::string_view t) { add(t, term_token(t)); }
  void word(std::string_view t, std::uint64_t h) { add(t, mix64(h)); }
  void add(std::string_view t, std::uint64_t token) {
    out.text += t;
    out.ends.push_back(out.text.size());
    out.tokens.push_back(token);
  }
};

}  // namespace

void terms_and_tokens(std::string_view html, std::string_view page_host, TermList& out) {
  out.text.clear();
  out.ends.clear();
  out.tokens.clear();
  TermListSink sink{out};
  page_terms(html, page_host, sink);
}

void for_each_term(std::string_view html, std::string_view page_host,
                   const std::function<void(std::string_view term)>& on_term) {
  TermSink<const std::function<void(std::string_view term)>> sink{on_term};
  page_terms(html, page_host, sink);
}

std::vector<std::string> terms(std::string_view html, std::string_view page_host) {
  std::vector<std::string> out;
  const auto add = [&](std::string_view t) { out.emplace_back(t); };
  TermSink<decltype(add)> sink{add};
  page_terms(html, page_host, sink);
  return out;
}

void tokenize(std::string_view html, std::string_view page_host, std::vector<std::uint64_t>& out) {
  out.clear();
  TokenSink sink{out};
  page_terms(html, page_host, sink);
}

std::vector<std::uint64_t> tokenize(std::string_view html, std::string_view page_host) {
  std::vector<std::uint64_t> out;
  tokenize(html, page_host, out);
  return out;
}

}  // namespace crd::text
