// Small text helpers for human-readable output.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace crd::cli {

// Line breaks and tabs become spaces, every other control character or invalid byte a visible
// escape (crd::printable); cut to `width` bytes, never inside a character or an escape, with "…".
std::string one_line(std::string_view text, std::size_t width);
// The first `digits` hex digits of a hash.
std::string hex_prefix(const std::vector<std::uint8_t>& bytes, std::size_t digits);

}  // namespace crd::cli
