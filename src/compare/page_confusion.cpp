// Confusion counts per sweep point (page_confusion.hpp).
#include "page_confusion.hpp"

#include "crd/base/error.hpp"
#include "crd/comm/collectives.hpp"
#include "crd/detect/detection.hpp"
#include "crd/detect/page_rule.hpp"
#include "crd/detect/page_scores.hpp"

namespace crd::compare {

TruthPrefixes TruthPrefixes::parse(std::string_view text, const std::string& source) {
  TruthPrefixes t;
  std::size_t at = 0;
  while (at < text.size()) {
    const auto nl = std::min(text.find('\n', at), text.size());
    std::string_view line = text.substr(at, nl - at);
    // Spaces around a prefix are never part of it (page keys have none): a line of only
    // whitespace is blank, not a prefix that no page starts with.
    constexpr std::string_view kSpace = " \t\r\f\v";
    const std::size_t first = line.find_first_not_of(kSpace);
    line = first == std::string_view::npos ? std::string_view{} : line.substr(first, line.find_last_not_of(kSpace) - first + 1);
    if (!line.empty() && line.front() != '#') t.prefixes_.emplace_back(line);
    at = nl + 1;
  }
  if (t.prefixes_.empty()) throw UsageError("truth file '" + source + "' names no positive URL prefix");
  return t;
}

bool TruthPrefixes::positive(std::string_view key) const {
  for (const auto& p : prefixes_)
    if (key.starts_with(p) && (key.size() == p.size() || p.back() == '/' || key[p.size()] == '/')) return true;
  return false;
}

std::vector<output::ConfusionRow> evaluate(comm::Transport& transport, const ShardMatches& shard,
                                           const TruthPrefixes& truth, const std::vector<SweepPoint>& points,
                                           const EvaluationOptions& options) {
  std::vector<std::uint8_t> positive(shard.keys.size());
  for (std::size_t p = 0; p < shard.keys.size(); ++p) positive[p] = truth.positive(shard.keys[p]) ? 1 : 0;

  std::vector<output::ConfusionRow> rows;
  std::vector<std::uint64_t> counts;  // tp, fp, fn, tn per point, summed over ranks at the end
  std::vector<std::uint64_t> label_of(shard.best.size());
  std::optional<detect::PageRule> rule;
  for (const SweepPoint& point : points) {
    for (std::size_t id = 0; id < label_of.size(); ++id)
      label_of[id] = point.method == Method::Sha1         ? shard.sha1_label[id]
                     : lsh_matches(point, shard.best[id]) ? 0
                                                          : detect::kNoLabel;
    // Containment exactly as crd detect computes it, then its threshold over all pages.
    const detect::PageScores scores = detect::score_pages(shard.page_offsets, shard.chunk_ids, label_of, shard.is_stop);
    // One page threshold for every row, so that only the chunk matching differs between methods:
    // `auto` is resolved once, on the first point (SHA-1: the threshold crd detect would use).
    // Resolved per row instead, it would rise with every near-match an LSH admits — at Nilsimsa
    // 115 nearly every chunk of every page matches something, mean + σ exceeds 1 and nothing at
    // all is flagged, which says nothing about false positives.
    if (!rule) {
      std::uint64_t pages = 0;
      const double threshold =
          options.page_threshold.resolve(detect::population(transport, scores.containment, pages)).value;
      rule.emplace(options.page_threshold, threshold, options.min_labeled);
    }
    std::uint64_t c[4] = {0, 0, 0, 0};
    for (std::size_t i = 0; i < scores.size(); ++i) {
      const bool flagged = rule->judge({scores.chunks[i], scores.labeled[i]}).flagged;
      const bool pos = positive[scores.page[i]] != 0;
      ++c[pos ? (flagged ? 0 : 2) : (flagged ? 1 : 3)];
    }
    counts.insert(counts.end(), c, c + 4);
    output::ConfusionRow row;
    row.method = method_name(point.method);
    row.rule = method_rule(point.method);
    row.threshold = point.threshold;
    row.primary = point.primary ? 1 : 0;
    row.page_threshold = rule->threshold();
    rows.push_back(std::move(row));
  }
  comm::sum(transport, counts);
  for (std::size_t i = 0; i < rows.size(); ++i) {
    auto& r = rows[i];
    r.tp = counts[4 * i], r.fp = counts[4 * i + 1], r.fn = counts[4 * i + 2], r.tn = counts[4 * i + 3];
    r.fpr = r.fp + r.tn == 0 ? 0.0 : static_cast<double>(r.fp) / static_cast<double>(r.fp + r.tn);
    r.extrapolated_fp = r.fpr * options.extrapolate_pages;
  }
  return rows;
}

}  // namespace crd::compare
