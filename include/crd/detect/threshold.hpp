// Detection thresholds: a fixed value, or "auto" = mean + σ over all items (paper §4.1).
#pragma once

#include <array>
#include <string>

#include "crd/base/enum_names.hpp"

namespace crd::detect {

struct Threshold {
  bool automatic = true;
  double value = 0;

  // "auto" or a number ≥ 0. Throws UsageError naming the option.
  static Threshold parse(const std::string& text, const std::string& option);
  double resolve(double mean, double sigma) const { return automatic ? mean + sigma : value; }
  std::string to_string() const;
};

enum class BadnessMode { Pages, Chunks };
constexpr std::array<EnumName<BadnessMode>, 2> enum_names(BadnessMode) { return {{{"pages", BadnessMode::Pages}, {"chunks", BadnessMode::Chunks}}}; }

}  // namespace crd::detect
