// Text from crawled pages, URLs and file names made safe to print on a terminal.
#pragma once

#include <string>
#include <string_view>

namespace crd {

// `text` with every byte that could drive a terminal, or that is not UTF-8, shown as a visible
// escape: C0 controls (tab and newline included), DEL, C1 controls (U+0080–U+009F, which
// terminals also obey) and bytes of invalid UTF-8 become \xNN, one per byte; a backslash becomes
// \\ so that an escape is never ambiguous. Characters that change how a line is shown without
// being seen (bidirectional controls such as U+202E, U+2028/U+2029 line and paragraph
// separators, zero-width characters, the BOM) become \uXXXX. Other valid UTF-8 passes unchanged. Every
// human-readable line that echoes a URL, a sample or a file name goes through this.
std::string printable(std::string_view text);

// Appends the printable form of the one character (or invalid byte) at text[at] to `out`;
// returns how many bytes of `text` it used (≥ 1). printable() is this in a loop; callers that cut
// text to a width use it to never split an escape or a character.
std::size_t append_printable(std::string_view text, std::size_t at, std::string& out);

}  // namespace crd
