// Threshold parsing.
#include "crd/detect/threshold.hpp"

#include <cmath>
#include <sstream>

#include "crd/base/error.hpp"

namespace crd::detect {

Threshold Threshold::parse(const std::string& text, const std::string& option) {
  if (text == "auto") return {};
  std::size_t pos = 0;
  double v = 0;
  try {
    v = std::stod(text, &pos);
  } catch (const std::exception&) {
    pos = 0;
  }
  if (text.empty() || pos != text.size() || !std::isfinite(v) || v < 0)
    throw UsageError("option --" + option + ": expected 'auto' or a number ≥ 0, got '" + text + "'");
  return {false, v};
}

std::string Threshold::to_string() const {
  if (automatic) return "auto";
  std::ostringstream out;
  out << value;
  return out.str();
}

}  // namespace crd::detect
