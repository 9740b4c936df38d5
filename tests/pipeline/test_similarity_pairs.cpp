// detect --pairs: the K labeled documents a flagged page overlaps most, and their similarity pairs.
#include <gtest/gtest.h>

#include "labels/labeled_documents.hpp"

namespace {

using crd::pipeline::LabeledDocuments;

// Three documents over labels 0..5: A holds 0,1,2 (2 twice) of 10 chunks; B holds 2,3 of 4; C holds 5 of 2.
LabeledDocuments three_documents() {
  LabeledDocuments d;
  d.urls = {"a/doc", "b/doc", "c/doc"};
  d.chunks = {10, 4, 2};
  // label: 0 → A; 1 → A; 2 → A(2), B; 3 → B; 4 → none; 5 → C
  d.holder_offsets = {0, 1, 2, 4, 5, 5, 6};
  d.holders = {{0, 1}, {0, 1}, {0, 2}, {1, 1}, {1, 1}, {2, 1}};
  return d;
}

crd::detect::PageRow page(std::string url, std::uint32_t chunks, std::vector<std::uint32_t> label_ids, bool flagged = true) {
  crd::detect::PageRow p;
  p.url = std::move(url);
  p.chunks = chunks;
  p.labeled = static_cast<std::uint32_t>(label_ids.size());
  p.flagged = flagged ? 1 : 0;
  p.label_ids = std::move(label_ids);
  return p;
}

TEST(SimilarityPairs, RanksDocumentsByThePagePositionsTheyCover) {
  const auto docs = three_documents();
  // Page of 8 chunks, labels 2, 2, 3, 0, 4. A covers the page's 2, 2, 0 (3 positions; A's own
  // positions: 2 of label 2 + 1 of label 0 = 3 of 10); B covers 2, 2, 3 (3 positions; its own: 2 of
  // 4). A tie on the page goes to more of the document's positions (3 > 2): A first.
  const std::vector<crd::detect::PageRow> pages{page("x/p", 8, {2, 2, 3, 0, 4}), page("x/q", 5, {5}, false)};
  const auto rows = crd::pipeline::similarity_pairs(pages, docs, 5);
  ASSERT_EQ(rows.size(), 2u);  // C shares nothing with x/p; x/q is not flagged
  EXPECT_EQ(rows[0].page, "x/p");
  EXPECT_EQ(rows[0].document, "a/doc");
  EXPECT_EQ(rows[0].matching, 2u);
  EXPECT_DOUBLE_EQ(rows[0].first, 3.0 / 8.0);
  EXPECT_DOUBLE_EQ(rows[0].second, 3.0 / 10.0);
  EXPECT_EQ(rows[1].document, "b/doc");
  EXPECT_EQ(rows[1].matching, 2u);
  EXPECT_DOUBLE_EQ(rows[1].first, 3.0 / 8.0);
  EXPECT_DOUBLE_EQ(rows[1].second, 0.5);
  // K = 1 keeps the first.
  const auto one = crd::pipeline::similarity_pairs(pages, docs, 1);
  ASSERT_EQ(one.size(), 1u);
  EXPECT_EQ(one[0].document, "a/doc");
}

TEST(SimilarityPairs, APageInsideADocument) {
  const auto docs = three_documents();
  // The page is exactly document C: <1, 0.5> (C's two chunks, one labeled).
  const std::vector<crd::detect::PageRow> pages{page("c/copy", 1, {5})};
  const auto rows = crd::pipeline::similarity_pairs(pages, docs, 3);
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_EQ(rows[0].document, "c/doc");
  EXPECT_EQ(rows[0].first, 1.0);
  EXPECT_EQ(rows[0].second, 0.5);
}

}  // namespace
