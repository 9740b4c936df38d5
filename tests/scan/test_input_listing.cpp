// share_inputs: the directory walk shared by 1–4 thread ranks gives rank 0 the list one serial
// expansion gives, each rank exactly its assign_shards share of it, the same skip counts in total,
// and a usage error on every rank.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <mutex>

#include "crd/comm/local_transport.hpp"
#include "crd/base/error.hpp"
#include "crd/scan/input_listing.hpp"
#include "support/test_paths.hpp"

namespace crd::scan {
namespace {

namespace fs = std::filesystem;

void write(const fs::path& p, std::size_t bytes) {
  fs::create_directories(p.parent_path());
  std::ofstream(p) << std::string(bytes, 'x');
}

// Levels of different widths, so that rounds deal out 1, 3, 9, … directories.
class InputListing : public ::testing::TestWithParam<int> {
 protected:
  static void SetUpTestSuite() {
    root_ = crd::testing::make_temp_dir("input-listing");
    std::size_t n = 0;
    for (int a = 0; a < 3; ++a)
      for (int b = 0; b < 3; ++b)
        for (int c = 0; c < a + b; ++c) {
          const fs::path dir = fs::path(root_) / "tree" / std::to_string(a) / std::to_string(b) / std::to_string(c);
          for (int f = 0; f <= c; ++f) write(dir / ("page" + std::to_string(f) + ".html"), ++n);
        }
    write(fs::path(root_) / "tree" / "top.html", 3);
    write(fs::path(root_) / "tree" / "1" / "crawl.warc.gz", 7);  // listed as an archive
    write(fs::path(root_) / "tree" / "1" / "old.arc", 9);
    write(fs::path(root_) / "other" / "deep" / "er" / "x.htm", 5);
    fs::create_directory_symlink(fs::path(root_) / "other", fs::path(root_) / "tree" / "loop");
    fs::create_symlink(fs::path(root_) / "nowhere", fs::path(root_) / "tree" / "dangling.html");
    fs::create_directories(fs::path(root_) / "empty" / "still-empty");
  }
  static std::string root_;
};
std::string InputListing::root_;

void expect_same(const io::InputFile& got, const io::InputFile& want) {
  EXPECT_EQ(got.path, want.path);
  EXPECT_EQ(got.url, want.url);
  EXPECT_EQ(got.size, want.size);
  EXPECT_EQ(got.kind, want.kind);
}

TEST_P(InputListing, EachRankGetsItsShareOfTheSerialList) {
  const std::vector<std::string> args{root_ + "/tree", root_ + "/other", root_ + "/tree/top.html"};
  io::InputLog serial_log;
  const auto serial = io::expand_inputs(args, {}, serial_log);
  ASSERT_EQ(serial.size(), 37u);  // 33 in the levels, 2 archives, top.html once, x.htm
  const auto shards = io::assign_shards(serial, GetParam());
  std::mutex m;
  io::InputLog summed;
  std::size_t shared = 0;
  comm::run_local(GetParam(), [&](comm::Transport& t) {
    io::InputLog mine;
    const InputShare share = share_inputs(t, args, {}, mine);
    EXPECT_EQ(share.job_bytes, io::total_bytes(serial));
    const auto& shard = shards[static_cast<std::size_t>(t.rank())];
    ASSERT_EQ(share.mine.size(), shard.size());
    for (std::size_t k = 0; k < shard.size(); ++k) expect_same(share.files.at(share.mine[k]), serial[shard[k]]);
    if (t.rank() == 0) {  // every file of the job
      ASSERT_EQ(share.files.size(), serial.size());
      for (std::size_t i = 0; i < serial.size(); ++i) expect_same(share.files[i], serial[i]);
    } else {  // its own only
      EXPECT_EQ(share.files.size(), shard.size());
    }
    std::lock_guard lock(m);
    shared += share.mine.size();
    summed.counters.merge(mine.counters);
    summed.errors.insert(summed.errors.end(), mine.errors.begin(), mine.errors.end());
  });
  EXPECT_EQ(shared, serial.size());  // every file read by exactly one rank (shards are disjoint)
  EXPECT_EQ(summed.counters.values(), serial_log.counters.values());
  EXPECT_EQ(summed.counters.get("skipped.input.dir_symlink"), 1u);
  EXPECT_EQ(summed.counters.get("skipped.input.missing"), 1u);
  EXPECT_EQ(summed.counters.get("skipped.input.duplicate"), 1u);
  // The dangling link is named on whichever rank read its directory.
  ASSERT_EQ(summed.errors.size(), 1u);
  EXPECT_EQ(summed.errors[0].file, root_ + "/tree/dangling.html");
  EXPECT_EQ(summed.errors[0].reason, "input.missing");
}

TEST_P(InputListing, NoFilesIsAUsageErrorOnEveryRank) {
  std::mutex m;
  int errors = 0;
  comm::run_local(GetParam(), [&](comm::Transport& t) {
    io::InputLog c;
    try {
      share_inputs(t, {root_ + "/empty"}, {}, c);
    } catch (const UsageError& e) {
      EXPECT_NE(std::string(e.what()).find("no input files"), std::string::npos);
      std::lock_guard lock(m);
      ++errors;
    }
  });
  EXPECT_EQ(errors, GetParam());
}

INSTANTIATE_TEST_SUITE_P(Ranks, InputListing, ::testing::Values(1, 2, 3, 4));

}  // namespace
}  // namespace crd::scan
