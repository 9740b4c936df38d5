// The codec derived from a field list (base/fields.hpp, base/byte_codec.hpp, base/value_bytes.hpp).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <span>
#include <stdexcept>
#include <string>
#include <tuple>
#include <vector>

#include "crd/base/byte_codec.hpp"
#include "crd/base/fields.hpp"
#include "crd/base/value_bytes.hpp"
#include "crd/hash/digest.hpp"

namespace crd {
namespace {

// The codec derived from a field list: nested records, strings and vectors, byte for byte.
struct Inner {
  std::uint16_t a = 0;
  std::string s;
  static constexpr auto fields() { return std::tuple(&Inner::a, &Inner::s); }
  bool operator==(const Inner&) const = default;
};
struct Outer {
  Digest d;
  std::uint8_t flag = 0;  // padding follows in memory; it must not travel
  std::uint64_t n = 0;
  std::vector<Inner> inner;
  std::vector<std::uint32_t> ids;
  static constexpr auto fields() { return std::tuple(&Outer::d, &Outer::flag, &Outer::n, &Outer::inner, &Outer::ids); }
  bool operator==(const Outer&) const = default;
};

TEST(Fields, RoundTripAndExactLayout) {
  Outer o;
  o.d.bytes.fill(0xab);
  o.flag = 1;
  o.n = 0x0102030405060708ull;
  o.inner = {{7, "xy"}, {9, ""}};
  o.ids = {5, 6};
  ByteWriter w;
  write_fields(w, o);
  // 20 + 1 + 8, inner: 8 + (2 + 4 + 2) + (2 + 4), ids: 8 + 2 * 4.
  EXPECT_EQ(w.bytes().size(), 20u + 1 + 8 + 8 + 8 + 6 + 8 + 8);
  EXPECT_EQ(encoded_size(o), w.bytes().size());
  std::vector<std::byte> in_place(encoded_size(o));
  SpanWriter sw(in_place.data());
  write_fields(sw, o);
  EXPECT_TRUE(std::equal(in_place.begin(), in_place.end(), w.bytes().begin(), w.bytes().end()));
  EXPECT_EQ(std::to_integer<int>(w.bytes()[20]), 1);  // flag right after the digest: no padding
  ByteReader r(w.bytes());
  EXPECT_EQ(read_fields<Outer>(r), o);
  EXPECT_TRUE(r.done());
}

TEST(Fields, FixedEncodedSizeOnlyForPodFields) {
  struct Fixed {  // 36 bytes of fields in 40 of memory
    Digest key;
    std::uint64_t count = 0;
    std::uint64_t serial_sum = 0;
    static constexpr auto fields() { return std::tuple(&Fixed::key, &Fixed::count, &Fixed::serial_sum); }
  };
  struct Nested {
    Fixed fixed;
    std::uint8_t tail = 0;
    static constexpr auto fields() { return std::tuple(&Nested::fixed, &Nested::tail); }
  };
  struct Empty {
    static constexpr auto fields() { return std::tuple(); }
  };
  EXPECT_EQ(fixed_encoded_size<Nested>(), 37u);  // the fields' bytes: no padding
  EXPECT_EQ(fixed_encoded_size<Outer>(), 0u);     // vectors
  EXPECT_EQ(fixed_encoded_size<Inner>(), 0u);     // a string
  EXPECT_EQ(fixed_encoded_size<Empty>(), 0u);
  EXPECT_EQ(fixed_encoded_size<std::uint64_t>(), 8u);
  Nested n;
  n.tail = 9;
  ByteWriter w;
  write_fields(w, n);
  EXPECT_EQ(encoded_size(n), w.bytes().size());
}

TEST(Fields, TruncatedRecordIsAnError) {
  Outer o;
  o.ids = {1, 2, 3};
  ByteWriter w;
  write_fields(w, o);
  ByteReader r(w.bytes().first(w.bytes().size() - 1));
  EXPECT_THROW(read_fields<Outer>(r), std::runtime_error);
}

TEST(Fields, ValueBytesRoundTripAndRefuseLeftovers) {
  Outer o;
  o.n = 7;
  o.inner = {{1, "a"}};
  const std::vector<std::byte> bytes = encode_value(o);
  EXPECT_EQ(bytes.size(), encoded_size(o));
  EXPECT_EQ(decode_value<Outer>(bytes), o);
  std::vector<std::byte> longer = bytes;
  longer.push_back(std::byte{0});
  EXPECT_THROW(decode_value<Outer>(longer), std::runtime_error);
  const std::uint64_t words[] = {3, 5, 8};
  EXPECT_EQ(copy_pods<std::uint64_t>(std::as_bytes(std::span<const std::uint64_t>(words))),
            (std::vector<std::uint64_t>{3, 5, 8}));
}

}  // namespace
}  // namespace crd
