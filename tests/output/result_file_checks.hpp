// ResultFile's life cycle and failure paths, checked on any transport: under mpirun (parallel HDF5)
// and on the thread ranks of comm::run_local (rank 0 writes alone). Uncreatable files fail on every
// rank and leave nothing; a failed write fails every rank alike; an uncommitted file disappears; a
// committed one appears under its final name only.
#pragma once

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "crd/comm/collectives.hpp"
#include "crd/comm/transport.hpp"
#include "crd/base/error.hpp"
#include "crd/output/result_file.hpp"
#include "support/test_paths.hpp"

namespace crd::output::testing {
namespace fs = std::filesystem;

// One scratch directory shared by all ranks (rank 0 creates it, the others learn its name).
inline std::string shared_dir(comm::Transport& t, const std::string& tag) {
  return comm::broadcast_from_rank0<std::string>(t, t.rank() == 0 ? crd::testing::make_temp_dir(tag) : std::string());
}

inline std::size_t entries(const std::string& dir) {
  return static_cast<std::size_t>(std::distance(fs::directory_iterator(dir), fs::directory_iterator()));
}

inline void check_missing_directory_fails_on_every_rank(comm::Transport& t) {
  const std::string dir = shared_dir(t, "rf-missing");
  std::string message;
  try {
    ResultFile f(t, dir + "/no/such/dir/out.h5");
  } catch (const FatalError& e) {
    message = e.what();
  }
  EXPECT_EQ(message, "cannot create result file " + dir + "/no/such/dir/out.h5: rank 0: No such file or directory");
  EXPECT_EQ(comm::broadcast_from_rank0<std::string>(t, message), message);  // the same on every rank
  t.barrier();
  EXPECT_EQ(entries(dir), 0u);
}

inline void check_file_in_place_of_directory_fails_on_every_rank(comm::Transport& t) {
  const std::string dir = shared_dir(t, "rf-notdir");
  if (t.rank() == 0) std::ofstream(dir + "/plain") << "x";
  t.barrier();
  EXPECT_THROW(ResultFile(t, dir + "/plain/out.h5"), FatalError);
  t.barrier();
  EXPECT_EQ(entries(dir), 1u);  // only the plain file
}

inline void check_uncommitted_file_is_removed(comm::Transport& t) {
  const std::string dir = shared_dir(t, "rf-abandon");
  {
    ResultFile f(t, dir + "/out.h5");
    std::vector<std::uint64_t> v(static_cast<std::size_t>(t.rank()) * 3, 9);
    f.write_column("/x", std::span<const std::uint64_t>(v));
    t.barrier();
    EXPECT_EQ(entries(dir), 2u);  // the hidden temporary and its lock file
    EXPECT_FALSE(fs::exists(dir + "/out.h5"));
  }
  EXPECT_EQ(entries(dir), 0u);
}

// A write that fails where the file is written (here: the dataset exists already) fails on every
// rank with one message, and the abandoned file is removed.
inline void check_failed_write_fails_every_rank_and_leaves_nothing(comm::Transport& t) {
  const std::string dir = shared_dir(t, "rf-failed-write");
  {
    ResultFile f(t, dir + "/out.h5");
    const std::vector<std::uint64_t> v(static_cast<std::size_t>(t.rank()) + 1, 7);
    f.write_column("/x", std::span<const std::uint64_t>(v));
    std::string message;
    try {
      f.write_column("/x", std::span<const std::uint64_t>(v));
    } catch (const FatalError& e) {
      message = e.what();
    }
    EXPECT_EQ(message.rfind("cannot write result file " + dir + "/out.h5: rank 0: writing /x: ", 0), 0u) << message;
    EXPECT_EQ(comm::broadcast_from_rank0<std::string>(t, message), message);
  }
  EXPECT_EQ(entries(dir), 0u);
}

inline void check_commit_renames_into_place(comm::Transport& t) {
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

inline void check_bad_matrix_width_fails_on_every_rank(comm::Transport& t) {
  const std::string dir = shared_dir(t, "rf-matrix");
  ResultFile f(t, dir + "/out.h5");
  std::vector<std::uint8_t> data(t.rank() == 0 ? 7 : 20, 1);  // 7 is not a multiple of 20
  EXPECT_THROW(f.write_matrix("/m", data, 20), FatalError);
  std::vector<std::uint8_t> ok(20, 1);
  f.write_matrix("/m2", ok, 20);  // the file is still usable afterwards
  f.commit();
  EXPECT_TRUE(fs::exists(dir + "/out.h5"));
}

}  // namespace crd::output::testing
