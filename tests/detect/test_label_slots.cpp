// LabelSlots against a std::map reference: every id gets one slot, numbered in first-seen order,
// through many rehashes from the smallest table.
#include <gtest/gtest.h>

#include <map>
#include <random>

#include "label_slots.hpp"

namespace crd::detect::detail {
namespace {

void expect_like_map(const std::vector<std::uint32_t>& ids) {
  LabelSlots slots;  // the smallest table: it grows many times
  std::map<std::uint32_t, std::uint32_t> want;
  for (const std::uint32_t id : ids) {
    const auto [it, inserted] = want.emplace(id, static_cast<std::uint32_t>(want.size()));
    ASSERT_EQ(slots.slot(id), it->second) << id;
    ASSERT_EQ(slots.size(), want.size());
  }
  ASSERT_EQ(slots.ids().size(), want.size());
  for (const auto& [id, slot] : want) EXPECT_EQ(slots.ids()[slot], id);
  for (const auto& [id, slot] : want) EXPECT_EQ(slots.slot(id), slot);  // found again after every rehash
  EXPECT_EQ(slots.size(), want.size());
}

TEST(LabelSlots, RandomIdsMatchAMap) {
  std::mt19937_64 rng(7);
  std::vector<std::uint32_t> ids;
  // Dense small ids (as label ids are), repeated, then ids anywhere below the empty marker.
  for (int i = 0; i < 20000; ++i) ids.push_back(static_cast<std::uint32_t>(rng() % 5000));
  for (int i = 0; i < 20000; ++i) ids.push_back(static_cast<std::uint32_t>(rng() % 0xFFFFFFFEull));
  expect_like_map(ids);
}

TEST(LabelSlots, ClusteredIdsAndTheLargest) {
  std::vector<std::uint32_t> ids;
  for (std::uint32_t i = 0; i < 3000; ++i) ids.push_back(i * 1024);  // equal low bits
  ids.push_back(0xFFFFFFFEu);                                        // the largest label id
  for (std::uint32_t i = 0; i < 3000; i += 7) ids.push_back(i * 1024);
  expect_like_map(ids);
}

TEST(LabelSlots, PresizedTableNumbersTheSame) {
  LabelSlots small, large(100000);
  for (std::uint32_t id : {42u, 7u, 42u, 0u, 99999u, 7u}) EXPECT_EQ(small.slot(id), large.slot(id));
  EXPECT_EQ(small.ids(), (std::vector<std::uint32_t>{42, 7, 0, 99999}));
}

}  // namespace
}  // namespace crd::detect::detail
