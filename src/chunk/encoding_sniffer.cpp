// The HTML standard's encoding sniffing (section 13.2.3.2) and its <meta> prescan, written by
// hand: no Debian library implements the WHATWG prescan (ICU's ucsdet guesses from byte
// statistics, which browsers do not do, and gumbo expects UTF-8 and ignores <meta>).
#include "encoding_sniffer.hpp"

#include <optional>
#include <string>
#include <vector>

#include "boundary_finder.hpp"
#include "encoding_labels.hpp"

namespace crd::chunk::detail {

namespace {

struct Attribute {
  std::string name;
  std::string value;
};

// A cursor over the prescanned bytes. Running off the end anywhere ends the prescan with no
// answer: a construct cut off by the 1024-byte bound is not read.
class Prescan {
 public:
  explicit Prescan(std::string_view head) : p_(head.data()), end_(head.data() + head.size()) {}

  std::string_view run();

 private:
  bool at_end() const { return p_ >= end_; }
  // Moves past the first '>' after the current byte; false at the end.
  bool skip_past(char c);
  // The standard's "get an attribute"; nullopt when the tag has no more (or the bytes end:
  // then ended_ is set).
  std::optional<Attribute> get_attribute();
  // At "<meta" + space or '/': reads its attributes; the encoding it declares, or "".
  std::string_view meta();

  const char* p_;
  const char* end_;
  bool ended_ = false;
};

bool is_space_or_slash(char c) { return is_html_space(c) || c == '/'; }
bool is_ascii_alpha(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }

// "Extracting a character encoding from a meta element" (a content attribute's value, already
// lowercased by the prescan).
std::string_view encoding_from_content(std::string_view s) {
  std::size_t pos = 0;
  while (true) {
    const std::size_t at = s.find("charset", pos);
    if (at == std::string_view::npos) return {};
    std::size_t i = at + 7;
    while (i < s.size() && is_html_space(s[i])) ++i;
    if (i >= s.size() || s[i] != '=') {
      pos = i;  // look again from the byte that is not '='
      continue;
    }
    ++i;
    while (i < s.size() && is_html_space(s[i])) ++i;
    if (i >= s.size()) return {};
    if (s[i] == '"' || s[i] == '\'') {
      const std::size_t close = s.find(s[i], i + 1);
      if (close == std::string_view::npos) return {};
      return encoding_for_label(s.substr(i + 1, close - i - 1));
    }
    std::size_t j = i;
    while (j < s.size() && !is_html_space(s[j]) && s[j] != ';') ++j;
    return encoding_for_label(s.substr(i, j - i));
  }
}

bool Prescan::skip_past(char c) {
  while (!at_end() && *p_ != c) ++p_;
  if (at_end()) return false;
  ++p_;
  return true;
}

std::optional<Attribute> Prescan::get_attribute() {
  while (!at_end() && is_space_or_slash(*p_)) ++p_;
  if (at_end()) {
    ended_ = true;
    return std::nullopt;
  }
  if (*p_ == '>') return std::nullopt;
  Attribute a;
  // The name, up to '=', whitespace, '/' or '>' (a leading '=' is part of it).
  while (true) {
    if (at_end()) {
      ended_ = true;
      return std::nullopt;
    }
    const char c = *p_;
    if (c == '=' && !a.name.empty()) break;
    if (is_html_space(c)) {
      while (!at_end() && is_html_space(*p_)) ++p_;
      if (at_end()) {
        ended_ = true;
        return std::nullopt;
      }
      if (*p_ != '=') return a;  // a name with no value
      break;
    }
    if (c == '/' || c == '>') return a;
    a.name += ascii_lower(c);
    ++p_;
  }
  ++p_;  // the '='
  while (!at_end() && is_html_space(*p_)) ++p_;
  if (at_end()) {
    ended_ = true;
    return std::nullopt;
  }
  if (*p_ == '"' || *p_ == '\'') {
    const char quote = *p_++;
    while (!at_end() && *p_ != quote) a.value += ascii_lower(*p_++);
    if (at_end()) {
      ended_ = true;
      return std::nullopt;
    }
    ++p_;
    return a;
  }
  if (*p_ == '>') return a;
  while (!at_end() && !is_html_space(*p_) && *p_ != '>') a.value += ascii_lower(*p_++);
  if (at_end()) {
    ended_ = true;
    return std::nullopt;
  }
  return a;
}

std::string_view Prescan::meta() {
  // Only the first of attributes with the same name counts.
  std::vector<std::string> seen;
  bool got_pragma = false;
  enum class NeedPragma { Unset, Yes, No } need_pragma = NeedPragma::Unset;
  std::optional<std::string_view> charset;  // "" = a label that names no encoding
  while (std::optional<Attribute> a = get_attribute()) {
    bool repeated = false;
    for (const std::string& name : seen) repeated = repeated || name == a->name;
    if (repeated) continue;
    seen.push_back(a->name);
    if (a->name == "http-equiv") {
      if (a->value == "content-type") got_pragma = true;
    } else if (a->name == "content") {
      const std::string_view from_content = encoding_from_content(a->value);
      if (!from_content.empty() && !charset) {
        charset = from_content;
        need_pragma = NeedPragma::Yes;
      }
    } else if (a->name == "charset") {
      charset = encoding_for_label(a->value);
      need_pragma = NeedPragma::No;
    }
  }
  if (ended_ || need_pragma == NeedPragma::Unset || !charset || charset->empty()) return {};
  if (need_pragma == NeedPragma::Yes && !got_pragma) return {};
  if (*charset == "utf-16le" || *charset == "utf-16be") return "utf-8";  // the meta was read as ASCII
  if (*charset == "x-user-defined") return "windows-1252";
  return *charset;
}

std::string_view Prescan::run() {
  while (!at_end()) {
    const std::string_view rest(p_, static_cast<std::size_t>(end_ - p_));
    if (rest.starts_with("<!--")) {
      // To the first "-->" whose dashes may be the opening's own ("<!-->" is a whole comment).
      const std::size_t close = rest.find("-->", 2);
      if (close == std::string_view::npos) return {};
      p_ += close + 3;
      continue;
    }
    if (name_prefix_at(p_, end_, "<meta") && rest.size() > 5 && is_space_or_slash(rest[5])) {
      p_ += 5;
      const std::string_view found = meta();
      if (ended_) return {};
      if (!found.empty()) return found;
      ++p_;  // past the '>' that ended the tag
      continue;
    }
    if (rest.size() >= 2 && rest[0] == '<' &&
        (is_ascii_alpha(rest[1]) || (rest[1] == '/' && rest.size() >= 3 && is_ascii_alpha(rest[2])))) {
      // Another tag: its attributes are read (and ignored) so that a '>' or "<meta" inside a
      // quoted value does not count.
      while (!at_end() && !is_html_space(*p_) && *p_ != '>') ++p_;
      while (get_attribute()) {
      }
      if (ended_) return {};
      ++p_;
      continue;
    }
    if (rest.starts_with("<!") || rest.starts_with("</") || rest.starts_with("<?")) {
      ++p_;
      if (!skip_past('>')) return {};
      continue;
    }
    ++p_;
  }
  return {};
}

}  // namespace

std::string_view prescan_meta_encoding(std::string_view head) { return Prescan(head).run(); }

SniffedEncoding sniff_encoding(std::string_view page, std::string_view http_charset) {
  if (page.starts_with("\xEF\xBB\xBF")) return {"utf-8", 3};
  if (page.starts_with("\xFF\xFE")) return {"utf-16le", 2};
  if (page.starts_with("\xFE\xFF")) return {"utf-16be", 2};
  if (const std::string_view declared = encoding_for_label(http_charset); !declared.empty()) return {declared, 0};
  if (const std::string_view meta = prescan_meta_encoding(page.substr(0, kPrescanBytes)); !meta.empty()) {
    return {meta, 0};
  }
  return {"utf-8", 0};
}

}  // namespace crd::chunk::detail
