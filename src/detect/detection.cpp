// detect(): statistics and thresholds over all pages and neighborhoods, flags, and output order.
#include "crd/detect/detection.hpp"

#include "exact_moments.hpp"
#include "crd/shuffle/sort_across_ranks.hpp"

namespace crd::detect {
namespace {

// Global moments: each rank's exact partial state is gathered and merged; integer sums make the
// result independent of the rank count.
ExactMoments global_moments(comm::Transport& transport, const ExactMoments& local) {
  std::vector<std::uint64_t> words;
  local.encode(words);
  const std::vector<std::uint64_t> all = transport.allgather_pods(std::span<const std::uint64_t>(words));
  ExactMoments merged;
  for (std::size_t at = 0; at < all.size(); at += ExactMoments::kWords)
    merged.merge(ExactMoments::decode(std::span(all).subspan(at, ExactMoments::kWords)));
  return merged;
}

}  // namespace

GlobalMoments global_moments(comm::Transport& transport, std::span<const double> values) {
  ExactMoments local;
  for (double v : values) local.add(v);
  const ExactMoments all = global_moments(transport, local);
  return {all.count(), all.mean(), all.sigma()};
}

DetectionResult detect(comm::Transport& transport, const std::vector<std::string>& keys,
                       const PageScores& scores, const LabelSlice& labels, const DetectOptions& options,
                       std::size_t round_bytes) {
  DetectionResult out;
  DetectionStats& s = out.stats;

  ExactMoments page_local;
  for (double c : scores.containment) page_local.add(c);
  const ExactMoments pages = global_moments(transport, page_local);
  s.pages = pages.count();
  s.page_mean = pages.mean();
  s.page_sigma = pages.sigma();
  s.page_threshold = options.page_threshold.resolve(s.page_mean, s.page_sigma);

  std::vector<PageRow> page_rows;
  page_rows.reserve(scores.size());
  for (std::size_t i = 0; i < scores.size(); ++i) {
    PageRow row;
    row.url = keys[scores.page[i]];
    row.chunks = scores.chunks[i];
    row.labeled = scores.labeled[i];
    row.containment = scores.containment[i];
    row.flagged = (row.containment > s.page_threshold && row.labeled >= options.min_labeled) ? 1 : 0;
    row.positions.assign(scores.positions.begin() + static_cast<std::ptrdiff_t>(scores.match_offsets[i]),
                         scores.positions.begin() + static_cast<std::ptrdiff_t>(scores.match_offsets[i + 1]));
    row.label_ids.assign(scores.label_ids.begin() + static_cast<std::ptrdiff_t>(scores.match_offsets[i]),
                         scores.label_ids.begin() + static_cast<std::ptrdiff_t>(scores.match_offsets[i + 1]));
    s.flagged_pages += row.flagged;
    page_rows.push_back(std::move(row));
  }

  std::vector<std::vector<std::uint32_t>> hood_labels;
  auto hoods = aggregate_neighborhoods(transport, keys, scores, options, round_bytes, &hood_labels);
  ExactMoments hood_local;
  for (const auto& n : hoods) hood_local.add(n.badness);
  const ExactMoments all_hoods = global_moments(transport, hood_local);
  s.neighborhoods = all_hoods.count();
  s.neighborhood_mean = all_hoods.mean();
  s.neighborhood_sigma = all_hoods.sigma();
  s.neighborhood_threshold = options.neighborhood_threshold.resolve(s.neighborhood_mean, s.neighborhood_sigma);
  for (auto& n : hoods) {
    n.flagged = n.badness > s.neighborhood_threshold ? 1 : 0;
    s.flagged_neighborhoods += n.flagged;
  }
  std::uint64_t flagged[2] = {s.flagged_pages, s.flagged_neighborhoods};
  transport.allreduce(std::span<std::uint64_t>(flagged, 2), comm::ReduceOp::Sum);
  s.flagged_pages = flagged[0];
  s.flagged_neighborhoods = flagged[1];

  out.label_use = label_provenance(transport, keys, scores, labels, options, round_bytes, hood_labels);
  out.pages = shuffle::sort_across_ranks(transport, std::move(page_rows), shuffle::FieldLess{}, round_bytes);
  out.neighborhoods = shuffle::sort_across_ranks(transport, std::move(hoods), shuffle::FieldLess{}, round_bytes);
  return out;
}

}  // namespace crd::detect
