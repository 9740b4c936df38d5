// The rows crd neardup writes (/neardup/pairs, /neardup/identical), declared by their field lists
// so their wire encoding, columns and order come from one place.
#pragma once

#include <cstdint>
#include <string>
#include <tuple>

#include "crd/base/fields.hpp"

namespace crd::neardup {

// /neardup/pairs: one near-duplicate pair of representatives, page_a < page_b (bytewise).
struct PairRow {
  std::string page_a;
  std::string page_b;
  std::uint32_t b_sim = 0;
  std::uint32_t c_sim = 0;
  std::uint8_t same_site = 0;
  static constexpr auto fields() {
    return std::tuple(field("page_a", &PairRow::page_a), field("page_b", &PairRow::page_b),
                      field("b_sim", &PairRow::b_sim), field("c_sim", &PairRow::c_sim),
                      field("same_site", &PairRow::same_site));
  }
};

// /neardup/identical: a page whose token sequence equals its representative's.
struct IdentityRow {
  std::string page;
  std::string representative;
  static constexpr auto fields() {
    return std::tuple(field("page", &IdentityRow::page), field("representative", &IdentityRow::representative));
  }
};

}  // namespace crd::neardup
