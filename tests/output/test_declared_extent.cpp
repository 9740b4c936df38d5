// ResultReader against hostile HDF5 files: datasets that declare more rows
// than the file stores, reads over --memory, tables whose columns differ in length, and the
// saturating narrowing of written columns. The files are made with the HDF5 C API, as a hostile
// user would make them with h5py.
#include <gtest/gtest.h>
#include <hdf5.h>
#include <unistd.h>

#include <array>
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "crd/base/error.hpp"
#include "crd/base/counters.hpp"
#include "crd/base/saturating.hpp"
#include "crd/base/version.hpp"
#include "crd/output/result_reader.hpp"
#include "crd/output/schema.hpp"
#include "crd/output/table_io.hpp"

namespace crd::output {
namespace {

class DeclaredExtent : public ::testing::Test {
 protected:
  void SetUp() override {
    path_ = (std::filesystem::temp_directory_path() / ("crd-declared-" + std::to_string(::getpid()) + "-" +
                                                       ::testing::UnitTest::GetInstance()->current_test_info()->name() +
                                                       ".h5"))
                .string();
    file_ = H5Fcreate(path_.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
    ASSERT_GE(file_, 0);
    const std::int64_t version = kSchemaVersion;
    const hid_t scalar = H5Screate(H5S_SCALAR);
    const hid_t a = H5Acreate2(file_, "schema_version", H5T_STD_I64LE, scalar, H5P_DEFAULT, H5P_DEFAULT);
    H5Awrite(a, H5T_NATIVE_INT64, &version);
    H5Aclose(a);
    H5Sclose(scalar);
  }
  void TearDown() override {
    if (file_ >= 0) H5Fclose(file_);
    std::filesystem::remove(path_);
  }

  // A 2-D uint8 dataset of rows × 20 (or 1-D when width is 0); chunk rows 0 = contiguous;
  // written_rows rows of `value` are written from row 0.
  void dataset(const std::string& name, hsize_t rows, hsize_t width, hsize_t chunk_rows, hsize_t written_rows,
               bool deflate = false, std::uint8_t value = 0) {
    const int rank = width > 0 ? 2 : 1;
    const std::array<hsize_t, 2> dims{rows, width};
    const hid_t space = H5Screate_simple(rank, dims.data(), nullptr);
    const hid_t dcpl = H5Pcreate(H5P_DATASET_CREATE);
    if (chunk_rows > 0) {
      const std::array<hsize_t, 2> chunk{chunk_rows, width};
      H5Pset_chunk(dcpl, rank, chunk.data());
      if (deflate) H5Pset_deflate(dcpl, 9);
    }
    const hid_t lcpl = H5Pcreate(H5P_LINK_CREATE);
    H5Pset_create_intermediate_group(lcpl, 1);
    const hid_t d = H5Dcreate2(file_, name.c_str(), H5T_STD_U8LE, space, lcpl, dcpl, H5P_DEFAULT);
    ASSERT_GE(d, 0);
    if (written_rows > 0) {
      const std::array<hsize_t, 2> start{0, 0}, count{written_rows, width};
      H5Sselect_hyperslab(space, H5S_SELECT_SET, start.data(), nullptr, count.data(), nullptr);
      const hid_t mem = H5Screate_simple(rank, count.data(), nullptr);
      std::vector<std::uint8_t> data(written_rows * std::max<hsize_t>(width, 1), value);
      ASSERT_GE(H5Dwrite(d, H5T_NATIVE_UINT8, mem, space, H5P_DEFAULT, data.data()), 0);
      H5Sclose(mem);
    }
    H5Dclose(d);
    H5Pclose(lcpl);
    H5Pclose(dcpl);
    H5Sclose(space);
  }

  // Closes the file being written and opens it as crd would.
  ResultReader reopen(std::uint64_t memory_budget = 0) {
    H5Fclose(file_);
    file_ = H5I_INVALID_HID;
    return ResultReader(path_, memory_budget);
  }

  // The FatalError message of reading all of `name`, or "" if it reads.
  static std::string read_error(const ResultReader& r, const std::string& name) {
    try {
      (void)r.read_matrix(name);
    } catch (const FatalError& e) {
      return e.what();
    }
    return "";
  }

  std::string path_;
  hid_t file_ = H5I_INVALID_HID;
};

constexpr hsize_t kHuge = hsize_t{1} << 33;  // a hostile (2^33, 20) hash column: 160 GiB declared

TEST_F(DeclaredExtent, ChunkedWithoutDataIsRefused) {
  dataset("/labels/hash", kHuge, 20, 1 << 16, 0);
  const ResultReader r = reopen();
  const std::string e = read_error(r, "/labels/hash");
  EXPECT_NE(e.find("/labels/hash declares shape (8589934592, 20) (171798691840 bytes) but stores no data"),
            std::string::npos) << e;
  EXPECT_EQ(e.find('\n'), std::string::npos) << e;
  // A ranged read (the way detect reads labels, 65,536 rows at a time) is refused alike.
  EXPECT_THROW((void)r.read_matrix("/labels/hash", 0, 1 << 16), FatalError);
}

TEST_F(DeclaredExtent, ContiguousNeverAllocatedIsRefused) {
  dataset("/labels/hash", kHuge, 20, 0, 0);
  const ResultReader r = reopen();
  EXPECT_NE(read_error(r, "/labels/hash").find("but stores no data"), std::string::npos);
}

TEST_F(DeclaredExtent, ChunkedWithOnlySomeChunksWrittenIsRefused) {
  dataset("/discovery/chunk_counts/count", 1u << 20, 0, 1 << 16, 1);  // 16 chunks, one written
  const ResultReader r = reopen();
  const std::string e = read_error(r, "/discovery/chunk_counts/count");
  EXPECT_NE(e.find("stores only 1 of its 16 chunks"), std::string::npos) << e;
}

TEST_F(DeclaredExtent, ExternalStorageIsRefused) {
  // Raw data in another file (any file: /dev/zero reads forever as zeros): crd never writes one.
  const hsize_t rows = 1u << 20;
  const hid_t space = H5Screate_simple(1, &rows, nullptr);
  const hid_t dcpl = H5Pcreate(H5P_DATASET_CREATE);
  ASSERT_GE(H5Pset_external(dcpl, "/dev/zero", 0, H5F_UNLIMITED), 0);
  const hid_t d = H5Dcreate2(file_, "counts", H5T_STD_U64LE, space, H5P_DEFAULT, dcpl, H5P_DEFAULT);
  ASSERT_GE(d, 0);
  H5Dclose(d);
  H5Pclose(dcpl);
  H5Sclose(space);
  const ResultReader r = reopen();
  try {
    (void)r.read_u64("counts");
    FAIL() << "read a dataset kept in /dev/zero";
  } catch (const FatalError& e) {
    EXPECT_NE(std::string(e.what()).find("keeps its data outside the file"), std::string::npos) << e.what();
  }
}

TEST_F(DeclaredExtent, WrittenDatasetsRead) {
  dataset("/a/contiguous", 1000, 20, 0, 1000, false, 3);
  dataset("/a/chunked", 1000, 20, 64, 1000, false, 4);
  dataset("/a/deflated", 1u << 16, 20, 1 << 12, 1u << 16, true, 0);  // zeros: about 1000 to 1
  dataset("/a/empty", 0, 20, 0, 0);
  const ResultReader r = reopen();
  EXPECT_EQ(r.read_matrix("/a/contiguous"), std::vector<std::uint8_t>(20000, 3));
  EXPECT_EQ(r.read_matrix("/a/chunked"), std::vector<std::uint8_t>(20000, 4));
  EXPECT_EQ(r.read_matrix("/a/deflated"), std::vector<std::uint8_t>(20u << 16, 0));
  EXPECT_TRUE(r.read_matrix("/a/empty").empty());
}

TEST_F(DeclaredExtent, ReadsOverTheMemoryBudgetAreRefusedBeforeTheyAllocate) {
  dataset("/labels/hash", 1u << 16, 20, 1 << 12, 1u << 16, true, 0);  // 1.25 MiB in memory
  const ResultReader r = reopen(1u << 20);                             // --memory 1M
  // Block by block, as the label loader reads: the budget covers everything read from the file.
  std::uint64_t rows = 0;
  try {
    for (std::uint64_t first = 0; first < (1u << 16); first += 1u << 12)
      rows += r.read_matrix("/labels/hash", first, 1u << 12).size() / 20;
    FAIL() << "read 1.25 MiB under a 1 MiB budget";
  } catch (const FatalError& e) {
    EXPECT_NE(std::string(e.what()).find("over the 1048576 bytes --memory allows"), std::string::npos) << e.what();
  }
  EXPECT_LE(rows * 20, 1u << 20);
  EXPECT_GT(rows, 0u);
}

TEST_F(DeclaredExtent, TableColumnsOfOtherLengthsAreRefused) {
  // /run/counters with a value column one short: the last counter would vanish without a word.
  const hid_t text = H5Tcopy(H5T_C_S1);
  H5Tset_size(text, 8);
  const hsize_t names_rows = 3, values_rows = 2;
  const hid_t lcpl = H5Pcreate(H5P_LINK_CREATE);
  H5Pset_create_intermediate_group(lcpl, 1);
  const hid_t names_space = H5Screate_simple(1, &names_rows, nullptr);
  const hid_t names = H5Dcreate2(file_, "/run/counters/name", text, names_space, lcpl, H5P_DEFAULT, H5P_DEFAULT);
  const char name_bytes[] = "a\0\0\0\0\0\0\0b\0\0\0\0\0\0\0c\0\0\0\0\0\0";
  H5Dwrite(names, text, H5S_ALL, H5S_ALL, H5P_DEFAULT, name_bytes);
  const hid_t values_space = H5Screate_simple(1, &values_rows, nullptr);
  const hid_t values =
      H5Dcreate2(file_, "/run/counters/value", H5T_STD_U64LE, values_space, lcpl, H5P_DEFAULT, H5P_DEFAULT);
  const std::uint64_t value_data[] = {1, 2};
  H5Dwrite(values, H5T_NATIVE_UINT64, H5S_ALL, H5S_ALL, H5P_DEFAULT, value_data);
  for (const hid_t id : {names, values}) H5Dclose(id);
  for (const hid_t id : {names_space, values_space}) H5Sclose(id);
  H5Pclose(lcpl);
  H5Tclose(text);
  const ResultReader r = reopen();
  try {
    (void)read_table(r, schema::kCounters);
    FAIL() << "a counters table with a short value column was read";
  } catch (const FatalError& e) {
    EXPECT_NE(std::string(e.what()).find("/run/counters/value has 2 rows but /run/counters/name has 3"),
              std::string::npos)
        << e.what();
  }
}

TEST(SaturatingCounts, SumsStopAtTheLargestValue) {
  EXPECT_EQ(saturating_add(kSaturated, 1), kSaturated);
  EXPECT_EQ(saturating_add(kSaturated - 1, 1), kSaturated);
  EXPECT_EQ(saturating_add(kSaturated, kSaturated), kSaturated);
  EXPECT_EQ(saturating_add(2, 3), 5u);
  Counters c;
  c.add("x", kSaturated);
  c.add("x", 5);
  EXPECT_EQ(c.get("x"), kSaturated);
}

TEST(SaturatingCounts, NarrowedColumnsClampInsteadOfWrapping) {
  EXPECT_EQ(narrow_saturated<std::uint32_t>(std::uint64_t{1} << 63), 0xffffffffu);  // not 0
  EXPECT_EQ(narrow_saturated<std::uint32_t>(std::uint64_t{1} << 32), 0xffffffffu);
  EXPECT_EQ(narrow_saturated<std::uint32_t>(std::uint64_t{12345}), 12345u);
}

}  // namespace
}  // namespace crd::output
