// Threshold parsing, and the resolution of a threshold rule over a population.
#include "crd/detect/threshold.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>

#include "crd/base/error.hpp"

namespace crd::detect {

namespace {

// A finite decimal number ≥ 0 spelling all of `text`, or NaN. Decimal only: std::stod also reads
// hexadecimal ("0x10" is 16), "inf" and "nan", which no one means as a threshold.
double parse_number(const std::string& text) {
  if (text.find_first_not_of("0123456789.eE+-") != std::string::npos) return NAN;
  std::size_t pos = 0;
  double v = 0;
  try {
    v = std::stod(text, &pos);
  } catch (const std::exception&) {
    return NAN;
  }
  if (text.empty() || pos != text.size() || !std::isfinite(v) || v < 0) return NAN;
  return v;
}

// "binomial", "binomial:R" or "binomial:R:ALPHA".
Threshold parse_binomial(const std::string& text, const std::string& option) {
  Threshold t{false, Threshold::kDefaultChanceRate, false, true, Threshold::kDefaultChanceAlpha};
  if (text == "binomial:fit" || text.rfind("binomial:fit:", 0) == 0) {
    t.fitted = true;
    if (text.size() > 12) t.alpha = parse_number(text.substr(13));
    if (!(t.alpha > 0 && t.alpha < 0.5))
      throw UsageError("option --" + option + ": expected binomial:fit[:ALPHA] with 0 < ALPHA < 0.5, got '" + text +
                       "'");
    return t;
  }
  if (text.size() > 8) {
    const std::string rest = text.substr(9);
    const std::size_t colon = rest.find(':');
    t.value = parse_number(rest.substr(0, colon));
    if (colon != std::string::npos) t.alpha = parse_number(rest.substr(colon + 1));
  }
  if (!(t.value > 0 && t.value < 1) || !(t.alpha > 0 && t.alpha < 0.5))
    throw UsageError("option --" + option + ": expected binomial:R[:ALPHA] with 0 < R < 1 and 0 < ALPHA < 0.5, got '" +
                     text + "'");
  return t;
}

// "betabinomial", "betabinomial:ALPHA" or "betabinomial:ALPHA:CUT".
Threshold parse_beta_binomial(const std::string& text, const std::string& option) {
  Threshold t{false, Threshold::kDefaultBulkCut, false, false, Threshold::kDefaultChanceAlpha};
  t.beta_binomial = true;
  if (text.size() > 12) {
    const std::string rest = text.substr(13);
    const std::size_t colon = rest.find(':');
    t.alpha = parse_number(rest.substr(0, colon));
    if (colon != std::string::npos) t.value = parse_number(rest.substr(colon + 1));
  }
  if (!(t.alpha > 0 && t.alpha < 0.5) || !(t.value > 0 && t.value < 1) || (text.size() > 12 && text[12] != ':'))
    throw UsageError("option --" + option +
                     ": expected betabinomial[:ALPHA[:CUT]] with 0 < ALPHA < 0.5 and 0 < CUT < 1, got '" + text + "'");
  return t;
}

}  // namespace

Threshold Threshold::parse(const std::string& text, const std::string& option) {
  if (text == "auto") return {};
  if (text == "robust") return {true, kDefaultRobustK, true};
  if (text.rfind("robust:", 0) == 0) {
    const double k = parse_number(text.substr(7));
    if (!(k > 0))
      throw UsageError("option --" + option + ": expected robust:K with a number K > 0, got '" + text + "'");
    return {true, k, true};
  }
  if (text == "binomial" || text.rfind("binomial:", 0) == 0) return parse_binomial(text, option);
  if (text.rfind("betabinomial", 0) == 0) return parse_beta_binomial(text, option);
  const double v = parse_number(text);
  // Scores lie in [0, 1] and an item is flagged when its score exceeds the threshold: 1 flags
  // nothing (by request), a larger number could only be a mistake.
  if (std::isnan(v) || v > 1)
    throw UsageError("option --" + option +
                     ": expected 'auto', 'robust', 'robust:K', 'binomial[:R[:ALPHA]]', 'betabinomial[:ALPHA[:CUT]]' or "
                     "a number from 0 to 1, got '" +
                     text + "'");
  return {false, v};
}

ResolvedThreshold Threshold::resolve(const Population& p) const {
  if (beta_binomial) return {0, false};
  if (fitted) {
    const double rate = std::max(value, p.median + kDefaultRobustK * kMadToSigma * p.mad);
    return rate >= kMaxFittedRate ? ResolvedThreshold{kMaxFittedRate, true} : ResolvedThreshold{rate, false};
  }
  if (!automatic) return {value, false};
  const double raw = robust ? p.median + value * kMadToSigma * p.mad : p.mean + p.sigma;
  if (raw >= 1) return {kClampedThreshold, true};
  return {raw, false};
}

namespace {

// `v` as written before (6 significant digits) when that reads back as `v`, else with as many
// digits as it takes: the recorded rule is the threshold used, exactly ("0.1234567", not "0.123457").
std::string exact(double v) {
  for (int digits = 6;; ++digits) {
    std::ostringstream out;
    out.precision(digits);
    out << v;
    if (digits >= 17 || std::stod(out.str()) == v) return out.str();
  }
}

}  // namespace

std::string Threshold::to_string() const {
  if (automatic && !robust) return "auto";
  if (fitted) return "binomial:fit:" + exact(alpha);
  if (beta_binomial) return "betabinomial:" + exact(alpha) + ":" + exact(value);
  std::string out;
  if (robust) out += "robust:";
  if (binomial) out += "binomial:";
  out += exact(value);
  if (binomial) out += ":" + exact(alpha);
  return out;
}

}  // namespace crd::detect
