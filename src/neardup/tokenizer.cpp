// The seed 002 tokenizer: one pass over the markup into visible text, then terms out of the text.
#include "crd/neardup/tokenizer.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <optional>

#include "crd/neardup/fingerprint.hpp"
#include "crd/url/url_key.hpp"

namespace crd::neardup {
namespace {

bool is_alnum(char c) {
  const auto u = static_cast<unsigned char>(c);
  return (u >= '0' && u <= '9') || (u >= 'a' && u <= 'z') || (u >= 'A' && u <= 'Z') || u >= 0x80;
}
bool is_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'; }
char lower(char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; }

bool starts_with_nocase(std::string_view s, std::size_t at, std::string_view prefix) {
  if (s.size() - at < prefix.size()) return false;
  for (std::size_t i = 0; i < prefix.size(); ++i)
    if (lower(s[at + i]) != prefix[i]) return false;
  return true;
}

// Inline formatting: ignored rather than turned into whitespace (seed 002 §2).
bool is_formatting(std::string_view name) {
  static constexpr std::array<std::string_view, 24> kTags{"a",    "abbr", "b",   "bdi",  "bdo",   "big",
                                                          "cite", "code", "em",  "font", "i",     "kbd",
                                                          "mark", "q",    "s",   "samp", "small", "span",
                                                          "strike", "strong", "sub", "sup", "tt", "u"};
  return std::find(kTags.begin(), kTags.end(), name) != kTags.end();
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

// Terms of a stretch of visible text: URLs split at '/' and '.', everything else alphanumeric runs.
void text_terms(std::string_view text, const std::function<void(std::string_view)>& on_term) {
  std::size_t i = 0;
  const std::size_t n = text.size();
  while (i < n) {
    const bool at_word_start = i == 0 || !is_alnum(text[i - 1]);
    std::size_t scheme = 0;
    if (at_word_start) {
      if (starts_with_nocase(text, i, "http://")) scheme = 4;
      else if (starts_with_nocase(text, i, "https://")) scheme = 5;
    }
    if (scheme != 0 || (at_word_start && starts_with_nocase(text, i, "www.") && n - i > 4 && is_alnum(text[i + 4]))) {
      std::size_t end = i;
      while (end < n && !is_space(text[end]) && text[end] != '"' && text[end] != '\'' && text[end] != '<' &&
             text[end] != '>')
        ++end;
      while (end > i && std::string_view(".,;:!?)]}").find(text[end - 1]) != std::string_view::npos) --end;
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
      i = std::max(end, i + 1);
      continue;
    }
    if (is_alnum(text[i])) {
      std::size_t end = i;
      while (end < n && is_alnum(text[end])) ++end;
      on_term(text.substr(i, end - i));
      i = end;
      continue;
    }
    ++i;
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

// The tag's end: the first '>' from name0 outside quotes (html.size() when there is none).
std::size_t tag_end(std::string_view html, std::size_t name0) {
  std::size_t j = name0;
  char quote = 0;
  for (; j < html.size(); ++j) {
    if (quote != 0) {
      if (html[j] == quote) quote = 0;
    } else if (html[j] == '"' || html[j] == '\'') {
      if (j > name0 && html[j - 1] == '=') quote = html[j];
    } else if (html[j] == '>') {
      break;
    }
  }
  return j;
}

// A script or style element's body is markup: where its end tag ends, from i (just past its start tag).
std::size_t raw_text_end(std::string_view html, std::size_t i, const std::string& name) {
  const std::string end_tag = "</" + name;
  std::size_t k = i;
  while (k < html.size() && !starts_with_nocase(html, k, end_tag)) ++k;
  const std::size_t gt = html.find('>', k);
  return gt == std::string_view::npos ? html.size() : gt + 1;
}

}  // namespace

void for_each_term(std::string_view html, std::string_view page_host,
                   const std::function<void(std::string_view term)>& on_term) {
  std::string text;  // visible text since the last image term
  const auto flush = [&] {
    text_terms(text, on_term);
    text.clear();
  };
  std::size_t i = 0;
  const std::size_t n = html.size();
  while (i < n) {
    const char c = html[i];
    if (c == '&') {  // a character reference is markup: whitespace
      if (const std::size_t end = character_reference_end(html, i); end != 0) {
        text += ' ';
        i = end;
        continue;
      }
      text += c;
      ++i;
      continue;
    }
    if (c != '<' || i + 1 >= n) {
      text += c;
      ++i;
      continue;
    }
    if (html.compare(i, 4, "<!--") == 0) {
      const std::size_t end = html.find("-->", i + 4);
      i = end == std::string_view::npos ? n : end + 3;
      text += ' ';
      continue;
    }
    const char next = html[i + 1];
    const bool closing = next == '/';
    const std::size_t name0 = i + (closing ? 2 : 1);
    if (!(closing || next == '!' || next == '?' || (name0 < n && std::isalpha(static_cast<unsigned char>(html[name0]))))) {
      text += c;  // a lone '<' is text
      ++i;
      continue;
    }
    const std::size_t j = tag_end(html, name0);
    std::size_t name_end = name0;
    while (name_end < n && name_end < j && (is_alnum(html[name_end]) || html[name_end] == '-')) ++name_end;
    std::string name(html.substr(name0, name_end - name0));
    for (auto& ch : name) ch = lower(ch);
    const std::string_view attrs = html.substr(name_end, std::min(j, n) - name_end);
    i = j < n ? j + 1 : n;
    if (!closing && (name == "script" || name == "style")) {
      i = raw_text_end(html, i, name);
      text += ' ';
      continue;
    }
    if (is_formatting(name)) continue;
    text += ' ';
    if (!closing && name == "img") {
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

std::vector<std::string> terms(std::string_view html, std::string_view page_host) {
  std::vector<std::string> out;
  for_each_term(html, page_host, [&](std::string_view t) { out.emplace_back(t); });
  return out;
}

void tokenize(std::string_view html, std::string_view page_host, std::vector<std::uint64_t>& out) {
  out.clear();
  for_each_term(html, page_host, [&](std::string_view t) { out.push_back(term_token(t)); });
}

std::vector<std::uint64_t> tokenize(std::string_view html, std::string_view page_host) {
  std::vector<std::uint64_t> out;
  tokenize(html, page_host, out);
  return out;
}

}  // namespace crd::neardup
