// Escaping untrusted text (samples and URLs from arbitrary web pages) for the HTML report:
// valid UTF-8 first, then HTML text/attribute escaping and JSON string encoding that is also safe
// inside a <script type="application/json"> element.
#pragma once

#include <string>
#include <string_view>

namespace crd::report {

// `text` with every invalid UTF-8 sequence (stray continuation bytes, truncated or overlong
// sequences, surrogates, code points above U+10FFFF) replaced by U+FFFD, one per maximal invalid
// subpart (as browsers decode). Valid input is returned unchanged.
std::string valid_utf8(std::string_view text);

// HTML text or attribute value: valid UTF-8, with & < > " ' as character references and C0
// controls other than tab and newline (and DEL) as U+FFFD, so nothing can open a tag, end an
// attribute or reach the parser as markup.
std::string html_escape(std::string_view text);

// Appends `text` as a JSON string literal (with quotes). Valid UTF-8 first; then ", \ and control
// characters are escaped as JSON requires, and < > & U+2028 U+2029 as \uXXXX too, so the literal
// can never close a <script> element, start a comment or markup, or end a JavaScript line.
void append_json_string(std::string& out, std::string_view text);

}  // namespace crd::report
