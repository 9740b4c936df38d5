// ResultFile failure paths under mpirun: uncreatable files fail on every rank and leave nothing;
// an uncommitted file disappears; a committed one appears under its final name only.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "crd/comm/mpi_transport.hpp"
#include "crd/base/error.hpp"
#include "crd/output/result_file.hpp"
#include "support/test_paths.hpp"

namespace crd::output {
namespace {
namespace fs = std::filesystem;

// One scratch directory shared by all ranks (rank 0 creates it, the others learn its name).
std::string shared_dir(comm::MpiTransport& t, const std::string& tag) {
  std::string dir = t.rank() == 0 ? crd::testing::make_temp_dir(tag) : std::string();
  std::vector<std::byte> all;
  std::vector<std::uint64_t> counts;
  t.allgatherv(std::as_bytes(std::span<const char>(dir.data(), dir.size())), all, counts);
  return std::string(reinterpret_cast<const char*>(all.data()), counts[0]);
}

std::size_t entries(const std::string& dir) {
  return static_cast<std::size_t>(std::distance(fs::directory_iterator(dir), fs::directory_iterator()));
}

TEST(ResultFileErrors, MissingDirectoryFailsOnEveryRank) {
  comm::MpiTransport t;
  const std::string dir = shared_dir(t, "rf-missing");
  bool threw = false;
  try {
    ResultFile f(t, dir + "/no/such/dir/out.h5");
  } catch (const FatalError& e) {
    threw = true;
    EXPECT_NE(std::string(e.what()).find("out.h5"), std::string::npos) << e.what();
  }
  EXPECT_TRUE(threw);
  EXPECT_EQ(t.sum(threw ? 1 : 0), static_cast<std::uint64_t>(t.size()));
  t.barrier();
  EXPECT_EQ(entries(dir), 0u);
}

TEST(ResultFileErrors, FileInPlaceOfDirectoryFailsOnEveryRank) {
  comm::MpiTransport t;
  const std::string dir = shared_dir(t, "rf-notdir");
  if (t.rank() == 0) std::ofstream(dir + "/plain") << "x";
  t.barrier();
  EXPECT_THROW(ResultFile(t, dir + "/plain/out.h5"), FatalError);
  t.barrier();
  EXPECT_EQ(entries(dir), 1u);  // only the plain file
}

TEST(ResultFileErrors, UncommittedFileIsRemoved) {
  comm::MpiTransport t;
  const std::string dir = shared_dir(t, "rf-abandon");
  {
    ResultFile f(t, dir + "/out.h5");
    std::vector<std::uint64_t> v(static_cast<std::size_t>(t.rank()) * 3, 9);
    f.write_column("/x", std::span<const std::uint64_t>(v));
    t.barrier();
    EXPECT_EQ(entries(dir), 1u);  // the hidden temporary
    EXPECT_FALSE(fs::exists(dir + "/out.h5"));
  }
  EXPECT_EQ(entries(dir), 0u);
}

TEST(ResultFileErrors, CommitRenamesIntoPlace) {
  comm::MpiTransport t;
  const std::string dir = shared_dir(t, "rf-commit");
  {
    ResultFile f(t, dir + "/out.h5");
    f.set_attribute("/", "k", std::uint64_t{1});
    f.commit();
    EXPECT_TRUE(fs::exists(dir + "/out.h5"));
    EXPECT_EQ(entries(dir), 1u);
  }
  EXPECT_TRUE(fs::exists(dir + "/out.h5"));  // destructor after commit keeps it
  t.barrier();
}

TEST(ResultFileErrors, BadMatrixWidthFailsOnEveryRank) {
  comm::MpiTransport t;
  const std::string dir = shared_dir(t, "rf-matrix");
  ResultFile f(t, dir + "/out.h5");
  std::vector<std::uint8_t> data(t.rank() == 0 ? 7 : 20, 1);  // 7 is not a multiple of 20
  EXPECT_THROW(f.write_matrix("/m", data, 20), FatalError);
  std::vector<std::uint8_t> ok(20, 1);
  f.write_matrix("/m2", ok, 20);  // the file is still usable afterwards
  f.commit();
  EXPECT_TRUE(fs::exists(dir + "/out.h5"));
}

}  // namespace
}  // namespace crd::output
