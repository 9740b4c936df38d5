// Term normalization for crd neardup --normalize-text (see normalize.hpp).
#include "crd/neardup/normalize.hpp"

#include "crd/text/fingerprint.hpp"
#include "crd/text/tokenizer.hpp"

namespace crd::neardup {

void normalize_term(std::string_view term, std::string& out) {
  out.clear();
  bool in_digits = false;
  for (const char c : term) {
    const auto b = static_cast<unsigned char>(c);
    if (b >= '0' && b <= '9') {
      if (!in_digits) out.push_back('0');  // a run of digits is one 0, as datatrove's \d+ → 0
      in_digits = true;
      continue;
    }
    in_digits = false;
    if (b >= 'A' && b <= 'Z')
      out.push_back(static_cast<char>(b - 'A' + 'a'));
    else if ((b >= 'a' && b <= 'z') || b >= 0x80)
      out.push_back(c);
    // Anything else is ASCII punctuation, whitespace or control: dropped.
  }
}

std::string normalize_term(std::string_view term) {
  std::string out;
  normalize_term(term, out);
  return out;
}

void tokenize_normalized(std::string_view html, std::string_view page_host, std::vector<std::uint64_t>& out) {
  out.clear();
  std::string scratch;
  text::for_each_term(html, page_host, [&](std::string_view term) {
    normalize_term(term, scratch);
    if (!scratch.empty()) out.push_back(text::term_token(scratch));
  });
}

std::vector<std::uint64_t> tokenize_normalized(std::string_view html, std::string_view page_host) {
  std::vector<std::uint64_t> out;
  tokenize_normalized(html, page_host, out);
  return out;
}

}  // namespace crd::neardup
