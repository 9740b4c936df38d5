// Chunker throughput on the Debian documentation HTML, held in memory: scan, scan+hash,
// dom+hash, and the SHA-1 and memchr floors over the same bytes.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <string>
#include <vector>

#include "crd/chunk/chunker.hpp"
#include "crd/neardup/sketch.hpp"
#include "crd/text/shingles.hpp"
#include "crd/text/tokenizer.hpp"
#include "crd/hash/sha1.hpp"
#include "bench_corpus.hpp"
#include "whitespace.hpp"  // src/chunk: the normalization kernels, measured one by one

namespace {

void BM_MemchrFloor(benchmark::State& state) {
  if (!have_corpus(state)) return;
  std::size_t count = 0;
  for (auto _ : state) {
    for (const std::string& page : corpus().pages) {
      const char* p = page.data();
      const char* end = p + page.size();
      while (const void* hit = std::memchr(p, '<', static_cast<std::size_t>(end - p))) {
        ++count;
        p = static_cast<const char*>(hit) + 1;
      }
    }
    benchmark::DoNotOptimize(count);
  }
  state.SetBytesProcessed(state.iterations() * corpus().bytes);
}

void BM_Sha1Files(benchmark::State& state) {
  if (!have_corpus(state)) return;
  crd::Sha1 sha1;
  for (auto _ : state) {
    for (const std::string& page : corpus().pages) benchmark::DoNotOptimize(sha1(page));
  }
  state.SetBytesProcessed(state.iterations() * corpus().bytes);
}

// kind: "scan", "dom" or "sentence"; hash: also SHA-1 the file and every chunk, as the pipeline does.
void run_chunker(benchmark::State& state, const char* kind, bool hash) {
  if (!have_corpus(state)) return;
  auto chunker = crd::chunk::make_chunker(*crd::parse_enum<crd::chunk::ChunkerKind>(kind), crd::chunk::ChunkerOptions{});
  crd::Sha1 sha1;
  std::uint64_t chunks = 0;
  std::uint64_t chunk_bytes = 0;
  std::uint8_t sink = 0;
  for (auto _ : state) {
    for (const std::string& page : corpus().pages) {
      if (hash) sink ^= sha1(page).bytes[0];
      chunker->chunk(page, "", [&](std::string_view chunk) {
        ++chunks;
        chunk_bytes += chunk.size();
        if (hash) sink ^= sha1(chunk).bytes[0];
      });
    }
    benchmark::DoNotOptimize(sink);
  }
  state.SetBytesProcessed(state.iterations() * corpus().bytes);
  const auto iters = static_cast<double>(state.iterations());
  state.counters["chunks"] = static_cast<double>(chunks) / iters;
  state.counters["chunk_bytes"] = static_cast<double>(chunk_bytes) / iters;
}

// Whitespace normalization of whole pages with one kernel: 0 byte-wise, 1 SWAR, 2 AVX2.
void BM_Normalize(benchmark::State& state) {
  if (!have_corpus(state)) return;
  namespace detail = crd::chunk::detail;
  const detail::NormalizeFn kernels[] = {&detail::normalize_bytewise, &detail::normalize_swar,
                                         detail::normalize_avx2_kernel()};
  const detail::NormalizeFn fn = kernels[state.range(0)];
  if (fn == nullptr) {
    state.SkipWithError("kernel not available on this CPU/build");
    return;
  }
  std::string out;
  for (auto _ : state) {
    for (const std::string& page : corpus().pages) {
      if (out.size() < page.size() + detail::kNormalizeSlack) out.resize(page.size() + detail::kNormalizeSlack);
      benchmark::DoNotOptimize(fn(page.data(), page.size(), out.data()));
    }
  }
  state.SetBytesProcessed(state.iterations() * corpus().bytes);
  state.SetLabel(state.range(0) == 0 ? "bytewise" : state.range(0) == 1 ? "swar" : "avx2");
}

void BM_ScanChunk(benchmark::State& state) { run_chunker(state, "scan", false); }
void BM_ScanChunkHash(benchmark::State& state) { run_chunker(state, "scan", true); }
void BM_DomChunkHash(benchmark::State& state) { run_chunker(state, "dom", true); }
// The dom chunker's text, then ICU's sentence breaks: its cost over BM_DomChunkHash is ICU's.
void BM_SentenceChunkHash(benchmark::State& state) { run_chunker(state, "sentence", true); }

}  // namespace

// crd neardup's per-page work on the same pages, next to the chunk pipeline's: the
// Henzinger 2006 (§2) tokenizer, then Alg. B's supershingles or Alg. C's simhash from the tokens, and the
// whole per-page step of the neardup scan (tokens, SHA-1 identity, both sketches).
const std::vector<std::vector<std::uint64_t>>& corpus_tokens() {
  static const auto tokens = [] {
    std::vector<std::vector<std::uint64_t>> out;
    for (const std::string& page : corpus().pages) out.push_back(crd::text::tokenize(page, "h"));
    return out;
  }();
  return tokens;
}

void BM_NeardupTokenize(benchmark::State& state) {
  if (!have_corpus(state)) return;
  std::uint64_t tokens = 0;
  for (auto _ : state) {
    for (const std::string& page : corpus().pages) tokens += crd::text::tokenize(page, "h").size();
  }
  state.SetBytesProcessed(state.iterations() * corpus().bytes);
  state.counters["tokens"] = static_cast<double>(tokens) / static_cast<double>(state.iterations());
}

// What: 0 = Alg. B (shingles, 84 min-values, 6 supershingles), 1 = Alg. C (384-bit simhash),
// from tokens made beforehand; throughput still counted in HTML bytes, to compare with chunking.
void BM_NeardupSketch(benchmark::State& state) {
  if (!have_corpus(state)) return;
  const auto& all = corpus_tokens();
  const crd::neardup::SketchParams params;
  std::uint64_t sink = 0;
  for (auto _ : state) {
    for (const auto& tokens : all) {
      if (tokens.empty()) continue;
      if (state.range(0) == 0) {
        sink ^= crd::neardup::supershingles(
                    crd::neardup::min_values(crd::text::shingles(tokens, params.k), params.m), params.m_prime)[0];
      } else {
        sink ^= crd::neardup::simhash(tokens, params.b)[0];
      }
    }
    benchmark::DoNotOptimize(sink);
  }
  state.SetBytesProcessed(state.iterations() * corpus().bytes);
  state.SetLabel(state.range(0) == 0 ? "B: minhash" : "C: simhash");
}

void BM_NeardupPage(benchmark::State& state) {
  if (!have_corpus(state)) return;
  crd::Sha1 sha1;
  const crd::neardup::SketchParams params;
  std::uint64_t sink = 0;
  for (auto _ : state) {
    for (const std::string& page : corpus().pages) {
      const auto tokens = crd::text::tokenize(page, "h");
      if (tokens.empty()) continue;
      sink ^= sha1(std::string_view(reinterpret_cast<const char*>(tokens.data()), tokens.size() * 8)).bytes[0];
      sink ^= crd::neardup::sketch(tokens, params).bits[0];
    }
    benchmark::DoNotOptimize(sink);
  }
  state.SetBytesProcessed(state.iterations() * corpus().bytes);
}

BENCHMARK(BM_MemchrFloor)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Sha1Files)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Normalize)->DenseRange(0, 2)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_ScanChunk)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_ScanChunkHash)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_DomChunkHash)->Unit(benchmark::kMillisecond)->Iterations(1);
BENCHMARK(BM_SentenceChunkHash)->Unit(benchmark::kMillisecond)->Iterations(1);
BENCHMARK(BM_NeardupTokenize)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_NeardupSketch)->DenseRange(0, 1)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_NeardupPage)->Unit(benchmark::kMillisecond);

BENCHMARK_MAIN();
