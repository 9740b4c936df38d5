// Detection thresholds: a fixed value, or "auto" = mean + σ over all items (paper §4.1).
#pragma once

#include <string>

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

BadnessMode parse_badness(const std::string& text);
const char* to_string(BadnessMode mode);

}  // namespace crd::detect
