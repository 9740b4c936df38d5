// --reader-thread: the decision as a function of the shard and the CPUs (no timing here; the
// measurement behind it is perf/reader_thread.sh).
#include <gtest/gtest.h>

#include "reader_thread_choice.hpp"

namespace crd::pipeline {
namespace {

io::InputFile file(const std::string& path, std::uint64_t size, io::InputKind kind) {
  io::InputFile f;
  f.path = path;
  f.size = size;
  f.kind = kind;
  return f;
}

ReaderThreadContext spare_core(std::uint64_t gzip_bytes, std::uint64_t total_bytes) {
  ReaderThreadContext c;
  c.gzip_bytes = gzip_bytes;
  c.total_bytes = total_bytes;
  c.usable_cpus = 2;
  c.node_cpus = 2;
  c.ranks_on_node = 1;
  return c;
}

TEST(ReaderThreadChoice, OnAndOffAreObeyedWhateverTheInput) {
  ReaderThreadContext one_cpu;  // 1 usable CPU, nothing compressed
  EXPECT_TRUE(use_reader_thread(ReaderThread::On, one_cpu));
  EXPECT_FALSE(use_reader_thread(ReaderThread::Off, spare_core(100, 100)));
}

// Run without mpirun (a singleton may use both CPUs), auto turned the thread on for a
// directory of pages and the job got 27% slower. Plain files and uncompressed WARC keep it off.
TEST(ReaderThreadChoice, AutoIsOffForPlainFilesAndUncompressedWarcEvenWithASpareCore) {
  EXPECT_FALSE(use_reader_thread(ReaderThread::Auto, spare_core(0, 996'000'000)));
  EXPECT_FALSE(use_reader_thread(ReaderThread::Auto, spare_core(0, 0)));  // an empty shard
}

TEST(ReaderThreadChoice, AutoIsOnForAMostlyGzipShardWithASpareCore) {
  EXPECT_TRUE(use_reader_thread(ReaderThread::Auto, spare_core(175'000'000, 175'000'000)));
  EXPECT_TRUE(use_reader_thread(ReaderThread::Auto, spare_core(50, 100)));   // half: on
  EXPECT_FALSE(use_reader_thread(ReaderThread::Auto, spare_core(49, 100)));  // less: off
}

TEST(ReaderThreadChoice, AutoNeedsASpareCoreForEveryRankOfTheNode) {
  ReaderThreadContext bound = spare_core(100, 100);
  bound.usable_cpus = 1;  // mpirun's default binding: both threads would share one core
  EXPECT_FALSE(use_reader_thread(ReaderThread::Auto, bound));
  ReaderThreadContext full = spare_core(100, 100);
  full.ranks_on_node = 2;  // two ranks on two CPUs: no core is spare
  EXPECT_FALSE(use_reader_thread(ReaderThread::Auto, full));
  full.node_cpus = 4;
  EXPECT_TRUE(use_reader_thread(ReaderThread::Auto, full));
}

TEST(ReaderThreadChoice, ShardContextCountsOnlyGzipArchivesOfTheShard) {
  const std::vector<io::InputFile> files = {
      file("crawl/a.warc.gz", 1000, io::InputKind::Warc),       file("crawl/b.WARC.GZ", 200, io::InputKind::Warc),
      file("crawl/c.arc.gz", 30, io::InputKind::Arc),           file("crawl/d.warc", 4, io::InputKind::Warc),
      file("docs/page.html.gz", 500, io::InputKind::PlainFile),  // a plain file is never inflated
  };
  const ReaderThreadContext c = shard_bytes_context(files, {1, 2, 3, 4});
  EXPECT_EQ(c.total_bytes, 200u + 30 + 4 + 500);
  EXPECT_EQ(c.gzip_bytes, 200u + 30);
  EXPECT_FALSE(use_reader_thread(ReaderThread::Auto, spare_core(c.gzip_bytes, c.total_bytes)));  // 230 of 734
  EXPECT_EQ(shard_bytes_context(files, {0}).gzip_bytes, 1000u);
}

}  // namespace
}  // namespace crd::pipeline
