// fit_beta_binomial: the method of moments on the crawl's bulk of unrelated pages, trimmed robustly.
#include "crd/detect/beta_binomial_fit.hpp"

#include <algorithm>
#include <vector>

#include "crd/base/uint128.hpp"
#include "crd/comm/collectives.hpp"
#include "crd/detect/page_scores.hpp"
#include "crd/detect/threshold.hpp"

namespace crd::detect {
namespace {

// The bulk's sums as exact integers: the same on every rank, whatever the split of pages.
struct BulkSums {
  std::uint64_t pages = 0, n = 0, s = 0;
  uint128 nn = 0, ss = 0, ns = 0;
};

BulkSums global_sums(comm::Transport& transport, std::span<const PageCounts> pages,
                     const std::vector<std::uint8_t>& in_bulk) {
  BulkSums local;
  for (std::size_t i = 0; i < pages.size(); ++i) {
    if (in_bulk[i] == 0) continue;
    const std::uint64_t n = pages[i].chunks, s = pages[i].labeled;
    ++local.pages;
    local.n += n;
    local.s += s;
    local.nn += static_cast<uint128>(n) * n;
    local.ss += static_cast<uint128>(s) * s;
    local.ns += static_cast<uint128>(n) * s;
  }
  const auto lo = [](uint128 v) { return static_cast<std::uint64_t>(v); };
  const auto hi = [](uint128 v) { return static_cast<std::uint64_t>(v >> 64); };
  const std::uint64_t words[9] = {local.pages,  local.n,      local.s,      lo(local.nn), hi(local.nn),
                                  lo(local.ss), hi(local.ss), lo(local.ns), hi(local.ns)};
  const std::vector<std::uint64_t> all = comm::allgather_concat(transport, std::span<const std::uint64_t>(words));
  BulkSums g;
  const auto wide = [&](std::size_t at, std::size_t w) {
    return (static_cast<uint128>(all[at + w + 1]) << 64) | all[at + w];
  };
  for (std::size_t at = 0; at < all.size(); at += 9) {
    g.pages += all[at];
    g.n += all[at + 1];
    g.s += all[at + 2];
    g.nn += wide(at, 3);
    g.ss += wide(at, 5);
    g.ns += wide(at, 7);
  }
  return g;
}

// Method of moments (Kleinman 1973): p = Σs / Σn and E[(s − n p)²] = n p (1 − p) (1 + (n − 1) ρ),
// so ρ = (Σ(s − n p)² / (p (1 − p)) − Σn) / Σn(n − 1). ρ is kept in [kMinRho, (1 − p)/(2 − p)]: the
// lower end is the binomial (a + b ≤ 10⁹ keeps lgamma's differences exact to ~10⁻⁶), the upper
// keeps b ≥ 1, so the pmf is unimodal (BetaBinomialTail's early exits rely on it).
constexpr double kMinRho = 1e-9;

BetaFit moments(const BulkSums& g) {
  BetaFit f;
  f.pages = g.pages;
  long double p = 0, rho = kMinRho;
  if (g.pages == 0) {
    p = Threshold::kDefaultChanceRate;  // no page to fit on: the binomial rule's default rate
  } else {
    // (Σs + 1) / (Σn + 2): a bulk without any labeled gram still has a rate above 0.
    p = (static_cast<long double>(g.s) + 1) / (static_cast<long double>(g.n) + 2);
    const long double q = static_cast<long double>(g.ss) - 2 * p * static_cast<long double>(g.ns) +
                          p * p * static_cast<long double>(g.nn);
    const long double pairs = static_cast<long double>(g.nn) - static_cast<long double>(g.n);
    if (pairs > 0) rho = (q / (p * (1 - p)) - static_cast<long double>(g.n)) / pairs;
  }
  rho = std::clamp(rho, static_cast<long double>(kMinRho), (1 - p) / (2 - p));
  const long double total = (1 - rho) / rho;  // a + b
  f.mean = static_cast<double>(p);
  f.rho = static_cast<double>(rho);
  f.a = static_cast<double>(p * total);
  f.b = static_cast<double>((1 - p) * total);
  return f;
}

}  // namespace

BetaFit fit_beta_binomial(comm::Transport& transport, std::span<const PageCounts> pages, double cut, double alpha) {
  std::vector<std::uint8_t> in_bulk(pages.size());
  for (std::size_t i = 0; i < pages.size(); ++i)
    in_bulk[i] = pages[i].chunks > 0 && containment(pages[i].labeled, pages[i].chunks) <= cut ? 1 : 0;
  BetaFit fit;
  for (std::uint64_t round = 1;; ++round) {
    fit = moments(global_sums(transport, pages, in_bulk));
    fit.rounds = round;
    if (round == kMaxBetaFitRounds) break;
    // Copies below the cut (long pages diluted by added text) would widen the Beta: what the fit
    // itself calls improbable leaves the bulk, and the fit is made again.
    BetaBinomialTail tail(fit.a, fit.b, alpha);
    std::uint64_t removed = 0;
    for (std::size_t i = 0; i < pages.size(); ++i) {
      if (in_bulk[i] == 0 || !tail.improbable(pages[i].chunks, pages[i].labeled)) continue;
      in_bulk[i] = 0;
      ++removed;
    }
    if (comm::sum(transport, removed) == 0) break;
  }
  return fit;
}

}  // namespace crd::detect
