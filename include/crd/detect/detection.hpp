// Detection (paper §4.3) across ranks: page flags, neighborhood badness, and where each label
// occurs. Collective; plain C++ over a Transport (unit-tested with the in-process transport).
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <tuple>
#include <vector>

#include "crd/base/fields.hpp"
#include "crd/comm/transport.hpp"
#include "crd/detect/page_scores.hpp"
#include "crd/detect/threshold.hpp"
#include "crd/hash/digest.hpp"

namespace crd::detect {

struct DetectOptions {
  Threshold page_threshold;
  Threshold neighborhood_threshold;
  std::uint64_t min_labeled = 1;
  std::uint64_t min_neighborhood_labeled = 0;  // flag a neighborhood only with ≥ this many labeled chunks
  BadnessMode badness = BadnessMode::Pages;
  int max_neighborhood_depth = -1;  // < 0: unlimited; 0: hosts only
  std::uint64_t provenance_samples = 5;
  // Whether the user gave page_threshold (else it is the default of the command and chunker); only
  // recorded (/detection@page_threshold_chosen).
  bool page_threshold_chosen = false;
  // --chunker winnow+scan: pages are flagged by the combined rule (combined_rule.hpp), which needs
  // a binomial page rule and the scores' exact part.
  bool combined = false;
  // --host-stop-pages: a label that one host holds on more than this many pages, and on more pages
  // than the labeled corpus holds it (LabelSlice::counts), is not counted by the page rule
  // (host_stop.hpp); 0: off.
  std::uint64_t host_stop_pages = 0;
  // --host-stop-site-ratio: the host's count is compared with this many times the label's count in
  // the labeled corpus (host_stop.hpp). 2: the smallest that gave java.base's edited mirrors back
  // every page of the development runs (docs/winnow.md, "Relative to the labeled site").
  std::uint64_t host_stop_site_ratio = 2;
  // --cross-host-stop-hosts H: a label held by at least H distinct hosts on pages whose containment
  // (after the stop grams per host) is below cross_host_stop_cut is common phrasing and is not
  // counted by the page rule (cross_host_stop.hpp); 0: off.
  std::uint64_t cross_host_stop_hosts = 0;
  // --cross-host-stop-cut: only pages below this containment count as a gram's hosts, so a mirror's
  // mostly copied pages never do, however many mirrors there are (docs/winnow.md).
  double cross_host_stop_cut = 0.02;
  // --exact-min-length: under the combined rule, exact chunks shorter than this many normalized
  // bytes are stop chunks (the paper's 100-byte rule, Ardi and Heidemann §4.4.2): short template
  // chunks (navigation words, headings) match unrelated pages far above the chance rate R.
  std::uint64_t exact_min_length = 100;
  // --neighborhood-min-flagged K: a neighborhood is also flagged when it holds at least K flagged
  // pages and P[Binomial(pages, α) ≥ flagged] < α at the page rule's level α (flagged_share.hpp);
  // 0: off. Needs a page rule with a level (binomial or betabinomial).
  std::uint64_t neighborhood_min_flagged = 0;

  // "" if the options fit together, else why not (names the option). crd detect and run check it
  // before reading any input; detect() refuses options with a problem.
  std::string_view problem() const {
    if (neighborhood_threshold.binomial)
      return "option --neighborhood-threshold: binomial is a page rule; use auto, robust or a number";
    if (neighborhood_min_flagged > 0 && !page_threshold.binomial && !page_threshold.beta_binomial)
      return "option --neighborhood-min-flagged: needs a page rule with a level; give --page-threshold binomial or "
             "betabinomial";
    if (combined && !page_threshold.binomial)
      return "option --page-threshold: --chunker winnow+scan flags pages by the binomial rule of each part; "
             "give binomial[:R[:ALPHA]] (the default)";
    return {};
  }
};

// Count, mean and population σ of values in [0, 1] over every rank, bit-identical for any rank
// count (ExactMoments). Collective. What `auto` thresholds resolve against.
struct GlobalMoments {
  std::uint64_t count = 0;
  double mean = 0;
  double sigma = 0;
};
GlobalMoments global_moments(comm::Transport& transport, std::span<const double> values);

// Every statistic a threshold rule may use (mean, σ, exact median and MAD), over all ranks' values;
// count = how many. Collective; the same for any rank count.
Population population(comm::Transport& transport, std::span<const double> values, std::uint64_t& count);

// The labeled set as this rank holds it: the labels it owns, by hash, ids first_id, first_id + 1, …
struct LabelSlice {
  std::uint64_t first_id = 0;
  std::vector<Digest> hashes;
  std::vector<std::uint64_t> lengths;
  std::vector<std::string> samples;
  // Occurrences of each label in the corpus that made the labeled set (the `count` column of
  // /labels or /discovery/chunks; an upper bound of the pages holding it): how often the labeled
  // site itself repeats a chunk, which the stop grams per host compare against (host_stop.hpp).
  // Empty or 0 where the file has none (/detection/labels).
  std::vector<std::uint64_t> counts;
};

struct PageRow {
  std::string url;
  std::uint32_t chunks = 0;
  std::uint32_t labeled = 0;
  double containment = 0;
  std::uint8_t flagged = 0;
  std::vector<std::uint32_t> positions;
  std::vector<std::uint32_t> label_ids;
  // The wire and checkpoint encodings, the /detection/pages columns and the output order (FieldLess)
  // all come from this list. Output order by url, then the rest: containment and flagged follow
  // from chunks and labeled, so they never decide.
  static constexpr auto fields() {
    return std::tuple(field("url", &PageRow::url), field("chunks", &PageRow::chunks),
                      field("labeled", &PageRow::labeled), field("containment", &PageRow::containment),
                      field("flagged", &PageRow::flagged), field("positions", &PageRow::positions),
                      field("label_ids", &PageRow::label_ids));
  }
};

struct NeighborhoodRow {
  std::string prefix;
  std::uint32_t depth = 0;
  std::uint64_t pages = 0;
  std::uint64_t chunks = 0;
  std::uint64_t labeled = 0;
  double badness = 0;
  std::uint8_t flagged = 0;
  // Pages of the neighborhood the page rule flagged (--neighborhood-min-flagged); not written.
  std::uint64_t flagged_pages = 0;
  // One row per prefix, so FieldLess orders by prefix alone.
  static constexpr auto fields() {
    return std::tuple(field("prefix", &NeighborhoodRow::prefix), field("depth", &NeighborhoodRow::depth),
                      field("pages", &NeighborhoodRow::pages), field("chunks", &NeighborhoodRow::chunks),
                      field("labeled", &NeighborhoodRow::labeled), field("badness", &NeighborhoodRow::badness),
                      field("flagged", &NeighborhoodRow::flagged));
  }
};

struct LabelUse {  // parallel to LabelSlice rows
  std::uint64_t pages = 0;
  std::uint64_t neighborhoods = 0;
  std::uint64_t occurrences = 0;
  std::vector<std::string> sample_urls;  // the smallest page keys, ascending
  static constexpr auto fields() {
    return std::tuple(&LabelUse::pages, &LabelUse::neighborhoods, &LabelUse::occurrences, &LabelUse::sample_urls);
  }
};

struct DetectionStats {
  double page_mean = 0, page_sigma = 0, page_threshold = 0;
  double neighborhood_mean = 0, neighborhood_sigma = 0, neighborhood_threshold = 0;
  std::uint64_t pages = 0, flagged_pages = 0, neighborhoods = 0, flagged_neighborhoods = 0;
  double page_median = 0, page_mad = 0, neighborhood_median = 0, neighborhood_mad = 0;
  std::uint8_t page_threshold_clamped = 0, neighborhood_threshold_clamped = 0;  // Threshold::resolve
  std::uint64_t host_stop_labels = 0;        // labels not counted by the page rule (host_stop.hpp)
  std::uint64_t cross_host_stop_labels = 0;  // further labels not counted (cross_host_stop.hpp)
  // --page-threshold betabinomial only: the fitted Beta of the chance rate and the pages of the bulk
  // it was fitted on (beta_binomial_fit.hpp); page_threshold is then its mean.
  double page_beta_a = 0, page_beta_b = 0;
  std::uint64_t page_beta_pages = 0;
};

struct DetectionResult {
  std::vector<PageRow> pages;                  // this rank's slice, by url across ranks
  std::vector<NeighborhoodRow> neighborhoods;  // this rank's slice, by prefix across ranks
  std::vector<LabelUse> label_use;             // for this rank's LabelSlice
  DetectionStats stats;
};

// Collective. keys: this rank's page keys; scores: its pages' scores.
DetectionResult detect(comm::Transport& transport, const std::vector<std::string>& keys, const PageScores& scores,
                       const LabelSlice& labels, const DetectOptions& options, std::size_t round_bytes);

// Pieces of detect(), exposed for tests.
// Neighborhood totals on their owner ranks (unsorted, badness set, flags not yet). With
// labels_out, also the distinct label ids occurring in each returned neighborhood (parallel).
// page_flagged: parallel to scores, the page rule's verdicts (summed into flagged_pages); empty: 0.
std::vector<NeighborhoodRow> aggregate_neighborhoods(comm::Transport& transport, const std::vector<std::string>& keys,
                                                     const PageScores& scores, const DetectOptions& options,
                                                     std::size_t round_bytes,
                                                     std::vector<std::vector<std::uint32_t>>* labels_out = nullptr,
                                                     std::span<const std::uint8_t> page_flagged = {});
// hood_labels: this rank's neighborhoods' distinct label ids, from aggregate_neighborhoods.
std::vector<LabelUse> label_provenance(comm::Transport& transport, const std::vector<std::string>& keys,
                                       const PageScores& scores, const LabelSlice& labels, const DetectOptions& options,
                                       std::size_t round_bytes,
                                       const std::vector<std::vector<std::uint32_t>>& hood_labels);

}  // namespace crd::detect
