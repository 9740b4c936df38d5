// The parameters of a quilt search (Najork 2012, §2 and §3.3), each defaulting to the paper's pivot
// point (k, m, c, θ) = (5, 50, 4, 0.5).
#pragma once

#include <array>
#include <cstdint>
#include <string_view>
#include <vector>

#include "crd/base/enum_names.hpp"

namespace crd::quilts {

// Where a source may lie (Najork 2012, §3.3, "foreign-sourced"): anywhere, on another registrable
// domain (the public suffix list's eTLD+1: "cam.ac.uk"), or on another host.
enum class Foreign { Off, Domain, Host };
constexpr std::array<EnumName<Foreign>, 3> enum_names(Foreign) {
  return {{{"off", Foreign::Off}, {"domain", Foreign::Domain}, {"host", Foreign::Host}}};
}

struct QuiltParams {
  std::uint32_t k = 5;            // words per gram
  std::uint32_t m = 50;           // a patch gram is in 2 … m documents (itself and fewer than m others)
  std::uint32_t c = 4;            // a quilt has at least c sources
  double theta = 0.5;             // … and a patch fraction of at least θ
  double min_source_share = 0.0;  // φ: every source covers at least φ·|patch grams| (Najork 2012, §5)
  Foreign foreign = Foreign::Off;
  std::uint64_t max_page_grams = 1000000;  // a page with more distinct grams is skipped (counted)
  // The sweep (Najork 2012, Table 1): every combination of these with the pivot's own value.
  std::vector<std::uint32_t> sweep_m, sweep_c;
  std::vector<double> sweep_theta;

  // The sorted, distinct values of each swept parameter, the pivot's included.
  std::vector<std::uint32_t> m_values() const;
  std::vector<std::uint32_t> c_values() const;
  std::vector<double> theta_values() const;
  // "" if the parameters fit together, else why not (names the option).
  std::string_view problem() const;
};

}  // namespace crd::quilts
