// Per-stage throughput on one core: read/decompress, chunk, hash, tally, shuffle and the count/notify
// join, each on real Debian documentation HTML (perf/RESULTS.md has the numbers and the commands).
//
// Inputs (scripts/perf_corpus.sh builds them): CRD_PERF_PAGES, ':'-separated directories whose
// *.html files are held in memory for chunk/hash/tally/shuffle/join; CRD_PERF_WARC, a path prefix
// with PREFIX.warc.gz and PREFIX.warc (perf/make_warc.py) for the read benchmarks.
#include <benchmark/benchmark.h>
#include <gumbo.h>
#include <zlib.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "crd/chunk/chunker.hpp"
#include "crd/comm/local_transport.hpp"
#include "crd/discover/local_tally.hpp"
#include "crd/discover/owner_tally.hpp"
#include "crd/hash/document_hasher.hpp"
#include "crd/hash/sha1.hpp"
#include "crd/io/inputs.hpp"
#include "crd/shuffle/exchange.hpp"

namespace {

namespace fs = std::filesystem;
using crd::discover::LocalTally;

std::string env_or(const char* name, const std::string& fallback) {
  const char* v = std::getenv(name);
  return v != nullptr ? v : fallback;
}

std::string slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// The pages in memory, and what the stages before each benchmark make of them (computed once, so
// each benchmark times its own stage only).
struct Pages {
  std::vector<std::string> bodies;
  std::int64_t bytes = 0;
  std::vector<std::string> chunks;  // normalized chunks of all pages, in order
  std::vector<std::size_t> chunks_end;  // per page: end index into chunks
  std::int64_t chunk_bytes = 0;
  std::vector<crd::Digest> file_digests, chunk_digests;
  crd::discover::PageKeys keys;
};

const Pages& pages() {
  static const Pages p = [] {
    Pages out;
    std::vector<fs::path> files;
    std::stringstream dirs(env_or("CRD_PERF_PAGES", CRD_DEFAULT_PERF_PAGES));
    for (std::string dir; std::getline(dirs, dir, ':');) {
      std::error_code ec;
      for (fs::recursive_directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec))
        if (it->is_regular_file() && it->path().extension() == ".html") files.push_back(it->path());
    }
    std::sort(files.begin(), files.end());
    auto chunker = crd::chunk::make_chunker(crd::chunk::ChunkerKind::Scan, {});
    crd::Sha1 sha1;
    for (const fs::path& f : files) {
      out.bodies.push_back(slurp(f));
      const std::string& body = out.bodies.back();
      out.bytes += static_cast<std::int64_t>(body.size());
      out.keys.push_back(f.string());
      out.file_digests.push_back(sha1(body));
      chunker->chunk(body, "", [&](std::string_view c) {
        out.chunks.emplace_back(c);
        out.chunk_bytes += static_cast<std::int64_t>(c.size());
        out.chunk_digests.push_back(sha1(c));
      });
      out.chunks_end.push_back(out.chunks.size());
    }
    std::cerr << "pages: " << out.bodies.size() << " files, " << out.bytes << " bytes, " << out.chunks.size()
              << " chunks (" << out.chunk_bytes << " normalized bytes)\n";
    return out;
  }();
  return p;
}

bool have_pages(benchmark::State& state) {
  if (pages().bodies.empty()) state.SkipWithError("no pages: run scripts/perf_corpus.sh or set CRD_PERF_PAGES");
  return !pages().bodies.empty();
}

// --- read / decompress ---------------------------------------------------------------------------

void read_archive(benchmark::State& state, const std::string& path) {
  std::error_code ec;
  const auto size = fs::file_size(path, ec);
  if (ec) return state.SkipWithError(("missing " + path + ": run scripts/perf_corpus.sh").c_str());
  crd::io::InputFile file{path, path, size, crd::io::InputKind::Warc};
  std::uint64_t body_bytes = 0;
  for (auto _ : state) {
    crd::Counters counters;
    body_bytes = 0;
    crd::io::read_input(file, counters, [&](crd::io::Document&& d) { body_bytes += d.body.size(); });
  }
  state.SetBytesProcessed(state.iterations() * static_cast<std::int64_t>(size));
  state.counters["body_MBps"] = benchmark::Counter(static_cast<double>(body_bytes) * state.iterations() / 1e6,
                                                   benchmark::Counter::kIsRate);
}

void BM_ReadWarcGz(benchmark::State& state) {
  read_archive(state, env_or("CRD_PERF_WARC", CRD_DEFAULT_PERF_WARC) + ".warc.gz");
}
void BM_ReadWarc(benchmark::State& state) {
  read_archive(state, env_or("CRD_PERF_WARC", CRD_DEFAULT_PERF_WARC) + ".warc");
}

// zlib inflate of every member into a reused 1 MiB buffer, nothing else: what reading .warc.gz cost
// before crd inflated with ISA-L (perf/bench_inflate compares zlib, ISA-L and libdeflate).
void BM_InflateFloor(benchmark::State& state) {
  const std::string gz = slurp(env_or("CRD_PERF_WARC", CRD_DEFAULT_PERF_WARC) + ".warc.gz");
  if (gz.empty()) return state.SkipWithError("missing .warc.gz: run scripts/perf_corpus.sh");
  std::vector<unsigned char> out(1u << 20);
  std::uint64_t total = 0;
  for (auto _ : state) {
    z_stream zs{};
    inflateInit2(&zs, 16 + MAX_WBITS);
    zs.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(gz.data()));
    zs.avail_in = static_cast<uInt>(gz.size());
    total = 0;
    while (zs.avail_in > 0) {
      zs.next_out = out.data();
      zs.avail_out = static_cast<uInt>(out.size());
      const int rc = inflate(&zs, Z_NO_FLUSH);
      total += out.size() - zs.avail_out;
      if (rc == Z_STREAM_END) inflateReset(&zs);
      else if (rc != Z_OK) break;
    }
    inflateEnd(&zs);
    benchmark::DoNotOptimize(total);
  }
  state.SetBytesProcessed(state.iterations() * static_cast<std::int64_t>(gz.size()));
  state.counters["out_MBps"] = benchmark::Counter(static_cast<double>(total) * state.iterations() / 1e6,
                                                  benchmark::Counter::kIsRate);
}

// --- chunk, hash, tally --------------------------------------------------------------------------

void BM_Chunk(benchmark::State& state) {
  if (!have_pages(state)) return;
  auto chunker = crd::chunk::make_chunker(crd::chunk::ChunkerKind::Scan, {});
  std::size_t n = 0;
  for (auto _ : state) {
    for (const std::string& body : pages().bodies) chunker->chunk(body, "", [&](std::string_view) { ++n; });
    benchmark::DoNotOptimize(n);
  }
  state.SetBytesProcessed(state.iterations() * pages().bytes);
}

// SHA-1 of every file and of every normalized chunk, one at a time through OpenSSL; throughput
// counted over page bytes.
void BM_Hash(benchmark::State& state) {
  if (!have_pages(state)) return;
  crd::Sha1 sha1;
  std::uint8_t x = 0;
  for (auto _ : state) {
    for (const std::string& body : pages().bodies) x ^= sha1(body).bytes[0];
    for (const std::string& c : pages().chunks) x ^= sha1(c).bytes[0];
    benchmark::DoNotOptimize(x);
  }
  state.SetBytesProcessed(state.iterations() * pages().bytes);
}

// The same digests as crd computes them: each page's chunks hashed in step with the page itself
// (DocumentHasher: two SHA-NI lanes where the CPU has them).
void BM_HashPaired(benchmark::State& state) {
  if (!have_pages(state)) return;
  const Pages& p = pages();
  crd::DocumentHasher hasher;
  std::uint8_t x = 0;
  for (auto _ : state) {
    std::size_t c = 0;
    for (std::size_t page = 0; page < p.bodies.size(); ++page) {
      hasher.start(p.bodies[page]);
      for (; c < p.chunks_end[page]; ++c) x ^= hasher.chunk(p.chunks[c]).bytes[0];
      x ^= hasher.finish().bytes[0];
    }
    benchmark::DoNotOptimize(x);
  }
  state.SetBytesProcessed(state.iterations() * p.bytes);
  state.SetLabel(hasher.two_lanes() ? "two lanes" : "OpenSSL");
}

// Local counting: every file and chunk digest into a LocalTally (with samples for chunks).
void BM_Tally(benchmark::State& state) {
  if (!have_pages(state)) return;
  const Pages& p = pages();
  std::size_t distinct = 0;
  for (auto _ : state) {
    LocalTally files(0), chunks(256);
    std::size_t c = 0;
    for (std::uint32_t page = 0; page < p.bodies.size(); ++page) {
      files.add(p.file_digests[page], p.bodies[page].size(), {}, page, p.keys);
      for (; c < p.chunks_end[page]; ++c) chunks.add(p.chunk_digests[c], p.chunks[c].size(), p.chunks[c], page, p.keys);
    }
    distinct = chunks.distinct();
    benchmark::DoNotOptimize(distinct);
  }
  state.SetBytesProcessed(state.iterations() * p.bytes);
  state.counters["distinct_chunks"] = static_cast<double>(distinct);
}

// The floor of the dom chunker: gumbo's HTML5 parse alone (tree built and freed, nothing read).
void BM_GumboParse(benchmark::State& state) {
  if (!have_pages(state)) return;
  std::size_t nodes = 0;
  for (auto _ : state) {
    for (const std::string& body : pages().bodies) {
      GumboOutput* out = gumbo_parse_with_options(&kGumboDefaultOptions, body.data(), body.size());
      nodes += out->root->v.element.children.length;
      gumbo_destroy_output(&kGumboDefaultOptions, out);
    }
    benchmark::DoNotOptimize(nodes);
  }
  state.SetBytesProcessed(state.iterations() * pages().bytes);
}

// --- shuffle and join over the in-process transport (threads as ranks) ------------------------

// Each rank's LocalTally of its share of the pages (page i → rank i % nranks).
std::vector<LocalTally> tallies(int nranks) {
  const Pages& p = pages();
  std::vector<LocalTally> out;
  for (int r = 0; r < nranks; ++r) out.emplace_back(256);
  std::size_t c = 0;
  for (std::uint32_t page = 0; page < p.bodies.size(); ++page) {
    LocalTally& t = out[page % static_cast<std::size_t>(nranks)];
    for (; c < p.chunks_end[page]; ++c) t.add(p.chunk_digests[c], p.chunks[c].size(), p.chunks[c], page, p.keys);
  }
  return out;
}

// exchange() alone: each rank sends the 36-byte count record of each distinct local chunk to its
// owner, unframed as reduce_by_key sends them (fixed-size records). Manual time: from a barrier after the buckets are filled to the end of the exchange.
void BM_Shuffle(benchmark::State& state) {
  if (!have_pages(state)) return;
  const int nranks = static_cast<int>(state.range(0));
  const auto local = tallies(nranks);
  std::uint64_t sent = 0;
  for (auto _ : state) {
    double seconds = 0;
    std::vector<std::uint64_t> bytes(static_cast<std::size_t>(nranks));
    crd::comm::run_local(nranks, [&](crd::comm::Transport& t) {
      const LocalTally& mine = local[static_cast<std::size_t>(t.rank())];
      crd::shuffle::Buckets buckets(nranks, 36);
      std::array<std::byte, 36> rec{};
      for (std::uint32_t id = 0; id < mine.distinct(); ++id) {
        std::memcpy(rec.data(), mine.digest(id).bytes.data(), 20);
        const std::uint64_t count = mine.count(id), length = mine.length(id);
        std::memcpy(rec.data() + 20, &count, 8);
        std::memcpy(rec.data() + 28, &length, 8);
        buckets.add(crd::owner_of(mine.digest(id), nranks), rec);
      }
      t.barrier();
      const auto t0 = std::chrono::steady_clock::now();
      std::uint64_t check = 0;
      const auto stats = crd::shuffle::exchange(t, buckets, 64u << 20,
                                                [&](int, std::span<const std::byte> r) { check += r.size(); });
      t.barrier();
      bytes[static_cast<std::size_t>(t.rank())] = stats.bytes_sent;
      if (t.rank() == 0) seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
      benchmark::DoNotOptimize(check);
    });
    state.SetIterationTime(seconds);
    sent = 0;
    for (auto b : bytes) sent += b;
  }
  state.SetBytesProcessed(state.iterations() * static_cast<std::int64_t>(sent));
  state.counters["bytes_sent_all_ranks"] = static_cast<double>(sent);
}

// The join of discovery: exchange_counts (counts to owners) + notify_reporters (owners tell each
// rank which of its chunks occur more than once). Bytes/s over the count records sent.
void BM_Join(benchmark::State& state) {
  if (!have_pages(state)) return;
  const int nranks = static_cast<int>(state.range(0));
  const auto local = tallies(nranks);
  std::uint64_t sent = 0;
  std::uint64_t selected = 0;
  for (auto _ : state) {
    double seconds = 0;
    std::vector<std::uint64_t> bytes(static_cast<std::size_t>(nranks)), sel(static_cast<std::size_t>(nranks));
    crd::comm::run_local(nranks, [&](crd::comm::Transport& t) {
      const LocalTally& mine = local[static_cast<std::size_t>(t.rank())];
      crd::discover::ShuffleTotals totals;
      t.barrier();
      const auto t0 = std::chrono::steady_clock::now();
      const auto owned = crd::discover::exchange_counts(t, mine, 64u << 20, totals);
      std::vector<std::uint64_t> tags(owned.distinct(), crd::discover::kNotSelected);
      for (std::size_t i = 0; i < tags.size(); ++i)
        if (owned.count(i) > 1) tags[i] = i;
      const auto labeled = crd::discover::notify_reporters(t, owned, tags, mine, 64u << 20, totals);
      t.barrier();
      if (t.rank() == 0) seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
      bytes[static_cast<std::size_t>(t.rank())] = totals.bytes_sent;
      sel[static_cast<std::size_t>(t.rank())] = labeled.size();
    });
    state.SetIterationTime(seconds);
    sent = selected = 0;
    for (int r = 0; r < nranks; ++r) {
      sent += bytes[static_cast<std::size_t>(r)];
      selected += sel[static_cast<std::size_t>(r)];
    }
  }
  state.SetBytesProcessed(state.iterations() * static_cast<std::int64_t>(sent));
  state.counters["bytes_sent_all_ranks"] = static_cast<double>(sent);
  state.counters["local_ids_selected"] = static_cast<double>(selected);
}

}  // namespace

BENCHMARK(BM_ReadWarcGz)->Unit(benchmark::kMillisecond)->MinTime(2.0);
BENCHMARK(BM_ReadWarc)->Unit(benchmark::kMillisecond)->MinTime(2.0);
BENCHMARK(BM_InflateFloor)->Unit(benchmark::kMillisecond)->MinTime(2.0);
BENCHMARK(BM_Chunk)->Unit(benchmark::kMillisecond)->MinTime(2.0);
BENCHMARK(BM_Hash)->Unit(benchmark::kMillisecond)->MinTime(2.0);
BENCHMARK(BM_HashPaired)->Unit(benchmark::kMillisecond)->MinTime(2.0);
BENCHMARK(BM_Tally)->Unit(benchmark::kMillisecond)->MinTime(2.0);
BENCHMARK(BM_GumboParse)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Shuffle)->Arg(1)->Arg(2)->UseManualTime()->Unit(benchmark::kMillisecond)->MinTime(2.0);
BENCHMARK(BM_Join)->Arg(1)->Arg(2)->UseManualTime()->Unit(benchmark::kMillisecond)->MinTime(2.0);

BENCHMARK_MAIN();
