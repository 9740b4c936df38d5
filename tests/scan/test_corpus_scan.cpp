// scan_shard on a small directory tree: keys, file and chunk tallies, kept chunk vectors, counters;
// then scan + discover_labels on 1..4 thread ranks gives the same labels as one rank.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <stdexcept>

#include "crd/comm/local_transport.hpp"
#include "crd/discover/discovery.hpp"
#include "crd/hash/sha1.hpp"
#include "crd/scan/corpus_scan.hpp"
#include "support/test_paths.hpp"

namespace crd::scan {
namespace {

namespace fs = std::filesystem;
using discover::LabelRow;
using discover::LabelRules;
using discover::ShuffleTotals;

const std::string kShared = "<div>Shared footer, on every page</div>";

// site/: three hosts with HTML pages sharing a footer, a duplicate file, a binary file, and a
// path with a repeated component (recursion error).
std::string make_site() {
  const std::string root = crd::testing::make_temp_dir("scan") + "/site";
  auto put = [&](const std::string& rel, const std::string& body) {
    fs::create_directories(fs::path(root + "/" + rel).parent_path());
    std::ofstream(root + "/" + rel, std::ios::binary) << body;
  };
  for (int h = 0; h < 3; ++h)
    for (int p = 0; p < 4; ++p) {
      const std::string host = "host" + std::to_string(h) + ".org";
      put(host + "/d" + std::to_string(p % 2) + "/page" + std::to_string(p) + ".html",
          "<html><body><p>Page " + std::to_string(h * 10 + p) + " text</p>\n<p>  common   paragraph </p>" +
              kShared + "<p>host " + std::to_string(h) + " menu</p></body></html>");
    }
  put("host0.org/copy.html", "<p>dup</p>");
  put("host1.org/copy.html", "<p>dup</p>");
  put("host2.org/logo.png", std::string("\x89PNG\r\n\x1a\n\0\0\0\rIHDR", 16));
  put("host2.org/x/x/x/x/loop.html", "<p>recursion</p>");
  return root;
}

std::vector<std::string> chunks_of(const std::string& body) {
  std::vector<std::string> out;
  chunk::make_chunker(crd::chunk::ChunkerKind::Scan, {})->chunk(body, "", [&](std::string_view c) { out.emplace_back(c); });
  return out;
}

// The hook crd neardup reads pages through: every kept text page once, in order, with its key and
// payload; binary files and dropped URLs never reach it; chunk_pages = false leaves chunks and
// whole-page hashes untallied (nothing reads them there), though every kept page has its key.
TEST(ScanShard, PageHookSeesEveryKeptTextPage) {
  const std::string site = make_site();
  io::InputLog input_log;
  const auto files = io::expand_inputs({site}, {}, input_log);
  std::vector<std::size_t> shard(files.size());
  for (std::size_t i = 0; i < files.size(); ++i) shard[i] = i;
  ScanOptions options;
  options.chunk_pages = false;
  std::vector<std::string> keys;
  std::string copy_body;
  options.on_page = [&](std::string_view key, const io::Document& doc) {
    keys.emplace_back(key);
    if (key == "host1.org/copy.html") copy_body = doc.body;
  };
  const ScannedShard out = scan_shard(files, shard, options);
  ASSERT_EQ(keys.size(), 14u);  // 12 pages + 2 copies; not the PNG, not the recursion error
  EXPECT_EQ(keys.front(), "host0.org/copy.html");
  EXPECT_TRUE(std::is_sorted(keys.begin(), keys.end()));
  EXPECT_EQ(std::count(keys.begin(), keys.end(), "host2.org/logo.png"), 0);
  EXPECT_EQ(copy_body, "<p>dup</p>");
  EXPECT_EQ(out.chunks.distinct(), 0u);
  EXPECT_EQ(out.files.distinct(), 0u);
  EXPECT_EQ(out.keys.size(), 15u);  // the PNG is still a page
}

TEST(ScanShard, OneShardTalliesEverything) {
  const std::string site = make_site();
  io::InputLog input_log;
  const auto files = io::expand_inputs({site}, {}, input_log);
  ASSERT_EQ(files.size(), 16u);
  std::vector<std::size_t> shard(files.size());
  for (std::size_t i = 0; i < files.size(); ++i) shard[i] = i;
  ScanOptions options;
  options.keep_page_chunks = true;
  options.sample_bytes = 10;
  std::uint64_t progress_calls = 0, last_bytes = 0;
  const ScannedShard s = scan_shard(files, shard, options, [&](const ScannedShard& so_far, std::uint64_t bytes, std::uint64_t) {
    ++progress_calls;
    EXPECT_GE(bytes, last_bytes);
    EXPECT_LE(so_far.keys.size(), 15u);
    last_bytes = bytes;
    return true;
  });
  EXPECT_EQ(progress_calls, files.size());
  EXPECT_EQ(s.counters.get("cleaning.dropped.repeated_component"), 1u);
  ASSERT_EQ(s.keys.size(), 15u);
  ASSERT_EQ(s.page_offsets.size(), s.keys.size() + 1);
  EXPECT_EQ(s.files.total(), 15u);
  EXPECT_EQ(s.files.distinct(), 14u) << "the two copy.html files hash alike";

  // Expected chunk sequence of every kept page, from the chunker itself.
  std::map<Digest, std::uint64_t> expected_counts;
  std::uint64_t expected_chunks = 0;
  for (std::size_t p = 0; p < s.keys.size(); ++p) {
    const auto it = std::find_if(files.begin(), files.end(), [&](const io::InputFile& f) {
      return url::url_key(f.url) == s.keys[p];
    });
    ASSERT_NE(it, files.end()) << s.keys[p];
    std::ifstream in(it->path, std::ios::binary);
    const std::string body((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    EXPECT_GE(s.files.find(sha1(body)), 0);
    const auto expected = it->path.ends_with(".png") ? std::vector<std::string>{} : chunks_of(body);
    ASSERT_EQ(s.page_offsets[p + 1] - s.page_offsets[p], expected.size()) << s.keys[p];
    for (std::size_t k = 0; k < expected.size(); ++k) {
      const std::uint32_t id = s.page_chunk_ids[s.page_offsets[p] + k];
      EXPECT_EQ(s.chunks.digest(id), sha1(expected[k])) << s.keys[p] << " chunk " << k;
      EXPECT_EQ(s.chunks.length(id), expected[k].size());
      EXPECT_EQ(s.chunks.sample(id), expected[k].substr(0, 10));
      ++expected_counts[sha1(expected[k])];
      ++expected_chunks;
    }
  }
  EXPECT_EQ(s.chunks.total(), expected_chunks);
  EXPECT_EQ(s.counters.get("chunks"), expected_chunks);
  EXPECT_EQ(s.chunks.distinct(), expected_counts.size());
  for (const auto& [d, n] : expected_counts) EXPECT_EQ(s.chunks.count(static_cast<std::uint32_t>(s.chunks.find(d))), n);
  // The footer is on all 12 generated pages; its first page is the smallest key.
  const auto footer = s.chunks.find(sha1(chunks_of(kShared).at(0)));
  ASSERT_GE(footer, 0);
  EXPECT_EQ(s.chunks.count(static_cast<std::uint32_t>(footer)), 12u);
  EXPECT_EQ(s.keys[s.chunks.first_page(static_cast<std::uint32_t>(footer))], "host0.org/d0/page0.html");
}

// Chunks are tallied two chunks after they are hashed (their table memory is fetched meanwhile):
// on pages of 0 to 6 chunks, repeated across pages, every page's chunk vector, every count,
// length, sample and first page, and the other-pass markers of a sliced scan, are what the
// chunker's own chunks give, in order.
TEST(ScanShard, DelayedTallyKeepsEveryPagesChunksInOrder) {
  const std::string root = crd::testing::make_temp_dir("scan_delay") + "/site";
  fs::create_directories(root + "/h.org");
  std::vector<std::string> bodies;
  for (int n = 0; n <= 6; ++n) {
    std::string body = "<html>";
    for (int k = 0; k < n; ++k) body += "<p>paragraph " + std::to_string((n * 7 + k) % 5) + " of a page</p>";
    bodies.push_back(body);
    std::ofstream(root + "/h.org/p" + std::to_string(n) + ".html", std::ios::binary) << body;
  }
  io::InputLog log;
  const auto files = io::expand_inputs({root}, {}, log);
  ASSERT_EQ(files.size(), bodies.size());
  std::vector<std::size_t> shard(files.size());
  for (std::size_t i = 0; i < files.size(); ++i) shard[i] = i;
  const auto is_stop = [](const Digest&, std::uint64_t length) { return length % 2 == 1; };
  std::size_t markers = 0;  // the sliced scans do leave chunks to the other pass
  for (const HashPass pass : {HashPass{0, 1}, HashPass{0, 2}, HashPass{1, 2}}) {
    ScanOptions options;
    options.keep_page_chunks = true;
    options.sample_bytes = 12;
    options.pass = pass;
    options.is_stop = is_stop;
    const ScannedShard s = scan_shard(files, shard, options);
    ASSERT_EQ(s.keys.size(), bodies.size());
    std::map<Digest, std::uint64_t> counts;
    std::map<Digest, std::uint32_t> first;
    for (std::size_t p = 0; p < s.keys.size(); ++p) {
      const std::size_t n = std::stoul(s.keys[p].substr(s.keys[p].find("/p") + 2));
      const std::vector<std::string> expected = chunks_of(bodies[n]);
      ASSERT_EQ(s.page_offsets[p + 1] - s.page_offsets[p], expected.size()) << s.keys[p];
      for (std::size_t k = 0; k < expected.size(); ++k) {
        const Digest d = sha1(expected[k]);
        const std::uint32_t id = s.page_chunk_ids[s.page_offsets[p] + k];
        if (!pass.contains(d)) {
          EXPECT_EQ(id, is_stop(d, expected[k].size()) ? kOtherPassStopChunk : kOtherPassChunk);
          ++markers;
          continue;
        }
        EXPECT_EQ(s.chunks.digest(id), d) << s.keys[p] << " chunk " << k;
        EXPECT_EQ(s.chunks.length(id), expected[k].size());
        EXPECT_EQ(s.chunks.sample(id), expected[k].substr(0, 12));
        ++counts[d];
        if (!first.contains(d) || s.keys[p] < s.keys[first[d]]) first[d] = static_cast<std::uint32_t>(p);
      }
    }
    EXPECT_EQ(s.chunks.distinct(), counts.size());
    for (const auto& [d, c] : counts) {
      const auto id = static_cast<std::uint32_t>(s.chunks.find(d));
      EXPECT_EQ(s.chunks.count(id), c);
      EXPECT_EQ(s.chunks.first_page(id), first[d]);
    }
  }
  EXPECT_GT(markers, 0u);
}

TEST(ScanShard, WithoutKeepPageChunks) {
  const std::string site = make_site();
  io::InputLog log;
  const auto files = io::expand_inputs({site}, {}, log);
  const ScannedShard s = scan_shard(files, {0, 1, 2}, ScanOptions{});
  EXPECT_EQ(s.page_offsets.size(), 1u);
  EXPECT_TRUE(s.page_chunk_ids.empty());
  EXPECT_EQ(s.keys.size(), 3u);
}

TEST(ScanShard, ProgressReturningFalseStopsAfterThatFile) {
  const std::string site = make_site();
  io::InputLog log;
  const auto files = io::expand_inputs({site}, {}, log);
  int calls = 0;
  const ScannedShard s = scan_shard(files, {0, 1, 2, 3, 4}, ScanOptions{},
                                    [&](const ScannedShard&, std::uint64_t, std::uint64_t) { return ++calls < 2; });
  EXPECT_EQ(calls, 2);
  EXPECT_EQ(s.keys.size(), 2u) << "two files read, the rest skipped";
}

// With a reader thread, documents arrive in the same order: every table, counter and error is the
// same as reading on the scanning thread, also when the queue holds one document at a time.
TEST(ScanShard, ReaderThreadGivesTheSameShard) {
  for (const std::uint64_t queue_bytes : {std::uint64_t{64} << 20, std::uint64_t{1}}) {
    SCOPED_TRACE(queue_bytes);
    const std::string site = make_site();
    io::InputLog log;
    const auto files = io::expand_inputs({site}, {}, log);
    std::vector<std::size_t> all(files.size());
    for (std::size_t i = 0; i < all.size(); ++i) all[i] = i;
    ScanOptions plain;
    plain.keep_page_chunks = true;
    ScanOptions threaded = plain;
    threaded.reader_thread = true;
    threaded.reader_queue_bytes = queue_bytes;
    const ScannedShard a = scan_shard(files, all, plain);
    const ScannedShard b = scan_shard(files, all, threaded);
    EXPECT_EQ(a.keys, b.keys);
    EXPECT_EQ(a.page_offsets, b.page_offsets);
    EXPECT_EQ(a.page_chunk_ids, b.page_chunk_ids);
    EXPECT_EQ(a.counters.values(), b.counters.values());
    ASSERT_EQ(a.chunks.distinct(), b.chunks.distinct());
    for (std::uint32_t id = 0; id < a.chunks.distinct(); ++id) {
      EXPECT_EQ(a.chunks.digest(id), b.chunks.digest(id));
      EXPECT_EQ(a.chunks.count(id), b.chunks.count(id));
      EXPECT_EQ(a.chunks.sample(id), b.chunks.sample(id));
    }
    EXPECT_EQ(a.files.distinct(), b.files.distinct());
  }
}

// Stopping early (the memory budget) releases a reader blocked on a full queue, and an exception
// from the scanning side does not leave the reader thread running.
TEST(ScanShard, ReaderThreadStopsAndUnwindsCleanly) {
  const std::string site = make_site();
  io::InputLog log;
  const auto files = io::expand_inputs({site}, {}, log);
  std::vector<std::size_t> all(files.size());
  for (std::size_t i = 0; i < all.size(); ++i) all[i] = i;
  ScanOptions threaded;
  threaded.reader_thread = true;
  int calls = 0;
  const ScannedShard s = scan_shard(files, all, threaded,
                                    [&](const ScannedShard&, std::uint64_t, std::uint64_t) { return ++calls < 2; });
  EXPECT_EQ(calls, 2);
  EXPECT_EQ(s.keys.size(), 2u);
  EXPECT_THROW(scan_shard(files, all, threaded,
                          [&](const ScannedShard&, std::uint64_t, std::uint64_t) -> bool {
                            throw std::runtime_error("stop");
                          }),
               std::runtime_error);
}

TEST(ScanShard, ScanThenDiscoverIsRankCountIndependent) {
  const std::string site = make_site();
  io::InputLog log;
  const auto files = io::expand_inputs({site}, {}, log);
  const LabelRules rules{1, 0, nullptr};
  std::vector<LabelRow> base;
  for (int nranks = 1; nranks <= 4; ++nranks) {
    const auto shards = io::assign_shards(files, nranks);
    std::vector<std::vector<LabelRow>> rows(static_cast<std::size_t>(nranks));
    comm::run_local(nranks, [&](comm::Transport& t) {
      const ScannedShard s = scan_shard(files, shards[static_cast<std::size_t>(t.rank())], ScanOptions{});
      ShuffleTotals totals;
      auto d = discover::discover_labels(t, s.chunks, s.keys, rules, 128, totals);
      rows[static_cast<std::size_t>(t.rank())] = discover::sort_by_count(t, std::move(d.table.rows), 128);
    });
    std::vector<LabelRow> all;
    for (auto& r : rows) all.insert(all.end(), r.begin(), r.end());
    if (nranks == 1) {
      base = all;
      ASSERT_GE(base.size(), 3u);  // common paragraph, footer, host menus
      EXPECT_EQ(base[0].count, 12u);
      continue;
    }
    ASSERT_EQ(all.size(), base.size()) << nranks;
    for (std::size_t i = 0; i < all.size(); ++i) {
      EXPECT_EQ(all[i].hash, base[i].hash) << nranks << " #" << i;
      EXPECT_EQ(all[i].count, base[i].count);
      EXPECT_EQ(all[i].sample, base[i].sample);
      EXPECT_EQ(all[i].sample_url, base[i].sample_url);
    }
  }
}

}  // namespace
}  // namespace crd::scan
