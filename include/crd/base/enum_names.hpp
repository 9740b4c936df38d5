// An enum's spellings (command line, result attributes), listed once beside the enum as
// `constexpr std::array<EnumName<E>, N> enum_names(E)`, found by argument-dependent lookup.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace crd {

template <class E>
struct EnumName {
  const char* name;
  E value;
};

template <class E>
const char* name_of(E value) {
  for (const auto& n : enum_names(value))
    if (n.value == value) return n.name;
  return "?";
}

template <class E>
std::optional<E> parse_enum(std::string_view text) {
  for (const auto& n : enum_names(E{}))
    if (text == n.name) return n.value;
  return std::nullopt;
}

// "'a', 'b' or 'c'", for error messages.
template <class E>
std::string enum_choices() {
  std::string out;
  const auto names = enum_names(E{});
  for (std::size_t i = 0; i < names.size(); ++i)
    out += (i == 0 ? "'" : i + 1 < names.size() ? ", '" : " or '") + std::string(names[i].name) + "'";
  return out;
}

}  // namespace crd
