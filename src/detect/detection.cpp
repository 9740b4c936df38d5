// detect(): statistics and thresholds over all pages and neighborhoods, flags, and output order.
#include "crd/detect/detection.hpp"

#include <algorithm>
#include <iterator>
#include <tuple>

#include "crd/base/error.hpp"
#include "crd/comm/collectives.hpp"
#include "crd/detect/beta_binomial_fit.hpp"
#include "crd/detect/combined_rule.hpp"
#include "crd/detect/flagged_share.hpp"
#include "crd/detect/host_stop.hpp"
#include "crd/detect/page_rule.hpp"
#include "crd/shuffle/sort_across_ranks.hpp"
#include "cross_host_stop.hpp"
#include "exact_median.hpp"
#include "exact_moments.hpp"

namespace crd::detect {
namespace {

// Global moments: each rank's exact partial state is gathered and merged; integer sums make the
// result independent of the rank count.
ExactMoments global_moments(comm::Transport& transport, const ExactMoments& local) {
  std::vector<std::uint64_t> words;
  local.encode(words);
  const std::vector<std::uint64_t> all = comm::allgather_concat(transport, std::span<const std::uint64_t>(words));
  ExactMoments merged;
  for (std::size_t at = 0; at < all.size(); at += ExactMoments::kWords)
    merged.merge(ExactMoments::decode(std::span(all).subspan(at, ExactMoments::kWords)));
  return merged;
}

// Each page's counts for the page rule without the stop grams: a host's boilerplate (labels one host
// repeats, host_stop.hpp), then the crawl's common phrasing (labels many hosts' otherwise unrelated
// pages hold, cross_host_stop.hpp: a second reduce over the counts without the first kind). Sets the
// stats' counts of stopped labels. Collective.
std::vector<PageCounts> counts_without_stop_grams(comm::Transport& transport, const std::vector<std::string>& keys,
                                                  const PageScores& scores, const LabelSlice& labels,
                                                  const DetectOptions& options, std::size_t round_bytes,
                                                  DetectionStats& s) {
  const std::vector<std::uint64_t> host_stop = host_stop_labels(
      transport, keys, scores, labels, options.host_stop_pages, options.host_stop_site_ratio, round_bytes);
  s.host_stop_labels = host_stop.size();
  std::vector<PageCounts> counts;
  counts.reserve(scores.size());
  for (std::size_t i = 0; i < scores.size(); ++i) counts.push_back(page_counts_without(scores, i, host_stop));
  if (options.cross_host_stop_hosts == 0) return counts;
  const std::vector<std::uint64_t> cross =
      cross_host_stop_labels(transport, keys, scores, counts, host_stop, labels, options.cross_host_stop_hosts,
                             options.cross_host_stop_cut, round_bytes);
  s.cross_host_stop_labels = cross.size();
  std::vector<std::uint64_t> stop;
  stop.reserve(host_stop.size() + cross.size());
  std::merge(host_stop.begin(), host_stop.end(), cross.begin(), cross.end(), std::back_inserter(stop));
  for (std::size_t i = 0; i < scores.size(); ++i) counts[i] = page_counts_without(scores, i, stop);
  return counts;
}

}  // namespace

// Every statistic a threshold rule may use, over all ranks' values.
Population population(comm::Transport& transport, std::span<const double> values, std::uint64_t& count) {
  ExactMoments local;
  for (double v : values) local.add(v);
  const ExactMoments all = global_moments(transport, local);
  count = all.count();
  const MedianMad m = exact_median_mad(transport, values);
  return {all.mean(), all.sigma(), m.median, m.mad};
}

GlobalMoments global_moments(comm::Transport& transport, std::span<const double> values) {
  ExactMoments local;
  for (double v : values) local.add(v);
  const ExactMoments all = global_moments(transport, local);
  return {all.count(), all.mean(), all.sigma()};
}

DetectionResult detect(comm::Transport& transport, const std::vector<std::string>& keys, const PageScores& scores,
                       const LabelSlice& labels, const DetectOptions& options, std::size_t round_bytes) {
  DetectionResult out;
  DetectionStats& s = out.stats;
  if (const std::string_view problem = options.problem(); !problem.empty()) throw UsageError(std::string(problem));

  // Pages and neighborhoods alike: the population's statistics over all ranks, and its threshold
  // rule resolved over them.
  const auto summarize = [&](std::span<const double> values, const Threshold& rule, std::uint64_t& count, double& mean,
                             double& sigma, double& median, double& mad, double& threshold, std::uint8_t& clamped) {
    const Population p = population(transport, values, count);
    const ResolvedThreshold resolved = rule.resolve(p);
    std::tie(mean, sigma, median, mad, threshold) = std::tuple(p.mean, p.sigma, p.median, p.mad, resolved.value);
    clamped = resolved.clamped ? 1 : 0;
  };
  summarize(scores.containment, options.page_threshold, s.pages, s.page_mean, s.page_sigma, s.page_median, s.page_mad,
            s.page_threshold, s.page_threshold_clamped);

  // The counts the rule judges: without the stop grams.
  const std::vector<PageCounts> counts =
      counts_without_stop_grams(transport, keys, scores, labels, options, round_bytes, s);
  BetaFit beta;
  if (options.page_threshold.beta_binomial) {
    beta = fit_beta_binomial(transport, counts, options.page_threshold.value, options.page_threshold.alpha);
    s.page_threshold = beta.mean;
    s.page_beta_a = beta.a;
    s.page_beta_b = beta.b;
    s.page_beta_pages = beta.pages;
  }
  PageRule page_rule(options.page_threshold, options.page_threshold.beta_binomial ? 0.0 : s.page_threshold,
                     options.min_labeled, options.combined, options.page_threshold.beta_binomial ? &beta : nullptr);
  std::vector<PageRow> page_rows;
  page_rows.reserve(scores.size());
  std::vector<std::uint8_t> page_flagged;
  page_flagged.reserve(scores.size());
  for (std::size_t i = 0; i < scores.size(); ++i) {
    PageRow row;
    row.url = keys[scores.page[i]];
    row.chunks = scores.chunks[i];
    row.labeled = scores.labeled[i];
    row.containment = scores.containment[i];
    row.flagged = page_rule.judge(counts[i]).flagged ? 1 : 0;
    row.positions.assign(scores.positions.begin() + static_cast<std::ptrdiff_t>(scores.match_offsets[i]),
                         scores.positions.begin() + static_cast<std::ptrdiff_t>(scores.match_offsets[i + 1]));
    row.label_ids.assign(scores.label_ids.begin() + static_cast<std::ptrdiff_t>(scores.match_offsets[i]),
                         scores.label_ids.begin() + static_cast<std::ptrdiff_t>(scores.match_offsets[i + 1]));
    s.flagged_pages += row.flagged;
    page_flagged.push_back(row.flagged);
    page_rows.push_back(std::move(row));
  }

  std::vector<std::vector<std::uint32_t>> hood_labels;
  auto hoods = aggregate_neighborhoods(transport, keys, scores, options, round_bytes, &hood_labels, page_flagged);
  std::vector<double> badness;
  badness.reserve(hoods.size());
  for (const auto& n : hoods) badness.push_back(n.badness);
  summarize(badness, options.neighborhood_threshold, s.neighborhoods, s.neighborhood_mean, s.neighborhood_sigma,
            s.neighborhood_median, s.neighborhood_mad, s.neighborhood_threshold, s.neighborhood_threshold_clamped);
  FlaggedShare flagged_share(options.neighborhood_min_flagged, page_level(options));
  for (auto& n : hoods) {
    n.flagged = (n.badness > s.neighborhood_threshold && n.labeled >= options.min_neighborhood_labeled) ||
                        flagged_share.improbable(n.pages, n.flagged_pages)
                    ? 1
                    : 0;
    s.flagged_neighborhoods += n.flagged;
  }
  std::uint64_t flagged[2] = {s.flagged_pages, s.flagged_neighborhoods};
  comm::sum(transport, flagged);
  s.flagged_pages = flagged[0];
  s.flagged_neighborhoods = flagged[1];

  out.label_use = label_provenance(transport, keys, scores, labels, options, round_bytes, hood_labels);
  out.pages = shuffle::sort_across_ranks(transport, std::move(page_rows), FieldLess{}, round_bytes);
  out.neighborhoods = shuffle::sort_across_ranks(transport, std::move(hoods), FieldLess{}, round_bytes);
  return out;
}

}  // namespace crd::detect
