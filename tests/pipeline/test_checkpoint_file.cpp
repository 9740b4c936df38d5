// Checkpoint file framing: a checkpoint with any one byte changed, cut short at
// any length, or of another format version is never used, and the reason names what is wrong.
// Nor one written by another job or another rank, nor one whose lengths or indices do
// not fit (a crafted file with a good CRC).
#include "checkpoint/checkpoint_file.hpp"

#include <gtest/gtest.h>
#include <sys/stat.h>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "checkpoint/checkpoint_codec.hpp"
#include "crd/base/error.hpp"
#include "support/random_digest.hpp"
#include "support/test_paths.hpp"

namespace crd::pipeline {
namespace {
namespace fs = std::filesystem;

struct Payload {
  std::vector<std::string> urls;
  std::vector<std::uint64_t> counts;
  bool operator==(const Payload&) const = default;
};

const CheckpointOwner kOwner{"0123456789abcdef0123456789abcdef01234567", 1, 2};

const Payload kPayload{{"site.example/a.html", "site.example/b/c.html"}, {1, 22, 333, 4444}};

void write_payload(BinaryFileWriter& out) {
  out.strings(kPayload.urls);
  out.vec(kPayload.counts);
}

std::string read_into(const std::string& path, Payload& got, const std::string& phase = "discover") {
  return read_checkpoint_file(path, phase, kOwner, [&](BinaryFileReader& in) {
    got.urls = in.strings();
    got.counts = in.vec<std::uint64_t>();
  });
}

std::string bytes_of(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

void put(const std::string& path, const std::string& bytes) {
  std::ofstream(path, std::ios::binary | std::ios::trunc) << bytes;
}

class CheckpointFile : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = crd::testing::make_temp_dir("ckpt-file");
    good_ = dir_ + "/good.ckpt";
    write_checkpoint_file(good_, "discover", kOwner, write_payload);
    bytes_ = bytes_of(good_);
  }
  std::string dir_, good_, bytes_;
};

TEST_F(CheckpointFile, IntactFileReadsBackItsPayload) {
  Payload got;
  EXPECT_EQ(read_into(good_, got), "");
  EXPECT_EQ(got, kPayload);
}

TEST_F(CheckpointFile, EveryFlippedByteIsRefused) {
  const std::string bad = dir_ + "/flipped.ckpt";
  for (std::size_t i = 0; i < bytes_.size(); ++i) {
    std::string b = bytes_;
    b[i] = static_cast<char>(b[i] ^ 0x10);
    put(bad, b);
    Payload got;
    const std::string why = read_into(bad, got);
    ASSERT_NE(why, "") << "byte " << i << " flipped was accepted";
    // The header names the format; every other byte is caught by the end marker, count or CRC.
    if (i >= 12 && i < bytes_.size() - 20) {
      EXPECT_EQ(why, "fails its CRC-32 check (the file is damaged)") << i;
    }
  }
}

TEST_F(CheckpointFile, EveryTruncationIsRefused) {
  const std::string bad = dir_ + "/short.ckpt";
  for (std::size_t n = 0; n < bytes_.size(); ++n) {
    put(bad, bytes_.substr(0, n));
    Payload got;
    const std::string why = read_into(bad, got);
    EXPECT_EQ(why.rfind("is truncated", 0), 0u) << "cut to " << n << " bytes: " << why;
  }
}

TEST_F(CheckpointFile, OtherFormatVersionsAreRefused) {
  std::string b = bytes_;
  b[8] = 3;  // the u32 format version after the 8-byte magic (native little-endian)
  put(dir_ + "/v3.ckpt", b);
  Payload got;
  EXPECT_EQ(read_into(dir_ + "/v3.ckpt", got), "has checkpoint format 3; this crd reads format 8");
  // A format-2 file (before the CRC) begins with that format's own magic number.
  put(dir_ + "/v2.ckpt", std::string("1CRDCKT2") + bytes_.substr(8));
  EXPECT_EQ(read_into(dir_ + "/v2.ckpt", got), "has checkpoint format 2; this crd reads format 8");
  put(dir_ + "/text.ckpt", "not a checkpoint at all, just text");
  EXPECT_EQ(read_into(dir_ + "/text.ckpt", got), "is not a crd checkpoint (unknown magic number)");
}

TEST_F(CheckpointFile, AnotherPhaseOrAShorterReadIsRefused) {
  Payload got;
  EXPECT_EQ(read_into(good_, got, "detect"), "holds another phase");
  const std::string why =
      read_checkpoint_file(good_, "discover", kOwner, [](BinaryFileReader& in) { (void)in.strings(); });
  EXPECT_EQ(why, "cannot be decoded (its payload does not end at the end marker)");
}

TEST_F(CheckpointFile, UnwritablePathThrowsNamingIt) {
  const std::string path = dir_ + "/no/such/dir/x.ckpt";
  try {
    write_checkpoint_file(path, "scan", kOwner, write_payload);
    FAIL() << "no exception";
  } catch (const FatalError& e) {
    EXPECT_EQ(std::string(e.what()), "cannot create " + path + ": No such file or directory");
  }
}

TEST_F(CheckpointFile, AnotherJobsOrAnotherRanksFileIsRefusedNamingWhose) {
  Payload got;
  const auto read_as = [&](const CheckpointOwner& owner) {
    return read_checkpoint_file(good_, "discover", owner, [&](BinaryFileReader& in) {
      got.urls = in.strings();
      got.counts = in.vec<std::uint64_t>();
    });
  };
  CheckpointOwner other_job = kOwner;
  other_job.job[0] = 'f';
  EXPECT_EQ(read_as(other_job), "belongs to another job (fingerprint 0123456789abcdef, this job's is f123456789abcdef)");
  EXPECT_EQ(read_as({kOwner.job, 0, 2}), "belongs to rank 1 of 2, not rank 0 of 2");
  EXPECT_EQ(read_as({kOwner.job, 1, 3}), "belongs to rank 1 of 2, not rank 1 of 3");
  EXPECT_EQ(read_as(kOwner), "");
  EXPECT_EQ(got, kPayload);
}

// A shard of two pages, "a.example/x" with chunks 0 and 1, "a.example/y" with chunk 1.
scan::ScannedShard small_shard() {
  std::mt19937_64 rng(36);
  scan::ScannedShard s;
  s.keys = {"a.example/x", "a.example/y"};
  const Digest d0 = crd::testing::random_digest(rng), d1 = crd::testing::random_digest(rng);
  s.page_chunk_ids = {s.chunks.add(d0, 5, "<p>zero", 0, s.keys), s.chunks.add(d1, 4, "<p>one", 0, s.keys),
                      s.chunks.add(d1, 4, "<p>one", 1, s.keys)};
  s.files.add(d0, 100, {}, 0, s.keys);
  s.page_offsets = {0, 2, 3};
  return s;
}

// Writes a well-framed checkpoint (a good CRC, the right owner) of `shard`, as someone crafting
// one would, and reads it back.
std::string reread_shard(const std::string& path, const scan::ScannedShard& shard) {
  write_checkpoint_file(path, "scan", kOwner, [&](BinaryFileWriter& out) { save_shard(out, shard); });
  return read_checkpoint_file(path, "scan", kOwner, [](BinaryFileReader& in) { (void)load_shard(in); });
}

TEST_F(CheckpointFile, AShardWhoseIndicesDoNotFitItsTablesIsRefused) {
  const std::string path = dir_ + "/scan.ckpt";
  EXPECT_EQ(reread_shard(path, small_shard()), "");
  scan::ScannedShard s = small_shard();
  s.page_chunk_ids[2] = 2;  // only chunks 0 and 1 exist
  EXPECT_EQ(reread_shard(path, s), "cannot be decoded (checkpoint corrupt (a page chunk outside the tally))");
  s = small_shard();
  s.page_offsets = {0, 3, 2};
  EXPECT_EQ(reread_shard(path, s), "cannot be decoded (checkpoint corrupt (page offsets do not cover the page chunks))");
  s = small_shard();
  s.page_offsets = {0, 2, 1, 3};
  EXPECT_EQ(reread_shard(path, s), "cannot be decoded (checkpoint corrupt (page offsets for another page count))");
  s = small_shard();
  s.page_offsets = {0, 3, 3};
  s.keys.pop_back();  // the chunks' first pages, and the offsets, name a page that is not there
  EXPECT_EQ(reread_shard(path, s).rfind("cannot be decoded (checkpoint corrupt (", 0), 0u);
}

TEST_F(CheckpointFile, SampleBlocksCannotAskForMoreMemoryThanTheFileHolds) {
  // A tally with no hashes and 100,000 sample blocks of one byte each: 900 KB of file that made
  // load allocate 4 MiB per block (400 GB).
  const std::string path = dir_ + "/blocks.ckpt";
  write_checkpoint_file(path, "scan", kOwner, [](BinaryFileWriter& out) {
    out.pod(std::uint64_t{256});  // sample bytes
    out.pod(std::uint64_t{0});    // total
    for (int column = 0; column < 5; ++column) out.pod(std::uint64_t{0});
    out.pod(std::uint64_t{100000});
    for (int b = 0; b < 100000; ++b) out.str("x");
  });
  const std::string why = read_checkpoint_file(path, "scan", kOwner, [](BinaryFileReader& in) {
    (void)discover::LocalTally::load(in);
  });
  EXPECT_EQ(why, "cannot be decoded (checkpoint corrupt (sample block of a wrong size))");
}

TEST_F(CheckpointFile, CountsAndLengthsPastTheFilesEndAreRefusedBeforeAllocating) {
  const std::string path = dir_ + "/lengths.ckpt";
  for (const std::uint64_t n : {std::uint64_t{1} << 62, std::uint64_t{1} << 40, ~std::uint64_t{0}}) {
    write_checkpoint_file(path, "scan", kOwner, [&](BinaryFileWriter& out) { out.pod(n); });
    EXPECT_EQ(read_checkpoint_file(path, "scan", kOwner, [](BinaryFileReader& in) { (void)in.vec<std::uint64_t>(); }),
              "cannot be decoded (checkpoint corrupt (impossible length))");
    EXPECT_EQ(read_checkpoint_file(path, "scan", kOwner, [](BinaryFileReader& in) { (void)in.strings(); }),
              "cannot be decoded (checkpoint corrupt (impossible length))");
    EXPECT_EQ(read_checkpoint_file(path, "scan", kOwner, [](BinaryFileReader& in) { (void)in.str(); }),
              "cannot be decoded (checkpoint corrupt (impossible length))");
  }
}

TEST_F(CheckpointFile, ALinkOrFifoUnderTheNameIsReplacedNeverWrittenThroughOrOpened) {
  const std::string target = dir_ + "/target", link = dir_ + "/link.ckpt.partial", fifo = dir_ + "/fifo.ckpt.partial";
  put(target, "not a checkpoint");
  fs::create_symlink(target, link);
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  for (const std::string& path : {link, fifo}) {
    write_checkpoint_file(path, "discover", kOwner, write_payload);  // a FIFO opened for writing would block
    EXPECT_TRUE(fs::is_regular_file(fs::symlink_status(path))) << path;
    EXPECT_EQ(bytes_of(path), bytes_);
  }
  EXPECT_EQ(bytes_of(target), "not a checkpoint");
}

TEST(CheckpointCodec, LabelsOfLocalIdsTheRankDoesNotHoldAreRefused) {
  discover::TallyDiscovery d;
  d.table.labeled = 9;
  d.first_label_id = 7;
  d.table.rows.resize(2);
  d.labeled_local = {{0, 7}, {2, 8}};
  EXPECT_NO_THROW(check_local_ids(d, 3));
  EXPECT_THROW(check_local_ids(d, 2), std::runtime_error);  // local id 2 of a tally of 2
  d.table.labeled = 8;  // label id 8, and owned labels 7 and 8, of 8 labels
  EXPECT_THROW(check_local_ids(d, 3), std::runtime_error);
  d.table.labeled = 9;
  d.first_label_id = 8;
  EXPECT_THROW(check_local_ids(d, 3), std::runtime_error);
}

TEST(CheckpointCodec, ProvenanceOfAnotherLabelCountIsRefused) {
  detect::DetectionResult d;
  d.label_use.resize(3);
  EXPECT_NO_THROW(check_label_use(d, 3));
  EXPECT_THROW(check_label_use(d, 4), std::runtime_error);  // the writer would read past the end
}

}  // namespace
}  // namespace crd::pipeline
