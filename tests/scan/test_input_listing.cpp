// share_inputs on 1–4 thread ranks: several inputs (or a checkpointed job) give rank 0 the list one
// serial expansion gives and each rank exactly its assign_shards share of it; one directory alone
// is dealt where it is walked, the ranks together holding the serial list. The same skip counts in
// total, and a usage error on every rank.
#include <gtest/gtest.h>

#include <sys/stat.h>

#include <filesystem>
#include <fstream>
#include <algorithm>
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
    // One directory past kSplitDirectoryBytes, so the default walk shares it among the ranks.
    for (int f = 0; f < 2000; ++f) write(fs::path(root_) / "wide" / ("file-number-" + std::to_string(f) + ".html"), 1 + f % 7);
    write(fs::path(root_) / "wide" / "sub" / "inner.html", 2);
    // Archives crd refuses by name, one in each of five directories that different ranks walk.
    for (int d = 0; d < 5; ++d) {
      write(fs::path(root_) / "refused" / ("d" + std::to_string(d)) / "page.html", 4 + d);
      write(fs::path(root_) / "refused" / ("d" + std::to_string(d)) / "crawl.warc.bz2", 6);
    }
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

// shared_walk with every directory shared (split_bytes 0), none, and the default (the wide one):
// rank 0 gets exactly the serial walk's files and sizes, and each skip and error is logged once.
TEST_P(InputListing, SharedDirectoriesAreReadOnce) {
  struct stat wide {};
  ASSERT_EQ(::stat((root_ + "/wide").c_str(), &wide), 0);
  ASSERT_GT(static_cast<std::uint64_t>(wide.st_size), kSplitDirectoryBytes);  // the default shares it
  for (const std::string tree : {"tree", "wide"}) {
    io::InputLog serial_log;
    auto serial = io::walk_directory(root_ + "/" + tree, serial_log);
    std::sort(serial.begin(), serial.end(), [](const auto& a, const auto& b) { return a.rel < b.rel; });
    for (const std::uint64_t split : {std::uint64_t{0}, kSplitDirectoryBytes, ~std::uint64_t{0}}) {
      std::mutex m;
      io::InputLog summed;
      comm::run_local(GetParam(), [&](comm::Transport& t) {
        io::InputLog mine;
        const auto files = shared_walk(t, root_ + "/" + tree, mine, split);
        if (t.rank() == 0) {
          ASSERT_EQ(files.size(), serial.size()) << tree << " split " << split;
          for (std::size_t i = 0; i < files.size(); ++i) {
            EXPECT_EQ(files[i].rel, serial[i].rel);
            EXPECT_EQ(files[i].size, serial[i].size);
          }
        } else {
          EXPECT_TRUE(files.empty());
        }
        std::lock_guard lock(m);
        summed.counters.merge(mine.counters);
        summed.errors.insert(summed.errors.end(), mine.errors.begin(), mine.errors.end());
      });
      EXPECT_EQ(summed.counters.values(), serial_log.counters.values()) << tree << " split " << split;
      ASSERT_EQ(summed.errors.size(), serial_log.errors.size()) << tree << " split " << split;
      for (std::size_t i = 0; i < summed.errors.size(); ++i) EXPECT_EQ(summed.errors[i].file, serial_log.errors[i].file);
    }
  }
}

// One directory named alone is listed where it is walked: together the ranks hold exactly the files
// of the serial expansion, each once, and each rank about 1/n of the files and of the bytes (every
// rank deals its part largest first, so a rank's share of each part is within one file of 1/n).
TEST_P(InputListing, OneDirectoryIsDealtWhereItIsWalked) {
  const auto n = static_cast<std::size_t>(GetParam());
  for (const std::string tree : {"tree", "wide"}) {
    const std::vector<std::string> args{root_ + "/" + tree};
    io::InputLog serial_log;
    const auto serial = io::expand_inputs(args, {}, serial_log);
    std::uint64_t largest = 0;
    for (const auto& f : serial) largest = std::max(largest, f.size);
    std::mutex m;
    io::InputLog summed;
    std::vector<io::InputFile> together;
    comm::run_local(GetParam(), [&](comm::Transport& t) {
      io::InputLog mine;
      const InputShare share = share_inputs(t, args, {}, mine);
      EXPECT_EQ(share.job_bytes, io::total_bytes(serial));
      ASSERT_EQ(share.mine.size(), share.files.size());  // a rank holds its own files only
      const std::size_t count = share.files.size();
      EXPECT_LE(count, serial.size() / n + n) << tree;
      EXPECT_GE(count + n, serial.size() / n) << tree;
      const std::uint64_t bytes = io::total_bytes(share.files);
      EXPECT_LE(bytes, io::total_bytes(serial) / n + n * largest) << tree;
      EXPECT_GE(bytes + n * largest, io::total_bytes(serial) / n) << tree;
      // In url order, as a one-rank listing is: files read out of order scan slower.
      EXPECT_TRUE(std::is_sorted(share.files.begin(), share.files.end(),
                                 [](const io::InputFile& a, const io::InputFile& b) { return a.url < b.url; }))
          << tree;
      std::lock_guard lock(m);
      for (const std::size_t k : share.mine) together.push_back(share.files[k]);
      summed.counters.merge(mine.counters);
      summed.errors.insert(summed.errors.end(), mine.errors.begin(), mine.errors.end());
    });
    std::sort(together.begin(), together.end(), [](const auto& a, const auto& b) { return a.path < b.path; });
    ASSERT_EQ(together.size(), serial.size()) << tree;
    for (std::size_t i = 0; i < serial.size(); ++i) expect_same(together[i], serial[i]);
    EXPECT_EQ(summed.counters.values(), serial_log.counters.values()) << tree;
    EXPECT_EQ(summed.errors.size(), serial_log.errors.size()) << tree;
  }
}

// What any rank's part of the walk left out is warned about on stderr, by rank 0 alone: each
// refused archive once, whichever rank walked its directory.
TEST_P(InputListing, WhatAnyRankLeftOutIsWarnedOnce) {
  const std::vector<std::string> args{root_ + "/refused"};
  ::testing::internal::CaptureStderr();
  std::mutex m;
  std::uint64_t refused = 0;
  comm::run_local(GetParam(), [&](comm::Transport& t) {
    io::InputLog mine;
    share_inputs(t, args, {}, mine);
    std::lock_guard lock(m);
    refused += mine.errors.size();
  });
  const std::string err = ::testing::internal::GetCapturedStderr();
  EXPECT_EQ(refused, 5u);
  for (int d = 0; d < 5; ++d) {
    const std::string line =
        "crd: warning: left out " + root_ + "/refused/d" + std::to_string(d) + "/crawl.warc.bz2: compressed with bzip2";
    const std::size_t at = err.find(line);
    EXPECT_NE(at, std::string::npos) << d << "\n" << err;
    EXPECT_EQ(err.find(line, at + 1), std::string::npos) << d;  // once
  }
}

// A checkpointed job lists on rank 0 (its fingerprint covers every input): rank 0 holds the whole
// serial list, and each rank exactly its assign_shards share, for one directory too.
TEST_P(InputListing, RankZeroListsAllWhenAskedTo) {
  const std::vector<std::string> args{root_ + "/tree"};
  io::InputLog serial_log;
  const auto serial = io::expand_inputs(args, {}, serial_log);
  const auto shards = io::assign_shards(serial, GetParam());
  comm::run_local(GetParam(), [&](comm::Transport& t) {
    io::InputLog mine;
    const InputShare share = share_inputs(t, args, {}, mine, true);
    const auto& shard = shards[static_cast<std::size_t>(t.rank())];
    ASSERT_EQ(share.mine.size(), shard.size());
    for (std::size_t k = 0; k < shard.size(); ++k) expect_same(share.files.at(share.mine[k]), serial[shard[k]]);
    if (t.rank() == 0) {
      ASSERT_EQ(share.files.size(), serial.size());
      for (std::size_t i = 0; i < serial.size(); ++i) expect_same(share.files[i], serial[i]);
    }
  });
}

TEST(EntrySlice, SlicesPartitionNames) {
  for (std::size_t count : {1u, 2u, 3u, 5u}) {
    for (int n = 0; n < 500; ++n) {
      const std::string name = "entry-" + std::to_string(n);
      int takers = 0;
      for (std::size_t index = 0; index < count; ++index) takers += io::EntrySlice{index, count}.takes(name) ? 1 : 0;
      EXPECT_EQ(takers, 1) << name << " in " << count << " slices";
    }
  }
}

// One directory alone is dealt by scan weight too (io::scan_weight): a .warc.gz's bytes weigh
// kGzipScanWeight times a plain file's. At 2 ranks the walk of one small directory is rank 0's,
// and its files go to ranks 0, 1, 1, … in that order: the two archives first, one to each rank.
// By bytes on disk the plain WARC came first and rank 1 got both archives (3,600 against 1,000).
TEST(OneDirectoryDeal, GzipArchivesWeighTheirInflatedBytes) {
  const std::string root = crd::testing::make_temp_dir("input-listing-weight");
  write(fs::path(root) / "a.warc", 1000);
  write(fs::path(root) / "b.warc.gz", 300);
  write(fs::path(root) / "c.warc.gz", 300);
  std::mutex m;
  std::vector<std::vector<std::string>> names(2);
  comm::run_local(2, [&](comm::Transport& t) {
    io::InputLog log;
    const InputShare share = share_inputs(t, {root}, {}, log);
    std::lock_guard lock(m);
    for (std::size_t i : share.mine) names[static_cast<std::size_t>(t.rank())].push_back(share.files[i].url);
  });
  EXPECT_EQ(names[0], (std::vector<std::string>{"b.warc.gz"}));
  EXPECT_EQ(names[1], (std::vector<std::string>{"a.warc", "c.warc.gz"}));
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
