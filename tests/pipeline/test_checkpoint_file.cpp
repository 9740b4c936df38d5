// Checkpoint file framing (issue 19, item 6): a checkpoint with any one byte changed, cut short at
// any length, or of another format version is never used, and the reason names what is wrong.
#include "checkpoint_file.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "crd/base/error.hpp"
#include "support/test_paths.hpp"

namespace crd::pipeline {
namespace {
namespace fs = std::filesystem;

struct Payload {
  std::vector<std::string> urls;
  std::vector<std::uint64_t> counts;
  bool operator==(const Payload&) const = default;
};

const Payload kPayload{{"site.example/a.html", "site.example/b/c.html"}, {1, 22, 333, 4444}};

void write_payload(BinaryFileWriter& out) {
  out.strings(kPayload.urls);
  out.vec(kPayload.counts);
}

std::string read_into(const std::string& path, Payload& got, const std::string& phase = "discover") {
  return read_checkpoint_file(path, phase, [&](BinaryFileReader& in) {
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
    write_checkpoint_file(good_, "discover", write_payload);
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
  EXPECT_EQ(read_into(dir_ + "/v3.ckpt", got), "has checkpoint format 3; this crd reads format 5");
  // A format-2 file (before the CRC) begins with that format's own magic number.
  put(dir_ + "/v2.ckpt", std::string("1CRDCKT2") + bytes_.substr(8));
  EXPECT_EQ(read_into(dir_ + "/v2.ckpt", got), "has checkpoint format 2; this crd reads format 5");
  put(dir_ + "/text.ckpt", "not a checkpoint at all, just text");
  EXPECT_EQ(read_into(dir_ + "/text.ckpt", got), "is not a crd checkpoint (unknown magic number)");
}

TEST_F(CheckpointFile, AnotherPhaseOrAShorterReadIsRefused) {
  Payload got;
  EXPECT_EQ(read_into(good_, got, "detect"), "holds another phase");
  const std::string why =
      read_checkpoint_file(good_, "discover", [](BinaryFileReader& in) { (void)in.strings(); });
  EXPECT_EQ(why, "cannot be decoded (its payload does not end at the end marker)");
}

TEST_F(CheckpointFile, UnwritablePathThrowsNamingIt) {
  const std::string path = dir_ + "/no/such/dir/x.ckpt";
  try {
    write_checkpoint_file(path, "scan", write_payload);
    FAIL() << "no exception";
  } catch (const FatalError& e) {
    EXPECT_EQ(std::string(e.what()), "cannot create " + path + ": No such file or directory");
  }
}

}  // namespace
}  // namespace crd::pipeline
