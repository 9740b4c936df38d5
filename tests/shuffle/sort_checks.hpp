// Invariant of sort_across_ranks: the rank-order concatenation is the sorted global set,
// whatever the rank count, distribution or key multiplicity.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

#include "crd/comm/transport.hpp"
#include "crd/shuffle/sort_across_ranks.hpp"
#include "shuffle_fixtures.hpp"

namespace crd::shuffle::testing {

inline void check_sort(comm::Transport& t, std::uint64_t total, std::uint64_t distinct_keys, bool skew,
                       std::size_t round_bytes) {
  const int me = t.rank(), n = t.size();
  auto sorted = sort_across_ranks(t, local_items(11, total, distinct_keys, me, n, skew), ItemLess{}, encode_item,
                                  decode_item, round_bytes);
  EXPECT_TRUE(std::is_sorted(sorted.begin(), sorted.end(), ItemLess{}));

  // Gather the serials in rank order and compare with a single-process sort of everything.
  std::vector<std::byte> mine(sorted.size() * sizeof(std::uint64_t));
  for (std::size_t i = 0; i < sorted.size(); ++i)
    std::memcpy(mine.data() + i * sizeof(std::uint64_t), &sorted[i].serial, sizeof(std::uint64_t));
  std::vector<std::byte> all;
  std::vector<std::uint64_t> counts;
  t.allgatherv(mine, all, counts);
  std::vector<std::uint64_t> serials(all.size() / sizeof(std::uint64_t));
  if (!all.empty()) std::memcpy(serials.data(), all.data(), all.size());  // no null pointers, even for 0 bytes

  std::vector<Item> everything;
  for (std::uint64_t i = 0; i < total; ++i) everything.push_back(make_item(11, i, distinct_keys));
  std::sort(everything.begin(), everything.end(), ItemLess{});
  ASSERT_EQ(serials.size(), everything.size());
  for (std::size_t i = 0; i < serials.size(); ++i) ASSERT_EQ(serials[i], everything[i].serial) << "position " << i;
  for (const auto& it : sorted) EXPECT_EQ(it, make_item(11, it.serial, distinct_keys));

  // Balance is not guaranteed with many equal keys, but with distinct keys no rank should hold
  // much more than its share (sampling error is small at 16 samples per rank).
  if (distinct_keys == 0 && total >= 1000) {
    EXPECT_LE(sorted.size(), 2 * total / static_cast<unsigned>(n) + 16);
  }
}

}  // namespace crd::shuffle::testing
