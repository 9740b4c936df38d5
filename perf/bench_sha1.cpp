// What one core allows for SHA-1 over many independent messages (a page's chunks, the pages
// themselves): one SHA-NI stream (OpenSSL, and crd's own compression with one lane), N messages
// interleaved block by block on SHA-NI (crd's sha1_ni.hpp; DocumentHasher uses two lanes: a page
// and its chunk), and intel-ipsec-mb's multi-buffer SHA-1 (its SSE manager, which uses SHA-NI
// where the CPU has it, and its AVX-512 manager: 16 messages in vector lanes) when its headers
// are there. Messages of 512 bytes (a chunk) and 16 KiB (a page; ipsec-mb 1.3 refuses 64 KiB); 4 MiB in all, so the
// data stays in the cache and the figure is the hashing alone. Throughput counts message bytes.
//
//   build/perf/bench_sha1
#include <benchmark/benchmark.h>

#ifdef CRD_HAVE_IPSEC_MB
#include <intel-ipsec-mb.h>
#endif

#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "crd/hash/sha1.hpp"
#include "sha1_ni.hpp"

namespace {

constexpr std::size_t kTotal = 4 << 20;

const std::string& data() {
  static const std::string d = [] {
    std::mt19937_64 rng(1);
    std::string s(kTotal, '\0');
    for (std::size_t i = 0; i < s.size(); i += 8) {
      const std::uint64_t v = rng();
      std::memcpy(&s[i], &v, 8);
    }
    return s;
  }();
  return d;
}

void BM_OpenSsl(benchmark::State& state) {
  const auto len = static_cast<std::size_t>(state.range(0));
  const std::string& d = data();
  crd::Sha1 sha1;
  std::uint8_t x = 0;
  for (auto _ : state) {
    for (std::size_t at = 0; at + len <= d.size(); at += len) x ^= sha1(std::string_view(d).substr(at, len)).bytes[0];
    benchmark::DoNotOptimize(x);
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * (d.size() / len * len)));
}

// N messages at a time, their blocks in lockstep (the compression alone: padding blocks left out,
// one per message, under 1% of 64 KiB and an eighth of 512 bytes).
template <int N>
void BM_ShaNiLanes(benchmark::State& state) {
  if (!crd::sha1_ni::cpu_has_sha_ni()) return state.SkipWithError("no SHA-NI on this CPU");
  const auto len = static_cast<std::size_t>(state.range(0));
  const auto* d = reinterpret_cast<const unsigned char*>(data().data());
  const std::size_t messages = kTotal / len / N * N;
  std::uint32_t st[N][5];
  for (auto _ : state) {
    for (std::size_t m = 0; m < messages; m += N) {
      std::uint32_t* states[N];
      for (int k = 0; k < N; ++k) {
        std::memcpy(st[k], crd::sha1_ni::kInit, sizeof st[k]);
        states[k] = st[k];
      }
      for (std::size_t b = 0; b < len; b += 64) {
        const unsigned char* blocks[N];
        for (int k = 0; k < N; ++k) blocks[k] = d + (m + static_cast<std::size_t>(k)) * len + b;
        crd::sha1_ni::compress<N>(states, blocks);
      }
      benchmark::DoNotOptimize(st);
    }
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * messages * len));
}

#ifdef CRD_HAVE_IPSEC_MB
// Every message a job; the manager hashes as many at once as its lanes allow.
void ipsec_mb(benchmark::State& state, bool avx512) {
  const auto len = static_cast<std::size_t>(state.range(0));
  const std::string& d = data();
  IMB_MGR* mgr = alloc_mb_mgr(0);
  if (avx512) {
    init_mb_mgr_avx512(mgr);
  } else {
    init_mb_mgr_sse(mgr);
  }
  if (imb_get_errno(mgr) != 0) {
    free_mb_mgr(mgr);
    return state.SkipWithError("this ipsec-mb manager does not run on this CPU");
  }
  const std::size_t messages = kTotal / len;
  std::vector<std::uint8_t> tags(messages * 20);
  bool failed = false;
  for (auto _ : state) {
    for (std::size_t m = 0; m < messages; ++m) {
      IMB_JOB* job = IMB_GET_NEXT_JOB(mgr);
      job->cipher_mode = IMB_CIPHER_NULL;
      job->cipher_direction = IMB_DIR_ENCRYPT;
      job->chain_order = IMB_ORDER_HASH_CIPHER;
      job->hash_alg = IMB_AUTH_SHA_1;
      job->src = reinterpret_cast<const std::uint8_t*>(d.data()) + m * len;
      job->hash_start_src_offset_in_bytes = 0;
      job->msg_len_to_hash_in_bytes = len;
      job->auth_tag_output = tags.data() + m * 20;
      job->auth_tag_output_len_in_bytes = 20;
      IMB_JOB* done = IMB_SUBMIT_JOB(mgr);
      if (done != nullptr && done->status != IMB_STATUS_COMPLETED) failed = true;
    }
    while (IMB_JOB* done = IMB_FLUSH_JOB(mgr)) {
      if (done->status != IMB_STATUS_COMPLETED) failed = true;
    }
    benchmark::DoNotOptimize(tags.data());
  }
  // The first message's digest must be OpenSSL's, or the figure is of nothing.
  crd::Sha1 sha1;
  if (failed || std::memcmp(sha1(std::string_view(d).substr(0, len)).bytes.data(), tags.data(), 20) != 0) {
    state.SkipWithError("ipsec-mb's SHA-1 failed or differs from OpenSSL's at this length");
  }
  free_mb_mgr(mgr);
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * messages * len));
}
void BM_IpsecMbSse(benchmark::State& state) { ipsec_mb(state, false); }
void BM_IpsecMbAvx512(benchmark::State& state) { ipsec_mb(state, true); }
BENCHMARK(BM_IpsecMbSse)->Arg(512)->Arg(16384)->MinTime(0.5);
BENCHMARK(BM_IpsecMbAvx512)->Arg(512)->Arg(16384)->MinTime(0.5);
#endif

BENCHMARK(BM_OpenSsl)->Arg(512)->Arg(16384)->MinTime(0.5);
BENCHMARK_TEMPLATE(BM_ShaNiLanes, 1)->Arg(512)->Arg(16384)->MinTime(0.5);
BENCHMARK_TEMPLATE(BM_ShaNiLanes, 2)->Arg(512)->Arg(16384)->MinTime(0.5);
BENCHMARK_TEMPLATE(BM_ShaNiLanes, 3)->Arg(512)->Arg(16384)->MinTime(0.5);
BENCHMARK_TEMPLATE(BM_ShaNiLanes, 4)->Arg(512)->Arg(16384)->MinTime(0.5);

}  // namespace

BENCHMARK_MAIN();
