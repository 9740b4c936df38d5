// detect / aggregate_neighborhoods / label_provenance on 1..4 thread ranks: equal to an independent
// single-threaded computation, and bit-identical for any rank count and page distribution.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <map>
#include <set>

#include "detect_fixture.hpp"
#include "url_prefixes.hpp"

namespace crd::detect {
namespace {

using testing::World;

std::uint64_t bits(double x) {
  std::uint64_t b;
  std::memcpy(&b, &x, sizeof b);
  return b;
}

struct RefNeighborhood {
  int depth = 0;
  std::uint64_t pages = 0, chunks = 0, labeled = 0;
  long double containment_sum = 0;
};
struct RefUse {
  std::uint64_t pages = 0, occurrences = 0;
  std::set<std::string> prefixes, keys;
};
struct Reference {
  std::vector<PageRow> pages;  // by url, flags unset
  std::map<std::string, RefNeighborhood> hoods;
  std::vector<RefUse> use;
  long double page_mean = 0, page_sigma = 0;
  double page_median = 0, page_mad = 0;
};

long double mean_of(const std::vector<long double>& xs) {
  long double s = 0;
  for (auto x : xs) s += x;
  return xs.empty() ? 0 : s / static_cast<long double>(xs.size());
}
// Median and MAD by sorting, on values rounded to ExactMoments' fixed point as detect rounds them,
// in long double (64-bit mantissa: sums and differences of 2^-60 multiples in [0, 2] are exact).
long double fixed(double x) { return static_cast<long double>(std::llround(x * 0x1p60)) / 0x1p60L; }
long double median_ld(std::vector<long double> xs) {
  if (xs.empty()) return 0;
  std::sort(xs.begin(), xs.end());
  const std::size_t n = xs.size();
  return (xs[(n - 1) / 2] + xs[n / 2]) / 2;
}
double median_of(const std::vector<long double>& xs) { return static_cast<double>(median_ld(xs)); }
double mad_of(const std::vector<long double>& xs) {
  const long double m = median_ld(xs);
  std::vector<long double> d;
  for (long double x : xs) d.push_back(x > m ? x - m : m - x);
  return static_cast<double>(median_ld(d));
}

long double sigma_of(const std::vector<long double>& xs) {
  const long double m = mean_of(xs);
  long double s = 0;
  for (auto x : xs) s += (x - m) * (x - m);
  return xs.empty() ? 0 : std::sqrt(s / static_cast<long double>(xs.size()));
}

Reference reference(const World& w, int max_depth) {
  Reference ref;
  ref.use.resize(w.labels);
  std::vector<long double> containments;
  for (const auto& p : w.pages) {
    PageRow row;
    row.url = p.key;
    std::set<std::uint64_t> labels_here;
    for (std::uint32_t c : p.chunks) {
      if (w.is_stop[c]) continue;
      if (w.label_of[c] != kNoLabel) {
        row.positions.push_back(row.chunks);
        row.label_ids.push_back(static_cast<std::uint32_t>(w.label_of[c]));
        ++row.labeled;
        ++ref.use[w.label_of[c]].occurrences;
        labels_here.insert(w.label_of[c]);
      }
      ++row.chunks;
    }
    if (row.chunks == 0) continue;
    row.containment = static_cast<double>(row.labeled) / static_cast<double>(row.chunks);
    containments.push_back(row.containment);
    const auto prefixes = neighborhood_prefixes(p.key, max_depth);
    for (const auto& pre : prefixes) {
      RefNeighborhood& n = ref.hoods[std::string(pre.text)];
      n.depth = pre.depth;
      ++n.pages;
      n.chunks += row.chunks;
      n.labeled += row.labeled;
      n.containment_sum += row.containment;
    }
    for (auto id : labels_here) {
      ++ref.use[id].pages;
      ref.use[id].keys.insert(p.key);
      for (const auto& pre : prefixes) ref.use[id].prefixes.insert(std::string(pre.text));
    }
    ref.pages.push_back(std::move(row));
  }
  std::sort(ref.pages.begin(), ref.pages.end(), [](const PageRow& a, const PageRow& b) { return a.url < b.url; });
  ref.page_mean = mean_of(containments);
  ref.page_sigma = sigma_of(containments);
  std::vector<long double> rounded;
  for (long double c : containments) rounded.push_back(fixed(static_cast<double>(c)));
  ref.page_median = median_of(rounded);
  ref.page_mad = mad_of(rounded);
  return ref;
}

// label_provenance's totals and sample keys (the smallest distinct page keys) against the reference.
void check_label_use(const Reference& ref, const DetectOptions& options, const std::vector<testing::RankOutput>& out) {
  const auto use = testing::all_label_use(out);
  ASSERT_EQ(use.size(), ref.use.size());
  for (std::size_t id = 0; id < use.size(); ++id) {
    const RefUse& want = ref.use[id];
    EXPECT_EQ(use[id].occurrences, want.occurrences) << id;
    EXPECT_EQ(use[id].pages, want.pages) << id;
    EXPECT_EQ(use[id].neighborhoods, want.prefixes.size()) << id;
    std::vector<std::string> smallest(want.keys.begin(), want.keys.end());
    if (smallest.size() > options.provenance_samples) smallest.resize(options.provenance_samples);
    EXPECT_EQ(use[id].sample_urls, smallest) << id;
  }
}

void check_against_reference(const World& w, const DetectOptions& options,
                             const std::vector<testing::RankOutput>& out) {
  const Reference ref = reference(w, options.max_neighborhood_depth);
  const DetectionStats& s = out[0].result.stats;
  for (const auto& o : out) {
    EXPECT_EQ(bits(o.result.stats.page_threshold), bits(s.page_threshold)) << "stats agree on every rank";
    EXPECT_EQ(bits(o.result.stats.neighborhood_threshold), bits(s.neighborhood_threshold));
    EXPECT_EQ(o.result.stats.flagged_pages, s.flagged_pages);
    EXPECT_EQ(o.result.stats.flagged_neighborhoods, s.flagged_neighborhoods);
  }
  EXPECT_NEAR(s.page_mean, static_cast<double>(ref.page_mean), 1e-15);
  EXPECT_NEAR(s.page_sigma, static_cast<double>(ref.page_sigma), 1e-12);
  EXPECT_EQ(s.page_median, static_cast<double>(ref.page_median));
  EXPECT_EQ(s.page_mad, ref.page_mad);
  const ResolvedThreshold pt = options.page_threshold.resolve({s.page_mean, s.page_sigma, s.page_median, s.page_mad});
  EXPECT_EQ(s.page_threshold, pt.value);
  EXPECT_EQ(s.page_threshold_clamped, pt.clamped ? 1 : 0);
  if (!options.page_threshold.automatic) {
    EXPECT_EQ(s.page_threshold, options.page_threshold.value);
  } else if (!options.page_threshold.robust && !pt.clamped) {
    EXPECT_EQ(s.page_threshold, s.page_mean + s.page_sigma);
  }

  const auto pages = testing::all_pages(out);
  ASSERT_EQ(pages.size(), ref.pages.size());
  EXPECT_EQ(s.pages, ref.pages.size());
  std::uint64_t flagged = 0;
  for (std::size_t i = 0; i < pages.size(); ++i) {
    const PageRow& got = pages[i];
    const PageRow& want = ref.pages[i];
    EXPECT_EQ(got.url, want.url);
    EXPECT_EQ(got.chunks, want.chunks);
    EXPECT_EQ(got.labeled, want.labeled);
    EXPECT_EQ(got.containment, want.containment);
    EXPECT_EQ(got.positions, want.positions);
    EXPECT_EQ(got.label_ids, want.label_ids);
    const bool flag = got.containment > s.page_threshold && got.labeled >= options.min_labeled;
    EXPECT_EQ(got.flagged, flag ? 1 : 0) << got.url;
    flagged += flag;
  }
  EXPECT_EQ(s.flagged_pages, flagged);

  const auto hoods = testing::all_neighborhoods(out);
  ASSERT_EQ(hoods.size(), ref.hoods.size());
  EXPECT_EQ(s.neighborhoods, ref.hoods.size());
  std::vector<long double> badness;
  std::uint64_t hoods_flagged = 0;
  auto it = ref.hoods.begin();
  for (std::size_t i = 0; i < hoods.size(); ++i, ++it) {
    const NeighborhoodRow& got = hoods[i];
    const RefNeighborhood& want = it->second;
    EXPECT_EQ(got.prefix, it->first);
    EXPECT_EQ(got.depth, static_cast<std::uint32_t>(want.depth));
    EXPECT_EQ(got.pages, want.pages);
    EXPECT_EQ(got.chunks, want.chunks);
    EXPECT_EQ(got.labeled, want.labeled);
    const long double b = options.badness == BadnessMode::Pages
                              ? want.containment_sum / static_cast<long double>(want.pages)
                              : static_cast<long double>(want.labeled) / static_cast<long double>(want.chunks);
    EXPECT_NEAR(got.badness, static_cast<double>(b), 1e-15) << got.prefix;
    badness.push_back(got.badness);
    EXPECT_EQ(got.flagged,
              got.badness > s.neighborhood_threshold && got.labeled >= options.min_neighborhood_labeled ? 1 : 0)
        << got.prefix;
    hoods_flagged += got.flagged;
    if (options.max_neighborhood_depth >= 0) {
      EXPECT_LE(got.depth, static_cast<std::uint32_t>(options.max_neighborhood_depth));
    }
  }
  EXPECT_EQ(s.flagged_neighborhoods, hoods_flagged);
  EXPECT_NEAR(s.neighborhood_mean, static_cast<double>(mean_of(badness)), 1e-15);
  EXPECT_NEAR(s.neighborhood_sigma, static_cast<double>(sigma_of(badness)), 1e-12);
  std::vector<long double> rounded;
  for (long double b : badness) rounded.push_back(fixed(static_cast<double>(b)));
  EXPECT_EQ(s.neighborhood_median, median_of(rounded));
  EXPECT_EQ(s.neighborhood_mad, mad_of(rounded));
  const ResolvedThreshold nt = options.neighborhood_threshold.resolve(
      {s.neighborhood_mean, s.neighborhood_sigma, s.neighborhood_median, s.neighborhood_mad});
  EXPECT_EQ(s.neighborhood_threshold, nt.value);
  EXPECT_EQ(s.neighborhood_threshold_clamped, nt.clamped ? 1 : 0);

  check_label_use(ref, options, out);

  // aggregate_neighborhoods alone: the same totals and badness bits as detect's sorted output.
  std::vector<NeighborhoodRow> aggregated;
  for (std::size_t r = 0; r < out.size(); ++r)
    aggregated.insert(aggregated.end(), out[r].aggregated.begin(), out[r].aggregated.end());
  std::sort(aggregated.begin(), aggregated.end(),
            [](const NeighborhoodRow& a, const NeighborhoodRow& b) { return a.prefix < b.prefix; });
  ASSERT_EQ(aggregated.size(), hoods.size());
  for (std::size_t i = 0; i < hoods.size(); ++i) {
    EXPECT_EQ(aggregated[i].prefix, hoods[i].prefix);
    EXPECT_EQ(aggregated[i].pages, hoods[i].pages);
    EXPECT_EQ(bits(aggregated[i].badness), bits(hoods[i].badness));
  }
}

void expect_identical(const std::vector<testing::RankOutput>& a, const std::vector<testing::RankOutput>& b) {
  const auto pa = testing::all_pages(a), pb = testing::all_pages(b);
  ASSERT_EQ(pa.size(), pb.size());
  for (std::size_t i = 0; i < pa.size(); ++i) {
    EXPECT_EQ(pa[i].url, pb[i].url);
    EXPECT_EQ(bits(pa[i].containment), bits(pb[i].containment));
    EXPECT_EQ(pa[i].flagged, pb[i].flagged);
    EXPECT_EQ(pa[i].positions, pb[i].positions);
    EXPECT_EQ(pa[i].label_ids, pb[i].label_ids);
  }
  const auto na = testing::all_neighborhoods(a), nb = testing::all_neighborhoods(b);
  ASSERT_EQ(na.size(), nb.size());
  for (std::size_t i = 0; i < na.size(); ++i) {
    EXPECT_EQ(na[i].prefix, nb[i].prefix);
    EXPECT_EQ(na[i].depth, nb[i].depth);
    EXPECT_EQ(na[i].pages, nb[i].pages);
    EXPECT_EQ(na[i].chunks, nb[i].chunks);
    EXPECT_EQ(na[i].labeled, nb[i].labeled);
    EXPECT_EQ(bits(na[i].badness), bits(nb[i].badness)) << na[i].prefix;
    EXPECT_EQ(na[i].flagged, nb[i].flagged);
  }
  const auto ua = testing::all_label_use(a), ub = testing::all_label_use(b);
  ASSERT_EQ(ua.size(), ub.size());
  for (std::size_t i = 0; i < ua.size(); ++i) {
    EXPECT_EQ(ua[i].pages, ub[i].pages);
    EXPECT_EQ(ua[i].neighborhoods, ub[i].neighborhoods);
    EXPECT_EQ(ua[i].occurrences, ub[i].occurrences);
    EXPECT_EQ(ua[i].sample_urls, ub[i].sample_urls);
  }
  const DetectionStats& x = a[0].result.stats;
  const DetectionStats& y = b[0].result.stats;
  for (auto [p, q] : {std::pair{x.page_mean, y.page_mean},
                      {x.page_sigma, y.page_sigma},
                      {x.page_threshold, y.page_threshold},
                      {x.neighborhood_mean, y.neighborhood_mean},
                      {x.neighborhood_sigma, y.neighborhood_sigma},
                      {x.neighborhood_threshold, y.neighborhood_threshold},
                      {x.page_median, y.page_median},
                      {x.page_mad, y.page_mad},
                      {x.neighborhood_median, y.neighborhood_median},
                      {x.neighborhood_mad, y.neighborhood_mad}})
    EXPECT_EQ(bits(p), bits(q));
  EXPECT_EQ(x.pages, y.pages);
  EXPECT_EQ(x.flagged_pages, y.flagged_pages);
  EXPECT_EQ(x.neighborhoods, y.neighborhoods);
  EXPECT_EQ(x.flagged_neighborhoods, y.flagged_neighborhoods);
}

std::vector<DetectOptions> option_sets() {
  std::vector<DetectOptions> v;
  DetectOptions o;  // auto thresholds, pages badness, unlimited depth
  v.push_back(o);
  o.badness = BadnessMode::Chunks;
  o.max_neighborhood_depth = 1;
  o.provenance_samples = 2;
  o.min_labeled = 2;
  o.min_neighborhood_labeled = 4;
  v.push_back(o);
  o.page_threshold = Threshold::parse("robust:0.7", "page-threshold");
  o.neighborhood_threshold = Threshold::parse("robust", "neighborhood-threshold");
  v.push_back(o);
  o.page_threshold = {false, 0.25};
  o.neighborhood_threshold = {false, 0.3};
  o.max_neighborhood_depth = 0;
  o.provenance_samples = 0;
  o.min_labeled = 0;
  v.push_back(o);
  return v;
}

class Detection : public ::testing::TestWithParam<int> {};

TEST_P(Detection, MatchesReferenceAndIsRankCountIndependent) {
  const int nranks = GetParam();
  for (std::uint64_t seed : {1u, 2u}) {
    World w = testing::make_world(seed, 250, 120);
    const auto single = [&](const DetectOptions& o) {
      for (auto& p : w.pages) p.rank = 0;
      return testing::run_detect(w, 1, o, 1 << 20, testing::slice_firsts(w.labels, 1));
    };
    std::mt19937_64 rng(seed * 31 + static_cast<std::uint64_t>(nranks));
    int opt_index = 0;
    for (const DetectOptions& options : option_sets()) {
      SCOPED_TRACE("seed " + std::to_string(seed) + " options #" + std::to_string(opt_index++));
      const auto base = single(options);
      for (int trial = 0; trial < 3; ++trial) {
        SCOPED_TRACE("trial " + std::to_string(trial));
        // Trial 0: round robin and even label slices; later: random pages, random slices, tiny rounds.
        for (std::size_t i = 0; i < w.pages.size(); ++i)
          w.pages[i].rank = trial == 0 ? static_cast<int>(i % static_cast<std::size_t>(nranks))
                                       : static_cast<int>(rng() % static_cast<std::uint64_t>(nranks));
        const auto firsts = testing::slice_firsts(w.labels, nranks, trial == 0 ? nullptr : &rng);
        const auto out = testing::run_detect(w, nranks, options, trial == 2 ? 64 : 1 << 20, firsts);
        check_against_reference(w, options, out);
        expect_identical(base, out);
      }
    }
  }
}

TEST_P(Detection, EmptyRanksAndNoPages) {
  const int nranks = GetParam();
  World w = testing::make_world(9, 60, 40);
  for (auto& p : w.pages) p.rank = nranks - 1;  // everything on the last rank
  const DetectOptions options;
  check_against_reference(w, options,
                          testing::run_detect(w, nranks, options, 256, testing::slice_firsts(w.labels, nranks)));
  World empty;
  const auto out = testing::run_detect(empty, nranks, options, 256, testing::slice_firsts(0, nranks));
  for (const auto& o : out) {
    EXPECT_TRUE(o.result.pages.empty());
    EXPECT_TRUE(o.result.neighborhoods.empty());
    EXPECT_EQ(o.result.stats.pages, 0u);
    EXPECT_EQ(o.result.stats.page_mean, 0.0);
    EXPECT_EQ(o.result.stats.neighborhoods, 0u);
  }
}

// A crawl may hold one URL on several pages: a label's sample keys are still distinct, the
// smallest ones, and its pages count every page.
TEST_P(Detection, ProvenanceOfRepeatedKeys) {
  const int nranks = GetParam();
  World w = testing::make_world(5, 200, 60);
  for (std::size_t i = 3; i < w.pages.size(); i += 3) w.pages[i].key = w.pages[i - 3].key;
  std::mt19937_64 rng(17 + static_cast<std::uint64_t>(nranks));
  for (auto& p : w.pages) p.rank = static_cast<int>(rng() % static_cast<std::uint64_t>(nranks));
  for (const std::uint64_t samples : {1u, 3u, 1000u}) {
    DetectOptions options;
    options.provenance_samples = samples;
    const auto out = testing::run_detect(w, nranks, options, 128, testing::slice_firsts(w.labels, nranks, &rng));
    check_label_use(reference(w, options.max_neighborhood_depth), options, out);
  }
}

INSTANTIATE_TEST_SUITE_P(Ranks, Detection, ::testing::Values(1, 2, 3, 4));

}  // namespace
}  // namespace crd::detect
