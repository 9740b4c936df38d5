// The row types' field lists: the encodings derived from them are byte for byte the hand-written
// codecs they replaced (so old checkpoints still read), the derived order is the old comparator's,
// and column names and types come out as declared.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <tuple>
#include <vector>

#include "crd/output/schema.hpp"
#include "crd/base/byte_codec.hpp"

namespace crd::output {
namespace {

using detect::NeighborhoodRow;
using detect::PageRow;
using discover::LabelRow;

static_assert(field_name(&PageRow::label_ids) == "label_ids");
static_assert(field_name(&LabelRow::sample_url) == "sample_url");

template <class T>
std::vector<std::byte> encode(const T& row) {
  ByteWriter w;
  write_fields(w, row);
  return {w.bytes().begin(), w.bytes().end()};
}

void old_u32s(ByteWriter& w, const std::vector<std::uint32_t>& v) {
  w.pod(static_cast<std::uint64_t>(v.size()));
  for (auto x : v) w.pod(x);
}

Digest digest_of(std::uint8_t b) {
  Digest d;
  d.bytes.fill(b);
  return d;
}

TEST(RowFields, PageRowEncodesAsTheOldCodec) {
  const PageRow p{"example.org/a", 7, 2, 2.0 / 7, 1, {1, 5}, {9, 3}};
  ByteWriter w;  // detect/row_codec.hpp's write_row, as it was
  w.str(p.url).pod(p.chunks).pod(p.labeled).pod(p.containment).pod(p.flagged);
  old_u32s(w, p.positions);
  old_u32s(w, p.label_ids);
  EXPECT_EQ(encode(p), std::vector<std::byte>(w.bytes().begin(), w.bytes().end()));
  ByteReader r(w.bytes());
  const auto back = read_fields<PageRow>(r);
  EXPECT_EQ(back.url, "example.org/a");
  EXPECT_EQ(back.positions, (std::vector<std::uint32_t>{1, 5}));
  EXPECT_EQ(back.label_ids, (std::vector<std::uint32_t>{9, 3}));
  EXPECT_TRUE(r.done());
}

TEST(RowFields, NeighborhoodAndLabelRowsEncodeAsTheOldCodecs) {
  const NeighborhoodRow n{"example.org/a", 1, 4, 20, 3, 0.25, 1};
  ByteWriter w;
  w.str(n.prefix).pod(n.depth).pod(n.pages).pod(n.chunks).pod(n.labeled).pod(n.badness).pod(n.flagged);
  EXPECT_EQ(encode(n), std::vector<std::byte>(w.bytes().begin(), w.bytes().end()));

  const LabelRow l{digest_of(0xab), 12, 40, "some text", "example.org/b"};
  ByteWriter lw;  // discover/label_row_codec.hpp's write_row
  lw.pod(l.hash).pod(l.count).pod(l.length).str(l.sample).str(l.sample_url);
  EXPECT_EQ(encode(l), std::vector<std::byte>(lw.bytes().begin(), lw.bytes().end()));

  const detect::LabelUse u{3, 2, 5, {"a", "bc"}};
  ByteWriter uw;  // checkpoint_codec.cpp's LabelUse, with strings() as u64 count + each
  uw.pod(u.pages).pod(u.neighborhoods).pod(u.occurrences).pod(std::uint64_t{2}).str("a").str("bc");
  EXPECT_EQ(encode(u), std::vector<std::byte>(uw.bytes().begin(), uw.bytes().end()));
}

// The derived order is the one detect() used: url, chunks, labeled, positions, label_ids
// (containment and flagged follow from chunks and labeled).
TEST(RowFields, PageOrderIsTheOldComparator) {
  std::mt19937 rng(7);
  std::vector<PageRow> rows;
  for (int i = 0; i < 2000; ++i) {
    PageRow p;
    p.url = std::string(1, static_cast<char>('a' + rng() % 3)) + std::string(rng() % 2, 'x');
    p.chunks = 1 + rng() % 3;
    p.labeled = rng() % (p.chunks + 1);
    p.containment = static_cast<double>(p.labeled) / p.chunks;
    p.flagged = p.containment > 0.5 ? 1 : 0;
    for (std::uint32_t k = 0; k < p.labeled; ++k) {
      p.positions.push_back(rng() % 3);
      p.label_ids.push_back(rng() % 2);
    }
    rows.push_back(p);
  }
  auto old_order = rows;
  std::stable_sort(old_order.begin(), old_order.end(), [](const PageRow& a, const PageRow& b) {
    return std::tie(a.url, a.chunks, a.labeled, a.positions, a.label_ids) <
           std::tie(b.url, b.chunks, b.labeled, b.positions, b.label_ids);
  });
  std::stable_sort(rows.begin(), rows.end(), FieldLess{});
  for (std::size_t i = 0; i < rows.size(); ++i) {
    ASSERT_EQ(rows[i].url, old_order[i].url) << i;
    ASSERT_EQ(rows[i].chunks, old_order[i].chunks) << i;
    ASSERT_EQ(rows[i].labeled, old_order[i].labeled) << i;
    ASSERT_EQ(rows[i].positions, old_order[i].positions) << i;
    ASSERT_EQ(rows[i].label_ids, old_order[i].label_ids) << i;
  }
}

TEST(RowFields, ColumnsComeFromTheFieldList) {
  std::vector<std::string> got;
  for (const auto& d : datasets(schema::kPages)) got.push_back(d.path + " " + d.dtype);
  EXPECT_EQ(got, (std::vector<std::string>{
                     "/detection/pages/url str", "/detection/pages/chunks uint32", "/detection/pages/labeled uint32",
                     "/detection/pages/containment float64", "/detection/pages/flagged uint8",
                     "/detection/pages/positions uint32", "/detection/pages/positions_offsets uint64",
                     "/detection/pages/label_ids uint32", "/detection/pages/label_ids_offsets uint64"}));
  got.clear();
  for (const auto& d : datasets(schema::kDiscoveryFiles)) got.push_back(d.path + " " + d.dtype);
  EXPECT_EQ(got, (std::vector<std::string>{"/discovery/files/hash uint8 n×20", "/discovery/files/count uint64",
                                           "/discovery/files/length uint64", "/discovery/files/sample_url str"}));
  EXPECT_EQ(schema::kNeighborhoods.column(&NeighborhoodRow::badness), "/detection/neighborhoods/badness");
  EXPECT_EQ(schema::kErrors.column(&io::ReadError::offset), "/run/errors/offset");
}

}  // namespace
}  // namespace crd::output
