// The WHATWG Encoding Standard's labels: what a charset name in a page or header means (internal).
#pragma once

#include <string_view>

namespace crd::chunk::detail {

// ASCII whitespace as HTML and the Encoding Standard define it: tab, LF, FF, CR, space.
inline bool is_html_space(char c) noexcept {
  return c == '\t' || c == '\n' || c == '\f' || c == '\r' || c == ' ';
}

// "Get an encoding": the encoding a label names, as its lowercase WHATWG name ("windows-1252"
// for "ISO-8859-1", "latin1" or " ascii "), or "" when the label names none. Leading and
// trailing ASCII whitespace is ignored and case does not matter. Two names are not conversions:
// "replacement" (labels such as iso-2022-kr, whose text browsers refuse to decode) and
// "x-user-defined".
std::string_view encoding_for_label(std::string_view label);

}  // namespace crd::chunk::detail
