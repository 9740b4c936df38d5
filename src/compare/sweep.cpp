// Sweep points (sweep.hpp).
#include "sweep.hpp"

#include <algorithm>
#include <charconv>

#include "crd/base/error.hpp"

namespace crd::compare {

namespace {
// By Method's value: its name and how its threshold t reads.
constexpr const char* kMethods[][2] = {
    {"sha1", "identical digest"}, {"nilsimsa", "score >= t"}, {"tlsh", "distance <= t"}, {"ssdeep", "score >= t"}};
}  // namespace

const char* method_name(Method m) { return kMethods[static_cast<int>(m)][0]; }
const char* method_rule(Method m) { return kMethods[static_cast<int>(m)][1]; }

bool lsh_matches(const SweepPoint& p, const BestScores& best) {
  switch (p.method) {
    case Method::Nilsimsa:
      return best.nilsimsa >= p.threshold;
    case Method::Tlsh:
      return best.tlsh != kNoTlsh && best.tlsh <= p.threshold;
    case Method::Ssdeep:
      return best.ssdeep > 0 && best.ssdeep >= p.threshold;
    case Method::Sha1:
      break;
  }
  return false;
}

namespace {

int parse_int(std::string_view text, const std::string& option) {
  int v = 0;
  const auto r = std::from_chars(text.data(), text.data() + text.size(), v);
  if (text.empty() || r.ec != std::errc() || r.ptr != text.data() + text.size())
    throw UsageError("option --" + option + ": '" + std::string(text) + "' is not a whole number");
  return v;
}

std::vector<int> parse_sweep(const std::string& text, const std::string& option, int lo, int hi) {
  std::vector<int> out;
  if (const auto colon = text.find(':'); colon != std::string::npos) {
    const int a = parse_int(std::string_view(text).substr(0, colon), option);
    const int b = parse_int(std::string_view(text).substr(colon + 1), option);
    for (int v = a;; v += a <= b ? 1 : -1) {
      out.push_back(v);
      if (v == b) break;
    }
  } else {
    std::size_t at = 0;
    while (at <= text.size()) {
      const auto comma = std::min(text.find(',', at), text.size());
      out.push_back(parse_int(std::string_view(text).substr(at, comma - at), option));
      at = comma + 1;
    }
  }
  for (int v : out)
    if (v < lo || v > hi)
      throw UsageError("option --" + option + ": " + std::to_string(v) + " is outside " + std::to_string(lo) + "…" +
                       std::to_string(hi));
  return out;
}

void add_method(std::vector<SweepPoint>& out, Method m, const std::string& sweep, const std::string& option,
                int primary, const std::string& primary_option, int lo, int hi) {
  parse_sweep(std::to_string(primary), primary_option, lo, hi);  // range check of the primary
  auto values = parse_sweep(sweep, option, lo, hi);
  if (std::find(values.begin(), values.end(), primary) == values.end()) values.push_back(primary);
  for (int v : values) out.push_back({m, v, v == primary});
}

}  // namespace

std::vector<SweepPoint> sweep_points(const SweepOptions& o) {
  std::vector<SweepPoint> out{{Method::Sha1, 160, true}};  // all 160 bits equal
  add_method(out, Method::Nilsimsa, o.nilsimsa_sweep, "nilsimsa-sweep", o.nilsimsa_threshold, "nilsimsa-threshold",
             -128, 128);
  add_method(out, Method::Tlsh, o.tlsh_sweep, "tlsh-sweep", o.tlsh_threshold, "tlsh-threshold", 0, 100000);
  add_method(out, Method::Ssdeep, o.ssdeep_sweep, "ssdeep-sweep", o.ssdeep_threshold, "ssdeep-threshold", 1, 100);
  return out;
}

}  // namespace crd::compare
