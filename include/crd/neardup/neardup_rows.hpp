// The rows crd neardup writes (/neardup/pairs, /identical, /clusters, /representatives), declared by their field lists
// so their wire encoding, columns and order come from one place.
#pragma once

#include <cstdint>
#include <string>
#include <tuple>

#include "crd/base/fields.hpp"

namespace crd::neardup {

// /neardup/pairs: one near-duplicate pair of representatives, page_a < page_b (bytewise), and with
// --min-jaccard its estimated Jaccard (jaccard_sample.hpp: both / used of the two samples; not
// stored without the check, schema.hpp).
struct PairRow {
  std::string page_a;
  std::string page_b;
  std::uint32_t b_sim = 0;
  std::uint32_t c_sim = 0;
  std::uint8_t same_site = 0;
  double jaccard = 0;
  static constexpr auto fields() {
    return std::tuple(field("page_a", &PairRow::page_a), field("page_b", &PairRow::page_b),
                      field("b_sim", &PairRow::b_sim), field("c_sim", &PairRow::c_sim),
                      field("same_site", &PairRow::same_site), field("jaccard", &PairRow::jaccard));
  }
};

// /neardup/identical: a page whose token sequence equals its representative's.
struct IdentityRow {
  std::string page;
  std::string representative;
  static constexpr auto fields() {
    return std::tuple(field("page", &IdentityRow::page), field("representative", &IdentityRow::representative));
  }
};

// /neardup/clusters: a page of a cluster (a connected set of near-duplicate and identical pages, of
// at least two pages) and the cluster's id, its representative's key: the page to keep.
struct ClusterRow {
  std::string page;
  std::string cluster;
  static constexpr auto fields() {
    return std::tuple(field("page", &ClusterRow::page), field("cluster", &ClusterRow::cluster));
  }
};

// /neardup/representatives: one per cluster, the page to keep (the smallest page key of the
// cluster), and how many pages the cluster has (the others are the ones to remove).
struct RepresentativeRow {
  std::string representative;
  std::uint64_t pages = 0;
  static constexpr auto fields() {
    return std::tuple(field("representative", &RepresentativeRow::representative),
                      field("pages", &RepresentativeRow::pages));
  }
};

}  // namespace crd::neardup
