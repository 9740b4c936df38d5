// Resynchronisation cost of the archive readers on garbage built to defeat it:
// a good record, N lines of "WARC/1.0" (each starts a record with no blank line within 256 KiB),
// a good record, as a raw .warc and as one gzip member. Linear resynchronisation keeps the time
// per line constant as N grows (the fitted complexity is reported); the quadratic version took
// 28.8 s at N = 110,000.
#include <benchmark/benchmark.h>
#include <unistd.h>
#include <zlib.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>

#include "crd/io/inputs.hpp"

namespace {

namespace fs = std::filesystem;

std::string record(const std::string& uri) {
  const std::string block = "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\r\n<html><p>page</p></html>";
  return "WARC/1.0\r\nWARC-Type: response\r\nWARC-Target-URI: " + uri +
         "\r\nContent-Type: application/http; msgtype=response\r\nContent-Length: " + std::to_string(block.size()) +
         "\r\n\r\n" + block + "\r\n\r\n";
}

std::string gzip(const std::string& data) {
  z_stream zs{};
  deflateInit2(&zs, 6, Z_DEFLATED, 16 + MAX_WBITS, 8, Z_DEFAULT_STRATEGY);
  std::string out(deflateBound(&zs, data.size()), '\0');
  zs.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(data.data()));
  zs.avail_in = static_cast<uInt>(data.size());
  zs.next_out = reinterpret_cast<Bytef*>(out.data());
  zs.avail_out = static_cast<uInt>(out.size());
  deflate(&zs, Z_FINISH);
  out.resize(zs.total_out);
  deflateEnd(&zs);
  return out;
}

void read_version_lines(benchmark::State& state, bool gz) {
  const auto lines = static_cast<std::size_t>(state.range(0));
  std::string data = record("http://first.example/");
  data.reserve(data.size() + lines * 10 + 512);
  for (std::size_t i = 0; i < lines; ++i) data += "WARC/1.0\r\n";
  data += record("http://last.example/");
  if (gz) data = gzip(data);
  const fs::path path = fs::temp_directory_path() / ("crd-bench-resync-" + std::to_string(::getpid()) + (gz ? ".warc.gz" : ".warc"));
  std::ofstream(path, std::ios::binary).write(data.data(), static_cast<std::streamsize>(data.size()));
  crd::io::InputFile file{path.string(), path.string(), data.size(), crd::io::InputKind::Warc};
  std::size_t docs = 0;
  for (auto _ : state) {
    crd::Counters counters;
    docs = 0;
    crd::io::read_input(file, counters, [&](crd::io::Document&&) { ++docs; });
  }
  fs::remove(path);
  if (docs != 2) state.SkipWithError("the good records around the garbage were not both read");
  state.SetComplexityN(static_cast<std::int64_t>(lines));
  state.counters["ns_per_line"] = benchmark::Counter(static_cast<double>(lines) * state.iterations(),
                                                     benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
}

void BM_VersionLinesRaw(benchmark::State& state) { read_version_lines(state, false); }
void BM_VersionLinesGzip(benchmark::State& state) { read_version_lines(state, true); }

}  // namespace

BENCHMARK(BM_VersionLinesRaw)->RangeMultiplier(10)->Range(10000, 1000000)->Complexity()->Unit(benchmark::kMillisecond);
BENCHMARK(BM_VersionLinesGzip)->RangeMultiplier(10)->Range(10000, 1000000)->Complexity()->Unit(benchmark::kMillisecond);

BENCHMARK_MAIN();
