// JsonWriter: nesting, commas, numbers and columns.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "crd/report/json_writer.hpp"
#include "table_spec.hpp"

namespace crd::report {
namespace {

TEST(JsonWriter, NestsObjectsAndArraysWithCommas) {
  JsonWriter w;
  w.begin_object();
  w.key("a").value(std::uint64_t{1});
  w.key("b").begin_array().value("x").value(true).null().begin_object().end_object().end_array();
  w.key("c").raw("[1,2]");
  w.end_object();
  EXPECT_EQ(w.str(), R"({"a":1,"b":["x",true,null,{}],"c":[1,2]})");
}

TEST(JsonWriter, Numbers) {
  JsonWriter w;
  w.begin_array();
  w.value(std::numeric_limits<std::uint64_t>::max()).value(std::int64_t{-5}).value(0.1).value(1e300);
  w.value(std::nan("")).value(std::numeric_limits<double>::infinity());
  w.end_array();
  EXPECT_EQ(w.str(), "[18446744073709551615,-5,0.1,1e+300,null,null]");
}

TEST(JsonWriter, TypedColumns) {
  JsonWriter w;
  const std::vector<std::uint32_t> u{1, 2};
  const std::vector<std::uint8_t> flags{0, 1};
  const std::vector<double> d{0.5};
  w.begin_array().array(std::span<const std::uint32_t>(u)).array(std::span<const std::uint8_t>(flags));
  w.array(std::span<const double>(d)).array(std::vector<std::string>{"<a>"}).end_array();
  EXPECT_EQ(w.str(), R"([[1,2],[0,1],[0.5],["\u003ca\u003e"]])");
}

TEST(TableSpec, ColumnsAndHashes) {
  TableSpec t;
  t.id = "chunks";
  t.pruning = true;
  const std::vector<std::uint64_t> counts{7};
  std::vector<std::uint8_t> hash(20);
  for (std::size_t i = 0; i < 20; ++i) hash[i] = static_cast<std::uint8_t>(i * 13);
  t.add_uint("count", "count", counts);
  t.add_hash("hash", "SHA-1", hash);
  t.add_text("sample", "sample", {"</script>"});
  t.total_rows = 9;
  t.sort_key = "count";
  EXPECT_EQ(t.rows(), 1u);
  EXPECT_EQ(t.to_json(),
            R"({"id":"chunks","rows":1,"total":9,"truncated":"","inspect":"","sort":"count","desc":true,)"
            R"("pruning":true,"pageSize":50,"columns":[{"key":"count","label":"count","type":"int"},)"
            R"({"key":"hash","label":"SHA-1","type":"hash"},{"key":"sample","label":"sample","type":"text"}],)"
            R"("data":{"count":[7],"hash":["000d1a2734414e5b6875828f9ca9b6c3d0ddeaf7"],)"
            R"("sample":["\u003c/script\u003e"]}})");
}

}  // namespace
}  // namespace crd::report
