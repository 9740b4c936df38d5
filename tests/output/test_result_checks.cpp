// ResultReader's checked read layer (src/output/result_checks.cpp) against hostile files made with
// the HDF5 C API, as a hostile user would make them with h5py: attributes holding arrays, corrupted
// integer layouts, columns of the wrong shape, row starts and label ids out of range.
#include <gtest/gtest.h>
#include <hdf5.h>
#include <unistd.h>

#include <array>
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "crd/base/error.hpp"
#include "crd/base/version.hpp"
#include "crd/output/result_reader.hpp"
#include "crd/output/schema.hpp"
#include "crd/output/table_io.hpp"

namespace crd::output {
namespace {

class ResultChecksTest : public ::testing::Test {
 protected:
  void SetUp() override {
    path_ = (std::filesystem::temp_directory_path() /
             ("crd-checks-" + std::to_string(::getpid()) + "-" +
              ::testing::UnitTest::GetInstance()->current_test_info()->name() + ".h5"))
                .string();
    file_ = H5Fcreate(path_.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
    ASSERT_GE(file_, 0);
    attribute("/", "schema_version", H5T_STD_I64LE, {}, std::vector<std::uint64_t>{kSchemaVersion});
  }
  void TearDown() override {
    if (file_ >= 0) H5Fclose(file_);
    std::filesystem::remove(path_);
  }

  // An attribute of `type` holding `values` (dims empty: a scalar).
  void attribute(const std::string& object, const std::string& name, hid_t type, const std::vector<hsize_t>& dims,
                 const std::vector<std::uint64_t>& values) {
    const hid_t space = dims.empty() ? H5Screate(H5S_SCALAR) : H5Screate_simple(1, dims.data(), nullptr);
    const hid_t a =
        H5Acreate_by_name(file_, object.c_str(), name.c_str(), type, space, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    ASSERT_GE(a, 0);
    ASSERT_GE(H5Awrite(a, H5T_NATIVE_UINT64, values.data()), 0);
    H5Aclose(a);
    H5Sclose(space);
  }

  // A dataset of `type` with `dims` holding `values` converted from uint64.
  void dataset(const std::string& name, hid_t type, const std::vector<hsize_t>& dims,
               const std::vector<std::uint64_t>& values) {
    const hid_t space = H5Screate_simple(static_cast<int>(dims.size()), dims.data(), nullptr);
    const hid_t lcpl = H5Pcreate(H5P_LINK_CREATE);
    H5Pset_create_intermediate_group(lcpl, 1);
    const hid_t d = H5Dcreate2(file_, name.c_str(), type, space, lcpl, H5P_DEFAULT, H5P_DEFAULT);
    ASSERT_GE(d, 0);
    if (!values.empty()) {
      ASSERT_GE(H5Dwrite(d, H5T_NATIVE_UINT64, H5S_ALL, H5S_ALL, H5P_DEFAULT, values.data()), 0);
    }
    H5Dclose(d);
    H5Pclose(lcpl);
    H5Sclose(space);
  }

  std::unique_ptr<ResultReader> reopen() {
    H5Fclose(file_);
    file_ = H5I_INVALID_HID;
    return std::make_unique<ResultReader>(path_);
  }

  // The one-line refusal `read` throws: names the file and `object`, and says `rule`.
  template <class Read>
  void expect_refused(Read&& read, const std::string& object, const std::string& rule) {
    try {
      read();
      ADD_FAILURE() << "not refused: " << object;
    } catch (const FatalError& e) {
      const std::string what = e.what();
      EXPECT_EQ(what.find('\n'), std::string::npos) << what;
      EXPECT_NE(what.find("cannot read '" + path_ + "': " + object + " "), std::string::npos) << what;
      EXPECT_NE(what.find(rule), std::string::npos) << what;
    }
  }

  std::string path_;
  hid_t file_ = H5I_INVALID_HID;
};

constexpr std::uint64_t kA = 0x4141414141414141u;

// The schema's attributes are checked when the file is opened: every command refuses alike.
TEST_F(ResultChecksTest, AnAttributeHoldingAnArrayIsRefused) {
  attribute("/", "nranks", H5T_STD_U64LE, {2}, {kA, kA});
  expect_refused([&] { (void)reopen(); }, "/@nranks",
                 "holds shape (2,) (2 values); the schema says one value (a scalar)");
}

TEST_F(ResultChecksTest, AnAttributeOfTheWrongClassIsRefused) {
  attribute("/", "command", H5T_STD_U64LE, {}, {kA});
  expect_refused([&] { (void)reopen(); }, "/@command", "holds integers; the schema says str");
}

// An attribute the schema does not name is checked when it is read.
TEST_F(ResultChecksTest, AnUnknownAttributeIsCheckedWhenRead) {
  attribute("/", "unknown", H5T_STD_U64LE, {3}, {1, 2, 3});
  const auto r = reopen();
  expect_refused([&] { (void)r->attribute_u64("/", "unknown"); }, "/@unknown", "the schema says one value");
}

TEST_F(ResultChecksTest, ACorruptedIntegerLayoutIsRefusedBeforeHdf5ConvertsIt) {
  const hid_t odd = H5Tcopy(H5T_STD_U64LE);
  H5Tset_precision(odd, 16);
  H5Tset_offset(odd, 8);
  attribute("/", "nranks", odd, {}, {2});
  H5Tclose(odd);
  expect_refused([&] { (void)reopen(); }, "/@nranks",
                 "has a corrupted integer type (8 bytes, precision 16, bit offset 8");
}

TEST_F(ResultChecksTest, ACorruptedIntegerColumnIsRefusedBeforeHdf5ConvertsIt) {
  const hid_t odd = H5Tcopy(H5T_STD_U64LE);
  H5Tset_precision(odd, 16);
  H5Tset_offset(odd, 8);
  dataset("/run/counters/value", odd, {1}, {7});
  H5Tclose(odd);
  const auto r = reopen();
  expect_refused([&] { (void)r->read_u64("/run/counters/value"); }, "/run/counters/value",
                 "has a corrupted integer type (8 bytes, precision 16, bit offset 8");
}

TEST_F(ResultChecksTest, ColumnsOfAnotherShapeAreRefused) {
  dataset("/detection/pages/flagged", H5T_STD_U8LE, {3, 0}, {});
  dataset("/run/counters/value", H5T_STD_U64LE, {2, 3}, {1, 1, 1, 2, 2, 2});
  dataset("/labels/hash", H5T_STD_U8LE, {1, 19}, std::vector<std::uint64_t>(19, 0));
  const auto r = reopen();
  expect_refused([&] { (void)r->read_u8("/detection/pages/flagged"); }, "/detection/pages/flagged",
                 "has shape (3, 0); the schema says (n,)");
  expect_refused([&] { (void)r->rows("/run/counters/value"); }, "/run/counters/value",
                 "has shape (2, 3); the schema says (n,)");
  expect_refused([&] { (void)r->read_matrix("/labels/hash"); }, "/labels/hash",
                 "has shape (1, 19); the schema says (n, 20)");
}

TEST_F(ResultChecksTest, AFloatColumnOfIntegersIsRefused) {
  dataset("/detection/pages/containment", H5T_STD_U64LE, {2}, {1, 2});
  const auto r = reopen();
  expect_refused([&] { (void)r->read_f64("/detection/pages/containment"); }, "/detection/pages/containment",
                 "holds integers; the schema says floats (float64)");
}

// /detection/pages with 3 rows whose label ids point into a labels table of 2 rows.
class PagesTable : public ResultChecksTest {
 protected:
  void pages(const std::vector<std::uint64_t>& offsets, const std::vector<std::uint64_t>& ids) {
    dataset("/detection/pages/chunks", H5T_STD_U32LE, {3}, {4, 5, 6});
    dataset("/detection/pages/label_ids_offsets", H5T_STD_U64LE, {offsets.size()}, offsets);
    dataset("/detection/pages/label_ids", H5T_STD_U32LE, {ids.size()}, ids);
    dataset("/detection/labels/length", H5T_STD_U32LE, {2}, {10, 20});
  }
};

TEST_F(PagesTable, WellFormedRowsAreRead) {
  pages({0, 1, 1, 4}, {1, 0, 1, 0});  // 4 label ids in 3 rows: the values column is not a table column
  const auto r = reopen();
  const auto rows = read_table(*r, schema::kPages);
  ASSERT_EQ(rows.size(), 3u);
  EXPECT_EQ(rows[0].label_ids, (std::vector<std::uint32_t>{1}));
  EXPECT_TRUE(rows[1].label_ids.empty());
  EXPECT_EQ(rows[2].label_ids, (std::vector<std::uint32_t>{0, 1, 0}));
  EXPECT_EQ(rows[2].chunks, 6u);
}

TEST_F(PagesTable, RowStartsOneShortAreRefused) {
  pages({0, 1, 1}, {1, 0, 1});
  const auto r = reopen();
  expect_refused([&] { (void)read_table(*r, schema::kPages); }, "/detection/pages/label_ids_offsets",
                 "has 3 rows but /detection/pages/chunks has 3 (row starts: one more row than the table)");
}

TEST_F(PagesTable, DecreasingRowStartsAreRefused) {
  pages({0, 3, 1, 3}, {1, 0, 1});
  const auto r = reopen();
  expect_refused([&] { (void)read_table(*r, schema::kPages); }, "/detection/pages/label_ids_offsets",
                 "row starts decrease (3 then 1); they must ascend");
}

TEST_F(PagesTable, RowStartsPastTheValuesAreRefused) {
  pages({0, 1, 1, std::uint64_t{1} << 62}, {1, 0, 1});
  const auto r = reopen();
  expect_refused([&] { (void)r->read_u64("/detection/pages/label_ids_offsets"); }, "/detection/pages/label_ids_offsets",
                 "holds row start 4611686018427387904 past the end of /detection/pages/label_ids (3 rows)");
}

TEST_F(PagesTable, LabelIdsPastTheLabelsTableAreRefused) {
  pages({0, 1, 1, 3}, {1, 4294967280u, 1});
  const auto r = reopen();
  expect_refused([&] { (void)read_table(*r, schema::kPages); }, "/detection/pages/label_ids",
                 "holds row 4294967280 of /detection/labels, which has 2 rows");
}

}  // namespace
}  // namespace crd::output
