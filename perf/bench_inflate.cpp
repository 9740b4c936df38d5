// Inflate alone, three ways, on a per-record .warc.gz (one gzip member per record, as crawlers write
// them) and on a one-member .warc.gz of the same records: zlib (what crd used), ISA-L streaming
// (what crd uses: raw isal_inflate, and crd's Inflater with its fixed frames and staging buffer),
// libdeflate whole-member (the output buffer sized for the whole file: its best case). Output is
// thrown away; throughput counts decoded bytes.
//
//   CRD_INFLATE_GZ=X.warc.gz CRD_INFLATE_ONE=X-one.warc.gz build/perf/bench_inflate
//
// perf/make_warc.py writes X.warc.gz and X.warc; `gzip -6 -c X.warc > X-one.warc.gz` the other.
#include <benchmark/benchmark.h>
#include <isa-l/igzip_lib.h>
#include <zlib.h>

#ifdef CRD_HAVE_LIBDEFLATE
#include <libdeflate.h>
#endif

#include <cstdlib>
#include <fstream>
#include <iterator>
#include <memory>
#include <string>
#include <vector>

#include "inflater.hpp"

namespace {

std::string slurp(const char* env, const char* fallback) {
  const char* path = std::getenv(env);
  std::ifstream in(path != nullptr ? path : fallback, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

const std::string& input(int which) {
  static const std::string per_record = slurp("CRD_INFLATE_GZ", CRD_DEFAULT_INFLATE_GZ);
  static const std::string one_member = slurp("CRD_INFLATE_ONE", CRD_DEFAULT_INFLATE_ONE);
  return which == 0 ? per_record : one_member;
}

constexpr std::size_t kOut = 1 << 20;  // crd's reader decodes into at least 1 MiB of room

void BM_Zlib(benchmark::State& state) {
  const std::string& gz = input(static_cast<int>(state.range(0)));
  if (gz.empty()) return state.SkipWithError("no input: set CRD_INFLATE_GZ / CRD_INFLATE_ONE");
  std::vector<unsigned char> out(kOut);
  std::int64_t total = 0;
  for (auto _ : state) {
    z_stream zs{};
    inflateInit2(&zs, 16 + MAX_WBITS);
    zs.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(gz.data()));
    zs.avail_in = static_cast<uInt>(gz.size());
    for (;;) {
      zs.next_out = out.data();
      zs.avail_out = kOut;
      const int rc = inflate(&zs, Z_NO_FLUSH);
      total += static_cast<std::int64_t>(kOut - zs.avail_out);
      if (rc == Z_STREAM_END) {
        if (zs.avail_in == 0) break;
        inflateReset(&zs);
      } else if (rc != Z_OK) {
        break;
      }
    }
    inflateEnd(&zs);
  }
  state.SetBytesProcessed(total);
}

void BM_IsalStream(benchmark::State& state) {
  const std::string& gz = input(static_cast<int>(state.range(0)));
  if (gz.empty()) return state.SkipWithError("no input: set CRD_INFLATE_GZ / CRD_INFLATE_ONE");
  std::vector<unsigned char> out(kOut);
  auto s = std::make_unique<inflate_state>();
  std::int64_t total = 0;
  for (auto _ : state) {
    isal_inflate_init(s.get());
    s->crc_flag = ISAL_GZIP;
    s->next_in = reinterpret_cast<std::uint8_t*>(const_cast<char*>(gz.data()));
    s->avail_in = static_cast<std::uint32_t>(gz.size());
    for (;;) {
      s->next_out = out.data();
      s->avail_out = kOut;
      if (isal_inflate(s.get()) != ISAL_DECOMP_OK) break;
      total += static_cast<std::int64_t>(kOut - s->avail_out);
      if (s->block_state == ISAL_BLOCK_FINISH) {
        if (s->avail_in == 0) break;
        std::uint8_t* next = s->next_in;
        const std::uint32_t left = s->avail_in;
        isal_inflate_init(s.get());
        s->crc_flag = ISAL_GZIP;
        s->next_in = next;
        s->avail_in = left;
      }
    }
  }
  state.SetBytesProcessed(total);
}

// crd's own: ISA-L in 64 KiB input frames into the Inflater's staging buffer, copied out.
void BM_CrdInflater(benchmark::State& state) {
  using crd::io::detail::Inflater;
  const std::string& gz = input(static_cast<int>(state.range(0)));
  if (gz.empty()) return state.SkipWithError("no input: set CRD_INFLATE_GZ / CRD_INFLATE_ONE");
  std::vector<char> out(kOut);
  Inflater inflater(Inflater::Wrapper::Gzip);
  std::int64_t total = 0;
  for (auto _ : state) {
    const auto* in = reinterpret_cast<const unsigned char*>(gz.data());
    std::size_t left = gz.size();
    inflater.reset();
    for (;;) {
      const Inflater::Step step = inflater.step(in, left, out.data(), out.size());
      in += step.used;
      left -= step.used;
      total += static_cast<std::int64_t>(step.produced);
      if (step.status == Inflater::Status::End) {
        if (left == 0) break;
        inflater.reset();
      } else if (step.status != Inflater::Status::More || (step.used == 0 && step.produced == 0)) {
        break;
      }
    }
  }
  state.SetBytesProcessed(total);
}

#ifdef CRD_HAVE_LIBDEFLATE
// Whole members into one buffer sized for the whole file (a reader would have to find each
// member's size first, or guess and retry).
void BM_Libdeflate(benchmark::State& state) {
  const std::string& gz = input(static_cast<int>(state.range(0)));
  if (gz.empty()) return state.SkipWithError("no input: set CRD_INFLATE_GZ / CRD_INFLATE_ONE");
  std::vector<char> out(gz.size() * 12);
  libdeflate_decompressor* d = libdeflate_alloc_decompressor();
  std::int64_t total = 0;
  for (auto _ : state) {
    std::size_t at = 0;
    while (at < gz.size()) {
      std::size_t in_used = 0, produced = 0;
      if (libdeflate_gzip_decompress_ex(d, gz.data() + at, gz.size() - at, out.data(), out.size(), &in_used,
                                        &produced) != LIBDEFLATE_SUCCESS) {
        state.SkipWithError("libdeflate failed (output buffer too small?)");
        break;
      }
      at += in_used;
      total += static_cast<std::int64_t>(produced);
    }
  }
  libdeflate_free_decompressor(d);
  state.SetBytesProcessed(total);
}
BENCHMARK(BM_Libdeflate)->ArgName("one_member")->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond)->MinTime(1.0);
#endif

BENCHMARK(BM_Zlib)->ArgName("one_member")->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond)->MinTime(1.0);
BENCHMARK(BM_IsalStream)->ArgName("one_member")->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond)->MinTime(1.0);
BENCHMARK(BM_CrdInflater)->ArgName("one_member")->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond)->MinTime(1.0);

}  // namespace

BENCHMARK_MAIN();
