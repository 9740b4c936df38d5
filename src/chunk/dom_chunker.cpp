// The dom chunker: gumbo parse, pre-order walk, text outside script/style/template/noscript.
#include "dom_chunker.hpp"

#include "boundary_finder.hpp"
#include "nesting_estimate.hpp"

namespace crd::chunk::detail {

namespace {

// Subtrees whose text a reader never sees (noscript: browsers run scripts, so its content is
// not shown, and gumbo keeps it as unparsed markup anyway).
bool is_hidden(GumboTag tag) noexcept {
  return tag == GUMBO_TAG_SCRIPT || tag == GUMBO_TAG_STYLE || tag == GUMBO_TAG_TEMPLATE ||
         tag == GUMBO_TAG_NOSCRIPT;
}

// The lowercase tag name gumbo saw for an element it does not know ("<my-tag a=b>" → "my-tag").
std::string unknown_tag_name(const GumboElement& element) {
  std::string name;
  const GumboStringPiece& raw = element.original_tag;
  for (std::size_t i = 1; i < raw.length; ++i) {  // [0] is '<'
    const char c = raw.data[i];
    if (c == ' ' || c == '\t' || c == '\n' || c == '\f' || c == '\r' || c == '/' || c == '>') break;
    name += ascii_lower(c);
  }
  return name;
}

}  // namespace

DomChunker::DomChunker(const ChunkerOptions& options) {
  const BoundaryFinder validate(options.tags);  // same name rules as the scan chunker
  for (const std::string& tag : options.tags) {
    std::string name;
    for (char c : tag) name += ascii_lower(c);
    const GumboTag t = gumbo_tag_enum(name.c_str());
    if (t == GUMBO_TAG_UNKNOWN) {
      custom_.push_back(std::move(name));
    } else {
      known_.push_back(t);
    }
  }
}

bool DomChunker::is_boundary(const GumboNode& node) const {
  const GumboElement& element = node.v.element;
  // Elements the parser made up (e.g. the empty <p> a stray </p> implies) had no tag in the
  // page, so they split nothing.
  if ((node.parse_flags & GUMBO_INSERTION_BY_PARSER) != 0) return false;
  if (element.tag != GUMBO_TAG_UNKNOWN) {
    for (GumboTag t : known_) {
      if (t == element.tag) return true;
    }
    return false;
  }
  if (custom_.empty() || element.original_tag.length == 0) return false;
  const std::string name = unknown_tag_name(element);
  for (const std::string& c : custom_) {
    if (c == name) return true;
  }
  return false;
}

void DomChunker::flush(const std::function<void(std::string_view)>& emit) {
  normalize_whitespace(text_, normalized_);
  text_.clear();
  if (!normalized_.empty()) emit(normalized_);
}

std::string_view DomChunker::chunk(std::string_view page, std::string_view charset,
                                   const std::function<void(std::string_view)>& emit) {
  const std::string_view utf8 = converter_.to_utf8(page, charset);
  // Estimated on the decoded text: in UTF-16 the tags are not ASCII bytes.
  if (nesting_exceeds(utf8, kMaxDomNesting)) return "dom.too_deep";
  GumboOptions options = kGumboDefaultOptions;
  options.max_errors = 0;  // parse errors are not used; recording them costs time and memory
  GumboOutput* output = gumbo_parse_with_options(&options, utf8.data(), utf8.size());
  if (output == nullptr) return "dom.parse_failed";
  text_.clear();
  // An explicit stack: real pages nest deeply enough to threaten the call stack.
  stack_.assign(1, output->document);
  while (!stack_.empty()) {
    const GumboNode* node = stack_.back();
    stack_.pop_back();
    switch (node->type) {
      case GUMBO_NODE_TEXT:
      case GUMBO_NODE_WHITESPACE:
      case GUMBO_NODE_CDATA:
        text_ += node->v.text.text;
        break;
      case GUMBO_NODE_ELEMENT:
      case GUMBO_NODE_TEMPLATE:
      case GUMBO_NODE_DOCUMENT: {
        const GumboVector* children = nullptr;
        if (node->type == GUMBO_NODE_DOCUMENT) {
          children = &node->v.document.children;
        } else {
          if (is_hidden(node->v.element.tag)) break;
          if (is_boundary(*node)) flush(emit);
          children = &node->v.element.children;
        }
        for (unsigned i = children->length; i-- > 0;) {
          stack_.push_back(static_cast<const GumboNode*>(children->data[i]));
        }
        break;
      }
      case GUMBO_NODE_COMMENT:
        break;
    }
  }
  flush(emit);
  gumbo_destroy_output(&options, output);
  return {};
}

}  // namespace crd::chunk::detail
