// The sweep's value lists and the parameters' checks.
#include "crd/quilts/params.hpp"

#include <algorithm>

namespace crd::quilts {
namespace {

template <class T>
std::vector<T> with_pivot(std::vector<T> values, T pivot) {
  values.push_back(pivot);
  std::sort(values.begin(), values.end());
  values.erase(std::unique(values.begin(), values.end()), values.end());
  return values;
}

}  // namespace

std::vector<std::uint32_t> QuiltParams::m_values() const { return with_pivot(sweep_m, m); }
std::vector<std::uint32_t> QuiltParams::c_values() const { return with_pivot(sweep_c, c); }
std::vector<double> QuiltParams::theta_values() const { return with_pivot(sweep_theta, theta); }

std::string_view QuiltParams::problem() const {
  if (k == 0) return "--gram-words must be at least 1";
  for (const auto v : m_values())
    if (v < 2) return "--max-gram-documents (and every --sweep-m value) must be at least 2";
  for (const auto v : theta_values())
    if (!(v >= 0.0 && v <= 1.0)) return "--min-patch-fraction (and every --sweep-theta value) must be in 0..1";
  if (!(min_source_share >= 0.0 && min_source_share <= 1.0)) return "--min-source-share must be in 0..1";
  return {};
}

}  // namespace crd::quilts
