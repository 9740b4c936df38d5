// A page cut into blocks at block-level tags, each tokenized alone (see blocks.hpp).
#include "crd/neardup/blocks.hpp"

#include <algorithm>
#include <array>
#include <string>

#include "crd/neardup/normalize.hpp"
#include "crd/text/fingerprint.hpp"
#include "crd/text/tokenizer.hpp"

namespace crd::neardup {
namespace {

char lower(char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; }
bool name_byte(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-';
}

// HTML's block-level elements, and the line breaks and rules that end a line of text.
constexpr std::array<std::string_view, 40> kBlockTags = {
    "address", "article", "aside", "blockquote", "body",   "br",     "caption", "dd",    "details", "dialog",
    "div",     "dl",      "dt",    "fieldset",   "figure", "footer", "form",    "h1",    "h2",      "h3",
    "h4",      "h5",      "h6",    "head",       "header", "hr",     "html",    "li",    "main",    "nav",
    "ol",      "p",       "pre",   "section",    "table",  "td",     "th",      "title", "tr",      "ul"};

bool is_block_tag(std::string_view lowered) {
  return std::find(kBlockTags.begin(), kBlockTags.end(), lowered) != kBlockTags.end();
}

// One past the '>' that ends the tag whose name starts at `from` (quoted values may hold '>').
std::size_t tag_end(std::string_view html, std::size_t from) {
  char quote = 0;
  for (std::size_t i = from; i < html.size(); ++i) {
    const char c = html[i];
    if (quote != 0) {
      if (c == quote) quote = 0;
    } else if (c == '"' || c == '\'') {
      quote = c;
    } else if (c == '>') {
      return i + 1;
    }
  }
  return html.size();
}

// One past the end tag `</name` (any case) from `from`, or the page's end.
std::size_t raw_text_end(std::string_view html, std::size_t from, std::string_view name) {
  for (std::size_t i = html.find("</", from); i != std::string_view::npos; i = html.find("</", i + 2)) {
    std::size_t k = 0;
    while (k < name.size() && i + 2 + k < html.size() && lower(html[i + 2 + k]) == name[k]) ++k;
    if (k == name.size()) return tag_end(html, i + 2);
  }
  return html.size();
}

// The salt of a host's block keys.
std::uint64_t host_salt(std::string_view host) {
  return text::mix64(text::term_token(host) ^ 0xB10C'B10C'B10C'B10Cull);
}

}  // namespace

void for_each_block(std::string_view html, const std::function<void(std::string_view block)>& on_block) {
  const std::size_t n = html.size();
  std::size_t start = 0;  // the current block's first byte
  std::size_t i = 0;
  std::string name;
  while ((i = html.find('<', i)) != std::string_view::npos) {
    if (html.compare(i, 4, "<!--") == 0) {
      const std::size_t end = html.find("-->", i + 4);
      i = end == std::string_view::npos ? n : end + 3;
      continue;
    }
    const bool closing = i + 1 < n && html[i + 1] == '/';
    std::size_t j = i + (closing ? 2 : 1);
    name.clear();
    while (j < n && name_byte(html[j]) && name.size() < 16) name.push_back(lower(html[j++]));
    if (name.empty()) {
      ++i;
      continue;
    }
    const std::size_t end = tag_end(html, j);
    if (!closing && (name == "script" || name == "style")) {
      i = raw_text_end(html, end, name);
      continue;
    }
    if (is_block_tag(name)) {
      on_block(html.substr(start, i - start));
      start = end;
    }
    i = end;
  }
  on_block(html.substr(start));
}

void for_each_line(std::string_view text, const std::function<void(std::string_view line)>& on_block) {
  std::size_t start = 0;
  for (std::size_t nl = text.find('\n'); nl != std::string_view::npos; nl = text.find('\n', start)) {
    on_block(text.substr(start, nl - start));
    start = nl + 1;
  }
  on_block(text.substr(start));
}

void tokenize_blocks(std::string_view html, std::string_view page_host, bool normalize, BlockTokens& out,
                     bool plain_text) {
  out.tokens.clear();
  out.ends.clear();
  out.keys.clear();
  const std::uint64_t salt = host_salt(page_host);
  std::vector<std::uint64_t> block;
  const auto on_piece = [&](std::string_view piece) {
    if (normalize)
      tokenize_normalized(piece, page_host, block);
    else
      text::tokenize(piece, page_host, block);
    if (block.empty()) return;
    std::uint64_t key = salt;
    for (const std::uint64_t t : block) key = text::mix64(key ^ t);
    out.tokens.insert(out.tokens.end(), block.begin(), block.end());
    out.ends.push_back(static_cast<std::uint32_t>(out.tokens.size()));
    out.keys.push_back(key);
  };
  if (plain_text)
    for_each_line(html, on_piece);
  else
    for_each_block(html, on_piece);
}

std::vector<std::uint64_t> kept_tokens(const BlockTokens& page, const std::vector<std::uint64_t>& left_out) {
  std::vector<std::uint64_t> kept;
  std::uint32_t begin = 0;
  for (std::size_t b = 0; b < page.keys.size(); ++b) {
    if (!std::binary_search(left_out.begin(), left_out.end(), page.keys[b]))
      kept.insert(kept.end(), page.tokens.begin() + begin, page.tokens.begin() + page.ends[b]);
    begin = page.ends[b];
  }
  return kept;
}

}  // namespace crd::neardup
